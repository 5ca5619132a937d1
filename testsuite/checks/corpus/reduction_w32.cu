// Sum reductions written for 32-lane warps.
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff  // expect: W64-MASK32 (definition site)

__inline__ __device__ float warpReduceSum(float val) {
  for (int offset = 16; offset > 0; offset /= 2)  // expect: W64-SHFL-OFFSET
    val += __shfl_down_sync(FULL_MASK, val, offset);  // expect: W64-MASK32
  return val;
}

__inline__ __device__ float blockReduceSum(float val) {
  static __shared__ float shared[32];  // expect: W64-WARP-COUNT
  int lane = threadIdx.x % 32;  // expect: W64-LANE-MATH
  int wid = threadIdx.x / 32;  // expect: W64-LANE-MATH
  val = warpReduceSum(val);
  if (lane == 0)
    shared[wid] = val;
  __syncthreads();
  val = (threadIdx.x < blockDim.x / 32) ? shared[lane] : 0.f;  // expect: W64-WARP-COUNT
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
    out[blockIdx.x] = sum;
}

// Tree in shared memory down to one warp, then an unrolled shuffle tail that
// folds 64 partial sums first: correct on 64-lane wavefronts too.
__global__ void reduce_fold(const float *in, float *out, int n) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : 0.f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    float v = sdata[tid] + sdata[tid + 32];
    v += __shfl_down_sync(0xffffffff, v, 16);  // expect: W64-MASK32
    v += __shfl_down_sync(0xffffffff, v, 8);  // expect: W64-MASK32
    v += __shfl_down_sync(0xffffffff, v, 4);  // expect: W64-MASK32
    v += __shfl_down_sync(0xffffffff, v, 2);  // expect: W64-MASK32
    v += __shfl_down_sync(0xffffffff, v, 1);  // expect: W64-MASK32
    if (tid == 0)
      out[blockIdx.x] = v;
  }
}

// Every lane reduces, unrolled, for a per-warp partial.
__global__ void warp_partials(const float *in, float *partials) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  v += __shfl_xor_sync(0xffffffff, v, 16);  // expect: W64-MASK32, W64-SHFL-OFFSET
  v += __shfl_xor_sync(0xffffffff, v, 8);  // expect: W64-MASK32
  v += __shfl_xor_sync(0xffffffff, v, 4);  // expect: W64-MASK32
  v += __shfl_xor_sync(0xffffffff, v, 2);  // expect: W64-MASK32
  v += __shfl_xor_sync(0xffffffff, v, 1);  // expect: W64-MASK32
  if ((threadIdx.x & 31) == 0)  // expect: W64-LANE-MATH
    partials[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;  // expect: W64-LANE-MATH
}

void launch_reduce(const float *in, float *out, int n) {
  deviceReduceKernel<<<(n + 511) / 512, 512>>>(in, out, n);
  reduce_fold<<<(n + 255) / 256, 256>>>(in, out, n);
  warp_partials<<<n / 96, 96>>>(in, out);  // expect: W64-BLOCK-SIZE
}
