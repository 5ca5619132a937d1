// Reached only through saxpy.cuh, relative to its folder.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

inline void check(cudaError_t status, const char *what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
    std::exit(1);
  }
}
