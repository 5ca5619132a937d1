// cuSOLVER -> hipSOLVER (its cusolverDn-compatible API): LU factorization and solve.
#include <cuda_runtime.h>
#include <cusolverDn.h>

int solve(float *a, float *b, int n, int *ipiv, int *info, cudaStream_t stream) {
  cusolverDnHandle_t handle;
  if (cusolverDnCreate(&handle) != CUSOLVER_STATUS_SUCCESS)
    return -1;
  cusolverDnSetStream(handle, stream);
  int lwork = 0;
  cusolverDnSgetrf_bufferSize(handle, n, n, a, n, &lwork);
  float *work = nullptr;
  cudaMalloc(&work, sizeof(float) * lwork);
  cusolverDnSgetrf(handle, n, n, a, n, work, ipiv, info);
  cusolverStatus_t s = cusolverDnSgetrs(handle, CUBLAS_OP_N, n, 1, a, n, ipiv, b, n, info);
  cudaFree(work);
  cusolverDnDestroy(handle);
  return s == CUSOLVER_STATUS_SUCCESS ? 0 : 1;
}
