// cuSPARSE's SpSM solve (CUDA 12 on) takes no buffer; hipSPARSE's takes the
// one given to the analysis. The shims keep it per descriptor (spsm).
#include <cusparse.h>

int solve(cusparseHandle_t handle, cusparseSpMatDescr_t A, cusparseDnMatDescr_t B,
          cusparseDnMatDescr_t C, void *buffer) {
  const float alpha = 1.0f;
  cusparseSpSMDescr_t spsm;
  cusparseSpSM_createDescr(&spsm);
  cusparseSpSM_analysis(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                        &alpha, A, B, C, CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, spsm, buffer);
  cusparseStatus_t status =
      cusparseSpSM_solve(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                         &alpha, A, B, C, CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, spsm);
  cusparseSpSM_destroyDescr(spsm);
  return status == CUSPARSE_STATUS_SUCCESS ? 0 : 1;
}

int main() { return 0; }
