// Values the port takes from the project's own AMD branch: kLanes and
// kHostLanes are 32 only in the CUDA view (#else of __HIP_PLATFORM_AMD__),
// so the per-wavefront array indexed by threadIdx.x / kLanes, the host test
// against kHostLanes and the launch shape kHostLanes * 3 are right as the
// port compiles them: quiet. The same uses of a plain 32 are reported.
#include <cuda_runtime.h>

#if defined(__HIP_PLATFORM_AMD__)
constexpr int kLanes = 64;
static constexpr int kHostLanes = 64;
#else
constexpr int kLanes = 32;
static constexpr int kHostLanes = 32;
#endif

__global__ void blockMax(const float *in, float *out) {
  __shared__ float red[32];
  int lane = threadIdx.x % kLanes;
  int wave = threadIdx.x / kLanes;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = kLanes / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
  if (lane == 0) red[wave] = v;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = red[0];
}

__global__ void blockMax32(const float *in, float *out) {
  __shared__ float red[32];
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
  if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = red[0];
}

int launch(const float *in, float *out, int dev) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  if (prop.warpSize != kHostLanes) return -1;
  blockMax<<<4, kHostLanes * 3>>>(in, out);
  if (prop.warpSize != 32) return -2;
  blockMax32<<<4, 96>>>(in, out);
  return 0;
}

// In the port, threadIdx.x % kLanes numbers 64 lanes, as % warpSize does, so
// a stride of a literal 32 over it skips nothing and overlaps: reported.
__global__ void rowSums(const float *x, float *y, int cols) {
  int lane = threadIdx.x % kLanes;
  float s = 0.f;
  for (int c = lane; c < cols; c += 32) s += x[c];
  y[threadIdx.x] = s;
}
