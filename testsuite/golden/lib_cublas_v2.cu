// cuBLAS calls whose hipBLAS counterparts take cuBLAS's own types only in
// hipBLAS's v2 API: hipDataType (cudaDataType), hipComplex (cuComplex) and
// __half. cu2dcu defines HIPBLAS_V2 and HIPBLAS_USE_HIP_HALF before the
// include; without them hipBLAS 6.4 wants hipblasDatatype_t, hipblasComplex
// and uint16_t (HIP 5.2 here has no hipBLAS: the hip64 step compiles it).
#include <cuda_fp16.h>
#include <cuComplex.h>
#include <cublas_v2.h>

void dot(cublasHandle_t handle, int n, const float *x, const float *y, float *result) {
  cublasDotEx(handle, n, x, CUDA_R_32F, 1, y, CUDA_R_32F, 1, result, CUDA_R_32F, CUDA_R_32F);
}

void half_gemm(cublasHandle_t handle, int n, const __half *a, const __half *b, __half *c) {
  const __half alpha = __float2half(1.0f), beta = __float2half(0.0f);
  cublasHgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, n, b, n, &beta, c, n);
}

void complex_axpy(cublasHandle_t handle, int n, const cuComplex *x, cuComplex *y) {
  const cuComplex alpha = make_cuComplex(2.0f, 0.0f);
  cublasCaxpy(handle, n, &alpha, x, 1, y, 1);
}
