// C++17 removed the 'register' storage class: nvcc accepts it with a warning,
// hipcc's clang rejects it under -std=c++17. The keyword is removed; the file
// still parses with the AST (no recovered errors).
#include <cuda_runtime.h>

__device__ float horner(const float *c, int n, float x) {
  register float acc = 0.f;
  for (register int i = n - 1; i >= 0; --i)
    acc = acc * x + c[i];
  return acc;
}

__global__ void eval(const float *c, float *y, int n) {
  register const int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = horner(c, n, float(i));
}
