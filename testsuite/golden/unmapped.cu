// A name CUDA declares that no map entry covers is left as written and
// reported (CU2DCU-UNMAPPED), also where a template's call depends on the
// template's parameters and is resolved only per instantiation (none here).
#include <cublasLt.h>

void destroy(cublasLtMatrixLayout_t layout) {
  cublasLtMatrixLayoutDestroy(layout);
}

template <typename T>
void set(cublasLtMatmulDesc_t desc, const T *value) {
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, value, sizeof(T));
}

// A macro CUDA defines that no map entry covers (crt/host_defines.h's
// __inline_hint__), written in the code: reported too, not left silently.
__inline_hint__ int twice(int x) { return 2 * x; }
