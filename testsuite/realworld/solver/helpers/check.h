// Error helpers for both CUDA error types, as real programs write them.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>

static const char *errorName(cudaError_t error) { return cudaGetErrorName(error); }
static const char *errorName(CUresult error) {
  const char *name = nullptr;
  cuGetErrorName(error, &name);
  return name ? name : "unknown";
}

template <typename T> void check(T result, const char *what, const char *file, int line) {
  if (result) {
    std::fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, what, errorName(result));
    std::exit(1);
  }
}
#define CHECK(call) check((call), #call, __FILE__, __LINE__)
