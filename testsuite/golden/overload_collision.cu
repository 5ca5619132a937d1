// CU2DCU-COLLISION: error-string helpers with one overload per CUDA error
// type (the runtime's cudaError_t, the driver's CUresult). Under HIP both
// take a hipError_t: the second definition is left out (#if 0) and its calls
// reach the first, which switches over the same HIP values.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

static const char *errorName(cudaError_t e) {
  switch (e) {
  case cudaSuccess: return "success";
  case cudaErrorInvalidValue: return "invalid value";
  default: return "other error";
  }
}

static const char *errorName(CUresult e) {
  switch (e) {
  case CUDA_SUCCESS: return "success";
  case CUDA_ERROR_INVALID_VALUE: return "invalid value";
  default: return "other error";
  }
}

// Overloads that stay apart under HIP: nothing to do.
static int code(cudaError_t e) { return (int)e; }
static int code(int e) { return e; }

template <typename T> void check(T result, const char *what) {
  if (result) printf("%s: %s (%d)\n", what, errorName(result), code(result));
}

int main() {
  check(cudaSetDevice(0), "cudaSetDevice");
  check(cuInit(0), "cuInit");
  return 0;
}
