// cuSPARSE generic API -> hipSPARSE.
#include <cuda_runtime.h>
#include <cusparse.h>

int spmvSetup(int rows, int cols, int nnz, int *rowPtr, int *colInd, float *values) {
  cusparseHandle_t handle;
  if (cusparseCreate(&handle) != CUSPARSE_STATUS_SUCCESS)
    return 1;
  cusparseSpMatDescr_t matrix;
  cusparseCreateCsr(&matrix, rows, cols, nnz, rowPtr, colInd, values, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  cusparseDestroySpMat(matrix);
  cusparseDestroy(handle);
  return 0;
}
