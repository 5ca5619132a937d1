// LayerNorm forward, one block per row, Welford-free two-pass with warp sums;
// written for 32-lane warps.
#include <cuda_runtime.h>

constexpr int kWarpSize = 32;  // expect: W64-LANE-MATH (definition site)

template <typename T>
__device__ T warp_sum(T v) {
  for (int mask = kWarpSize >> 1; mask > 0; mask >>= 1)  // expect: W64-SHFL-OFFSET
    v += __shfl_xor_sync(0xffffffffu, v, mask);  // expect: W64-MASK32
  return v;
}

template <typename T>
__device__ T block_sum(T v, T *scratch) {
  const int lane = threadIdx.x % kWarpSize;  // expect: W64-LANE-MATH
  const int wid = threadIdx.x / kWarpSize;  // expect: W64-LANE-MATH
  v = warp_sum(v);
  __syncthreads();
  if (lane == 0)
    scratch[wid] = v;
  __syncthreads();
  const int nwarps = (blockDim.x + kWarpSize - 1) / kWarpSize;  // expect: W64-WARP-COUNT
  v = threadIdx.x < nwarps ? scratch[threadIdx.x] : T(0);
  if (wid == 0)
    v = warp_sum(v);
  return v;
}

template <typename T>
__global__ void layernorm(const T *x, const T *gamma, const T *beta, T *y, int cols, float eps) {
  __shared__ T scratch[kWarpSize];  // expect: W64-WARP-COUNT
  __shared__ T stats[2];
  const T *xr = x + (size_t)blockIdx.x * cols;
  T s = 0;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    s += xr[c];
  s = block_sum(s, scratch);
  if (threadIdx.x == 0)
    stats[0] = s / cols;
  __syncthreads();
  T mean = stats[0];
  T q = 0;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    q += (xr[c] - mean) * (xr[c] - mean);
  q = block_sum(q, scratch);
  if (threadIdx.x == 0)
    stats[1] = rsqrtf(q / cols + eps);
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[(size_t)blockIdx.x * cols + c] = (xr[c] - mean) * stats[1] * gamma[c] + beta[c];
}

template __global__ void layernorm<float>(const float *, const float *, const float *, float *,
                                          int, float);

void launch_layernorm(const float *x, const float *g, const float *b, float *y, int rows,
                      int cols) {
  layernorm<float><<<rows, 1024>>>(x, g, b, y, cols, 1e-5f);
  layernorm<float><<<rows, 48>>>(x, g, b, y, 32, 1e-5f);  // expect: W64-BLOCK-SIZE
}
