// Kernels parameterised by a warp-size template argument that defaults to 32.
#include <cuda_runtime.h>

#define WARP_SIZE 32  // expect: W64-LANE-MATH (definition site)

template <const int kWarpSize = WARP_SIZE>
__device__ __forceinline__ float warp_reduce_sum(float val) {
#pragma unroll
  for (int mask = kWarpSize >> 1; mask >= 1; mask >>= 1)  // expect: W64-SHFL-OFFSET
    val += __shfl_xor_sync(0xffffffff, val, mask);  // expect: W64-MASK32
  return val;
}

template <const int kWarpSize = WARP_SIZE>
__device__ __forceinline__ float warp_reduce_max(float val) {
#pragma unroll
  for (int mask = kWarpSize >> 1; mask >= 1; mask >>= 1)  // expect: W64-SHFL-OFFSET
    val = fmaxf(val, __shfl_xor_sync(0xffffffff, val, mask, kWarpSize));  // expect: W64-MASK32, W64-SHFL-OFFSET
  return val;
}

template <const int NUM_THREADS = 256>
__device__ float block_reduce_sum(float val) {
  constexpr int NUM_WARPS = (NUM_THREADS + WARP_SIZE - 1) / WARP_SIZE;  // expect: W64-WARP-COUNT
  int warp = threadIdx.x / WARP_SIZE;  // expect: W64-LANE-MATH
  int lane = threadIdx.x % WARP_SIZE;  // expect: W64-LANE-MATH
  static __shared__ float shared[NUM_WARPS];
  val = warp_reduce_sum<WARP_SIZE>(val);
  if (lane == 0)
    shared[warp] = val;
  __syncthreads();
  val = (lane < NUM_WARPS) ? shared[lane] : 0.0f;
  val = warp_reduce_sum<NUM_WARPS>(val);
  return val;
}

template <const int NUM_THREADS = 256>
__global__ void dot_product(const float *a, const float *b, float *y, int n) {
  int idx = blockIdx.x * NUM_THREADS + threadIdx.x;
  float prod = idx < n ? a[idx] * b[idx] : 0.0f;
  prod = block_reduce_sum<NUM_THREADS>(prod);
  if (threadIdx.x == 0)
    atomicAdd(y, prod);
}

template <const int NUM_THREADS = 128>
__global__ void safe_softmax_per_token(const float *x, float *y, int n) {
  const int tid = threadIdx.x;
  const int idx = blockIdx.x * blockDim.x + tid;
  float v = idx < n ? x[idx] : -1e30f;
  float m = warp_reduce_max<WARP_SIZE>(v);
  float e = idx < n ? __expf(v - m) : 0.0f;
  float s = warp_reduce_sum<WARP_SIZE>(e);
  if (idx < n)
    y[idx] = e / s;
}

void launch(const float *a, const float *b, float *y, int n) {
  dot_product<256><<<(n + 255) / 256, 256>>>(a, b, y, n);
  safe_softmax_per_token<32><<<(n + 31) / 32, 32>>>(a, y, n);  // expect: W64-BLOCK-SIZE
}
