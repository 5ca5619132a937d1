#pragma once
#include <cuda_runtime.h>

inline void checkLast() {
  cudaError_t status = cudaGetLastError();
  (void)status;
}

#ifdef USE_DOUBLE
typedef double real;
#else
typedef float real;
#endif
