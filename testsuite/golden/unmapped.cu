// A name CUDA declares that no map entry covers is left as written and
// reported (CU2DCU-UNMAPPED), also where a template's call depends on the
// template's parameters and is resolved only per instantiation (none here).
#include <cublasXt.h>

void destroy(cublasXtHandle_t handle) {
  cublasXtDestroy(handle);
}

template <typename T>
void share(cublasXtHandle_t handle, T ratio) {
  cublasXtSetCpuRatio(handle, CUBLASXT_GEMM, CUBLASXT_FLOAT, ratio);
}

// A macro CUDA defines that no map entry covers (crt/host_defines.h's
// __inline_hint__), written in the code: reported too, not left silently.
__inline_hint__ int twice(int x) { return 2 * x; }
