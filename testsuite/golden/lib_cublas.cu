// cuBLAS -> hipBLAS (HIP 5.2 here has no hipBLAS: the hip64 step compiles it against hipBLAS 6.4).
#include <cuda_runtime.h>
#include <cublas_v2.h>

void gemm(const float *a, const float *b, float *c, int n) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  const float alpha = 1.0f, beta = 0.0f;
  cublasStatus_t status = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &alpha, a, n, b,
                                      n, &beta, c, n);
  (void)status;
  cublasDestroy(handle);
}
