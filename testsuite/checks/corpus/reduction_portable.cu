// Sum reductions written for any warp width.
#include <cuda_runtime.h>

__inline__ __device__ float warpReduceSum(float val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)  // quiet: W64-SHFL-OFFSET
    val += __shfl_down_sync(0xffffffff, val, offset);  // expect: W64-MASK32
  return val;
}

__inline__ __device__ float blockReduceSum(float val) {
  static __shared__ float shared[1024 / 32];  // quiet: W64-WARP-COUNT
  int lane = threadIdx.x % warpSize;  // quiet: W64-LANE-MATH
  int wid = threadIdx.x / warpSize;  // quiet: W64-LANE-MATH
  val = warpReduceSum(val);
  if (lane == 0)
    shared[wid] = val;
  __syncthreads();
  int nwarps = (blockDim.x + warpSize - 1) / warpSize;  // quiet: W64-WARP-COUNT
  val = (threadIdx.x < nwarps) ? shared[lane] : 0.f;
  if (wid == 0)
    val = warpReduceSum(val);
  return val;
}

__global__ void deviceReduceKernel(const float *in, float *out, int n) {
  float sum = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    sum += in[i];
  sum = blockReduceSum(sum);
  if (threadIdx.x == 0)
    atomicAdd(out, sum);
}

__global__ void sum_of_squares(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] * in[i] : 0.f;
  unsigned mask = __activemask();  // expect: W64-BALLOT-NARROW
  for (int offset = warpSize >> 1; offset > 0; offset >>= 1)
    v += __shfl_down_sync(mask, v, offset);
  if ((threadIdx.x & (warpSize - 1)) == 0)  // quiet: W64-LANE-MATH
    atomicAdd(out, v);
}

void launch_reduce(const float *in, float *out, int n) {
  deviceReduceKernel<<<(n + 255) / 256, 256>>>(in, out, n);
  sum_of_squares<<<(n + 127) / 128, 128>>>(in, out, n);
}
