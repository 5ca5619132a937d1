#include "include/common.cuh"
#include "include/plain.h"

__global__ void add(real *a, const real *b) { a[threadIdx.x] += b[threadIdx.x]; }

#ifdef USE_DOUBLE
// Parsed only with -DUSE_DOUBLE (tree_test.py's compile database): only then
// does the AST see this kernel, report its 32-lane math (W64-LANE-MATH) and,
// with --fix-wave64, rewrite it (its __syncwarp makes it warp-level code).
__global__ void lanes(int *lane) { __syncwarp(); lane[threadIdx.x] = threadIdx.x % 32; }
#endif

int main() {
  real *a, *b;
  cudaMalloc(&a, 64 * sizeof(real));
  cudaMalloc(&b, 64 * sizeof(real));
  add<<<1, 64>>>(a, b);
  checkLast();
  cudaFree(a);
  cudaFree(b);
  return twice(0);
}
