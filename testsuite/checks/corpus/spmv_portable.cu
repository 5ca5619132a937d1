// CSR sparse matrix-vector product written for any warp width.
#include <cuda_runtime.h>

__global__ void spmv_csr_vector(int rows, const int *rowptr, const int *cols, const float *vals,
                                const float *x, float *y) {
  int thread_id = blockIdx.x * blockDim.x + threadIdx.x;
  int warp_id = thread_id / warpSize;  // quiet: W64-LANE-MATH
  int lane = thread_id % warpSize;
  int row = warp_id;
  if (row < rows) {
    int begin = rowptr[row], end = rowptr[row + 1];
    float sum = 0.f;
    for (int j = begin + lane; j < end; j += warpSize)
      sum += vals[j] * x[cols[j]];
    for (int o = warpSize / 2; o > 0; o /= 2)
      sum += __shfl_down_sync(0xffffffff, sum, o);  // expect: W64-MASK32
    if (lane == 0)
      y[row] = sum;
  }
}

void spmv(int rows, const int *rp, const int *c, const float *v, const float *x, float *y,
          int warp) {
  int threads = 256;
  int rows_per_block = threads / warp;
  spmv_csr_vector<<<(rows + rows_per_block - 1) / rows_per_block, threads>>>(rows, rp, c, v, x, y);
}
