// Directives: includes spelled every way, duplicate includes removed,
// conditions translated, #pragma/#error/#undef left alone, macro names kept.
#  include <cuda_runtime.h>
#include /* the runtime API */ <cuda_runtime_api.h>
# include "cuda_runtime.h"
#include <vector>
#pragma once

#if defined(CUDART_VERSION) && CUDART_VERSION >= 11000
#define HAVE_NEW_API 1
#else
#error "cudaMalloc needs CUDA 11"
#endif

#ifdef cudaStreamPerThread
#undef cudaStreamPerThread
#endif

#define cudaMyAlloc(p, n) cudaMalloc(p, n)
#define SYNC() cudaDeviceSynchronize()

void f() {
  void *p = nullptr;
  cudaMyAlloc(&p, 16);
  SYNC();
}
