// hipBLAS declares the batched pointer arrays less const than cuBLAS
// (const void *A[] for const void *const Aarray[], float *const A[] for
// const float *const A[]): arrays C++ would not convert are cast to HIP's
// type; an array it converts is left as written.
#include <cublas_v2.h>

cublasStatus_t batched(cublasHandle_t handle, void **a, void **b, void **c, int n, int count) {
  const float one = 1.0f, zero = 0.0f;
  return cublasGemmBatchedEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, CUDA_R_32F, n,
                             b, CUDA_R_32F, n, &zero, c, CUDA_R_32F, n, count, CUBLAS_COMPUTE_32F,
                             CUBLAS_GEMM_DEFAULT);
}

cublasStatus_t solve(cublasHandle_t handle, const float *const *lu, float **rhs, const int *pivots,
                     int *info, int n, int count) {
  return cublasSgetrsBatched(handle, CUBLAS_OP_N, n, 1, lu, n, pivots, rhs, n, info, count);
}

cublasStatus_t invert(cublasHandle_t handle, float **lu, const int *pivots, float **inverse,
                      int *info, int n, int count) {
  return cublasSgetriBatched(handle, n, lu, n, pivots, inverse, n, info, count);
}
