// Code written before CUDA 11 passes the GEMM compute type as a cudaDataType,
// which cuBLAS still takes through C++ overloads that migrate it to a
// cublasComputeType_t. hipBLAS has no such overloads: those calls become a
// shim doing cuBLAS's migration; calls with a cublasComputeType_t are renamed.
#include <cublas_v2.h>

cublasStatus_t gemm_old(cublasHandle_t handle, const float *a, const float *b, float *c, int n) {
  const float one = 1.0f, zero = 0.0f;
  return cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, CUDA_R_32F, n, b,
                      CUDA_R_32F, n, &zero, c, CUDA_R_32F, n, CUDA_R_32F, CUBLAS_GEMM_DEFAULT);
}

cublasStatus_t gemm_new(cublasHandle_t handle, const float *a, const float *b, float *c, int n) {
  const float one = 1.0f, zero = 0.0f;
  return cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, CUDA_R_32F, n, b,
                      CUDA_R_32F, n, &zero, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

cublasStatus_t strided_old(cublasHandle_t handle, const double *a, const double *b, double *c, int n,
                           int count) {
  const double one = 1.0, zero = 0.0;
  long long stride = (long long)n * n;
  return cublasGemmStridedBatchedEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &one, a, CUDA_R_64F,
                                    n, stride, b, CUDA_R_64F, n, stride, &zero, c, CUDA_R_64F, n,
                                    stride, count, CUDA_R_64F, CUBLAS_GEMM_DEFAULT);
}

cublasStatus_t batched_old(cublasHandle_t handle, const void *const *a, const void *const *b,
                           void *const *c, int n, int count) {
  const float one = 1.0f, zero = 0.0f;
  return cublasGemmBatchedEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, CUDA_R_16F, n, b,
                             CUDA_R_16F, n, &zero, c, CUDA_R_16F, n, count, CUDA_R_32F,
                             CUBLAS_GEMM_DEFAULT);
}
