// Row softmax, one warp per row, written for 32-lane warps.
// Every shuffle passes an explicit width of 32 and nothing reads the whole warp:
// the code works in 32-lane groups, which a 64-lane wavefront runs as two. Lane
// and warp math by 32 numbers those groups and is right on DCU (turning it into
// warpSize would break the reductions), so it is quiet; the width is reported.
#include <cuda_runtime.h>
#include <float.h>

#define WARP_SIZE 32  // expect: W64-LANE-MATH (definition site)
#define FINAL_MASK 0xffffffff  // expect: W64-MASK32 (definition site)

__device__ __forceinline__ float warpMax(float v) {
#pragma unroll
  for (int mask = WARP_SIZE / 2; mask > 0; mask >>= 1)  // quiet: W64-SHFL-OFFSET
    v = fmaxf(v, __shfl_xor_sync(FINAL_MASK, v, mask, WARP_SIZE));  // expect: W64-MASK32, W64-SHFL-OFFSET
  return v;
}

__device__ __forceinline__ float warpSum(float v) {
#pragma unroll
  for (int mask = WARP_SIZE / 2; mask > 0; mask >>= 1)  // quiet: W64-SHFL-OFFSET
    v += __shfl_xor_sync(FINAL_MASK, v, mask, WARP_SIZE);  // expect: W64-MASK32, W64-SHFL-OFFSET
  return v;
}

// blockDim = (32, 4): threadIdx.x is the lane, threadIdx.y the row in the block
__global__ void softmax_rows(const float *x, float *y, int rows, int cols) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= rows)
    return;
  const float *xr = x + (size_t)row * cols;
  float m = -FLT_MAX;
  for (int c = threadIdx.x; c < cols; c += WARP_SIZE)
    m = fmaxf(m, xr[c]);
  m = warpMax(m);
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += WARP_SIZE)
    s += __expf(xr[c] - m);
  s = warpSum(s);
  for (int c = threadIdx.x; c < cols; c += WARP_SIZE)
    y[(size_t)row * cols + c] = __expf(xr[c] - m) / s;
}

// one block per row: block reductions through per-warp slots
__global__ void softmax_block(const float *x, float *y, int cols) {
  __shared__ float red[32];  // quiet: W64-WARP-COUNT
  const float *xr = x + (size_t)blockIdx.x * cols;
  int lane = threadIdx.x & 31;  // quiet: W64-LANE-MATH
  int warp = threadIdx.x >> 5;  // quiet: W64-LANE-MATH
  float m = -FLT_MAX;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    m = fmaxf(m, xr[c]);
  m = warpMax(m);
  if (lane == 0)
    red[warp] = m;
  __syncthreads();
  if (warp == 0) {
    m = lane < (blockDim.x >> 5) ? red[lane] : -FLT_MAX;  // quiet: W64-WARP-COUNT
    m = warpMax(m);
    if (lane == 0)
      red[0] = m;
  }
  __syncthreads();
  m = red[0];
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[(size_t)blockIdx.x * cols + c] = __expf(xr[c] - m);
}

void launch_softmax(const float *x, float *y, int rows, int cols) {
  dim3 block(32, 4);
  softmax_rows<<<(rows + 3) / 4, block>>>(x, y, rows, cols);
  softmax_block<<<rows, 256>>>(x, y, cols);
}
