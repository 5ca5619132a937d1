#include <cstdio>
#include <cuda_runtime.h>
#include "ops.cuh"

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = axpy(a, x[i], y[i]);
}

int main() {
  const int n = 256;
  float *x, *y;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    x[i] = 1.0f;
    y[i] = twice(1.0f);
  }
  saxpy<<<1, n>>>(n, 3.0f, x, y);
  cudaDeviceSynchronize();
  printf("y[0] = %g\n", y[0]);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
