// Error helpers for the runtime and cuBLAS(Lt) status types, as training
// programs write them.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cublasLt.h>
#include <cuda_runtime.h>

inline void cudaCheck(cudaError_t error, const char *file, int line) {
  if (error != cudaSuccess) {
    std::fprintf(stderr, "[CUDA ERROR] at %s:%d: %s\n", file, line, cudaGetErrorString(error));
    std::exit(EXIT_FAILURE);
  }
}
inline void cublasCheck(cublasStatus_t status, const char *file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "[cuBLAS ERROR] %d at %s:%d\n", int(status), file, line);
    std::exit(EXIT_FAILURE);
  }
}
#define cudaCheck(err) (cudaCheck(err, __FILE__, __LINE__))
#define cublasCheck(status) (cublasCheck((status), __FILE__, __LINE__))
