// CSR sparse matrix-vector product, vector kernel (one warp per row),
// written for 32-lane warps.
#include <cuda_runtime.h>

#define THREADS_PER_VECTOR 32
#define VECTORS_PER_BLOCK 4

__global__ void spmv_csr_vector(int rows, const int *rowptr, const int *cols, const float *vals,
                                const float *x, float *y) {
  __shared__ volatile float sdata[VECTORS_PER_BLOCK * THREADS_PER_VECTOR + 16];
  int thread_id = blockIdx.x * blockDim.x + threadIdx.x;
  int warp_id = thread_id / 32;  // expect: W64-LANE-MATH
  int lane = thread_id & (32 - 1);  // expect: W64-LANE-MATH
  int row = warp_id;
  if (row < rows) {
    int begin = rowptr[row], end = rowptr[row + 1];
    float sum = 0.f;
    for (int j = begin + lane; j < end; j += 32)  // expect: W64-LANE-MATH
      sum += vals[j] * x[cols[j]];
    sum += __shfl_down_sync(0xffffffff, sum, 16);  // expect: W64-MASK32, W64-SHFL-OFFSET
    sum += __shfl_down_sync(0xffffffff, sum, 8);  // expect: W64-MASK32
    sum += __shfl_down_sync(0xffffffff, sum, 4);  // expect: W64-MASK32
    sum += __shfl_down_sync(0xffffffff, sum, 2);  // expect: W64-MASK32
    sum += __shfl_down_sync(0xffffffff, sum, 1);  // expect: W64-MASK32
    if (lane == 0)
      y[row] = sum;
  }
  sdata[threadIdx.x] = 0.f;
}

// scalar kernel: one thread per row; no warp assumptions
__global__ void spmv_csr_scalar(int rows, const int *rowptr, const int *cols, const float *vals,
                                const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float sum = 0.f;
    for (int j = rowptr[row]; j < rowptr[row + 1]; ++j)
      sum += vals[j] * x[cols[j]];
    y[row] = sum;
  }
}

// short rows: 8 lanes per row, deliberate sub-warp groups
__global__ void spmv_csr_subwarp(int rows, const int *rowptr, const int *cols, const float *vals,
                                 const float *x, float *y) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int row = tid / 8;
  int sub = tid % 8;
  if (row >= rows)
    return;
  float sum = 0.f;
  for (int j = rowptr[row] + sub; j < rowptr[row + 1]; j += 8)
    sum += vals[j] * x[cols[j]];
  for (int o = 4; o > 0; o /= 2)
    sum += __shfl_down_sync(0xffffffff, sum, o, 8);  // expect: W64-MASK32
  if (sub == 0)
    y[row] = sum;
}

void spmv(int rows, const int *rp, const int *c, const float *v, const float *x, float *y) {
  int threads = VECTORS_PER_BLOCK * THREADS_PER_VECTOR;
  spmv_csr_vector<<<(rows + VECTORS_PER_BLOCK - 1) / VECTORS_PER_BLOCK, threads>>>(rows, rp, c,
                                                                                   v, x, y);
  spmv_csr_scalar<<<(rows + 255) / 256, 256>>>(rows, rp, c, v, x, y);
  spmv_csr_subwarp<<<(rows * 8 + 255) / 256, 256>>>(rows, rp, c, v, x, y);
}
