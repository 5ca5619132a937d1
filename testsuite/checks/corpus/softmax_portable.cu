// Row softmax written for any warp width.
#include <cuda_runtime.h>
#include <float.h>

__device__ __forceinline__ float warpMax(float v) {
  for (int mask = warpSize / 2; mask > 0; mask >>= 1)  // quiet: W64-SHFL-OFFSET
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, mask));  // expect: W64-MASK32
  return v;
}

__device__ __forceinline__ float warpSum(float v) {
  for (int mask = warpSize / 2; mask > 0; mask >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, mask);  // expect: W64-MASK32
  return v;
}

// one warp per row; the block is warpSize x rowsPerBlock
__global__ void softmax_rows(const float *x, float *y, int rows, int cols) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= rows)
    return;
  const float *xr = x + (size_t)row * cols;
  float m = -FLT_MAX;
  for (int c = threadIdx.x; c < cols; c += warpSize)  // quiet: W64-LANE-MATH
    m = fmaxf(m, xr[c]);
  m = warpMax(m);
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += warpSize)
    s += __expf(xr[c] - m);
  s = warpSum(s);
  for (int c = threadIdx.x; c < cols; c += warpSize)
    y[(size_t)row * cols + c] = __expf(xr[c] - m) / s;
}

__global__ void softmax_block(const float *x, float *y, int cols) {
  extern __shared__ float red[];  // one slot per warp, sized by the launch
  const float *xr = x + (size_t)blockIdx.x * cols;
  int lane = threadIdx.x % warpSize;
  int warp = threadIdx.x / warpSize;
  int nwarps = blockDim.x / warpSize;  // quiet: W64-WARP-COUNT
  float m = -FLT_MAX;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    m = fmaxf(m, xr[c]);
  m = warpMax(m);
  if (lane == 0)
    red[warp] = m;
  __syncthreads();
  if (warp == 0) {
    m = lane < nwarps ? red[lane] : -FLT_MAX;
    m = warpMax(m);
    if (lane == 0)
      red[0] = m;
  }
  __syncthreads();
  m = red[0];
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[(size_t)blockIdx.x * cols + c] = __expf(xr[c] - m);
}

void launch_softmax(const float *x, float *y, int rows, int cols, int warp) {
  dim3 block(warp, 4);
  softmax_rows<<<(rows + 3) / 4, block>>>(x, y, rows, cols);
  softmax_block<<<rows, 256, 256 / warp * sizeof(float)>>>(x, y, cols);
}
