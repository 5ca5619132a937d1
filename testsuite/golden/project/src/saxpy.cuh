#pragma once
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err = (call);                                              \
    if (err != cudaSuccess) {                                              \
      fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(err));         \
      exit(1);                                                             \
    }                                                                      \
  } while (0)

void saxpy(int n, float a, const float *x, float *y);
