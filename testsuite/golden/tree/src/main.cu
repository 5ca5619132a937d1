#include "include/common.cuh"
#include "include/plain.h"

__global__ void add(real *a, const real *b) { a[threadIdx.x] += b[threadIdx.x]; }

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
