// Code written for CUDA 10/11: APIs that CUDA 13's headers no longer declare
// and HIP still does. clang reports the legacy calls as undeclared, and says
// nothing about a call on the texture reference it could not declare; the
// lexical rules translate both where clang recovered (CU2DCU-REMOVED notes).
#include <cuda_runtime.h>
#include <cusparse.h>

texture<float, 1, cudaReadModeElementType> coefficients;

__global__ void scale(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] *= tex1Dfetch(coefficients, i);
}

int spmv(cusparseHandle_t handle, cusparseMatDescr_t descr, int m, int nnz, const float *val,
         const int *rowPtr, const int *colInd, const float *x, float *y) {
  const float alpha = 1.0f, beta = 0.0f;
  cusparseStatus_t status = cusparseScsrmv(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, m, m, nnz,
                                           &alpha, descr, val, rowPtr, colInd, x, &beta, y);
  return status == CUSPARSE_STATUS_SUCCESS ? 0 : 1;
}

int gather(cusparseHandle_t handle, int nnz, const float *y, float *values, const int *indices) {
  return cusparseSgthr(handle, nnz, y, values, indices, CUSPARSE_INDEX_BASE_ZERO) !=
         CUSPARSE_STATUS_SUCCESS;
}

int triangular(cusparseHandle_t handle, cusparseMatDescr_t descr, int m, int nnz, float *val,
               const int *rowPtr, const int *colInd) {
  csrsv2Info_t info;
  cusparseCreateCsrsv2Info(&info);
  int bytes = 0;
  cusparseScsrsv2_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, m, nnz, descr, val, rowPtr,
                             colInd, info, &bytes);
  cusparseDestroyCsrsv2Info(info);
  return bytes;
}

int hybrid(cusparseHandle_t handle, cusparseMatDescr_t descr, int m, const float *val,
           const int *rowPtr, const int *colInd) {
  cusparseHybMat_t hyb;
  cusparseCreateHybMat(&hyb);
  cusparseScsr2hyb(handle, m, m, descr, val, rowPtr, colInd, hyb, 0, CUSPARSE_HYB_PARTITION_AUTO);
  return cusparseDestroyHybMat(hyb) != CUSPARSE_STATUS_SUCCESS;
}

int main() {
  float *d = nullptr;
  cudaMalloc(&d, 64 * sizeof(float));
  cudaBindTexture(0, coefficients, d, 64 * sizeof(float));
  scale<<<1, 64>>>(d, 64);
  cudaUnbindTexture(coefficients);
  cudaThreadSynchronize();
  cudaFree(d);
  return 0;
}
