// Code in inactive branches and in macro bodies that are never expanded is
// translated too: a port must build in every configuration.
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <device_launch_parameters.h>

#define ALLOC(ptr, bytes) cudaMalloc((void **)&(ptr), (bytes))
#define UNUSED_FREE(ptr) cudaFree(ptr)

#ifdef USE_PINNED
static void *pinned(size_t bytes) {
  void *p = nullptr;
  cudaMallocHost(&p, bytes);
  return p;
}
#else
static void *pinned(size_t bytes) { return nullptr; }
#endif

#if CUDART_VERSION >= 12000
static const int kModern = 1;
#else
static const int kModern = 0;
#endif

void demo() {
  float *d = nullptr;
  ALLOC(d, 64);
  cudaDeviceSynchronize();
  (void)pinned(16);
  (void)kModern;
}
