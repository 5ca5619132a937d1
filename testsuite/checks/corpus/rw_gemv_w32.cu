// Warp-per-row GEMV with a named full mask and a WARP_SIZE macro.
#include <cuda_runtime.h>

#define WARP_SIZE 32  // expect: W64-LANE-MATH (definition site)

__device__ __forceinline__ float warp_reduce_sum_f32(float v) {
  const unsigned int MASK = 0xffffffffu;  // expect: W64-MASK32 (definition site)
#pragma unroll
  for (int offset = (WARP_SIZE >> 1); offset >= 1; offset >>= 1)  // expect: W64-SHFL-OFFSET
    v += __shfl_xor_sync(MASK, v, offset);  // expect: W64-MASK32
  return v;
}

// y = A x, A is rows x cols row-major; blockDim = (32, 4): one warp per row
__global__ void sgemv_k32(const float *A, const float *x, float *y, int rows, int cols) {
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int lane = tx % WARP_SIZE;  // expect: W64-LANE-MATH
  int row = blockIdx.x * blockDim.y + ty;
  if (row < rows) {
    float sum = 0.f;
    int nrep = (cols + WARP_SIZE - 1) / WARP_SIZE;  // expect: W64-LANE-MATH
    for (int w = 0; w < nrep; ++w) {
      int k = w * WARP_SIZE + lane;  // expect: W64-LANE-MATH
      if (k < cols)
        sum += A[row * cols + k] * x[k];
    }
    sum = warp_reduce_sum_f32(sum);
    if (lane == 0)
      y[row] = sum;
  }
}

// rows of 16 columns: two rows per warp, half a warp each
__global__ void sgemv_k16(const float *A, const float *x, float *y, int rows) {
  int tx = threadIdx.x;
  int lane = tx % WARP_SIZE;  // expect: W64-LANE-MATH
  int row = (blockIdx.x * blockDim.y + threadIdx.y) * 2 + lane / 16;
  int col = lane % 16;
  if (row < rows) {
    float sum = A[row * 16 + col] * x[col];
    for (int offset = 8; offset >= 1; offset >>= 1)
      sum += __shfl_down_sync(0xffffffff, sum, offset, 16);  // expect: W64-MASK32
    if (col == 0)
      y[row] = sum;
  }
}

void launch(const float *A, const float *x, float *y, int rows, int cols) {
  dim3 block(32, 4);
  sgemv_k32<<<(rows + 3) / 4, block>>>(A, x, y, rows, cols);
  sgemv_k16<<<(rows + 7) / 8, block>>>(A, x, y, rows);
}
