// A case label naming a CUDA enumerator HIP lacks can never be taken on HIP:
// it is removed with a warning, the statements after it kept (cuda-samples'
// helper_cuda.h switches over every status of a library).
#include <cuda_runtime.h>
#include <cusparse.h>

const char *format_name(cusparseFormat_t format) {
  switch (format) {
  case CUSPARSE_FORMAT_CSR: return "CSR";
  case CUSPARSE_FORMAT_BSR: return "BSR";          // no hipSPARSE equivalent
  case CUSPARSE_FORMAT_COO:
  case CUSPARSE_FORMAT_SLICED_ELLPACK:             // shares the COO statement
    return "COO or sliced ELLPACK";
  default: return "other";
  }
}

int error_class(cudaError_t error) {
  switch (error) {
  case cudaSuccess: return 0;
  case cudaErrorAddressOfConstant: return 1;
  default: return 2;
  }
}

int main() { return format_name(CUSPARSE_FORMAT_CSR)[0] == 'C' ? error_class(cudaSuccess) : 1; }
