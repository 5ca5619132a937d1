// Line continuations: multi-line macros with launches and API calls, and a
// name and a launch's '>>>' split by a backslash-newline.
#include <cuda_runtime.h>

__global__ void k(float *p, int n) {}

#define LAUNCH(p, n) \
  k<<<(n + 255) / 256, \
      256>>>(p, n)
#define CHECK(x) do { cudaError_t e = (x); \
    if (e != cudaSuccess) return; } while (0)

void f(float *p, int n) {
  LAUNCH(p, n);
  CHECK(cudaMemset(p, 0, n));
  cuda\
Free(p);
}

void g(float *p, int n) {
  k<<<1, 2>>\
>(p, n);
}
