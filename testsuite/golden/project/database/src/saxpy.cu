#include "saxpy.cuh"

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

void runSaxpy(int n, float a, const float *x, float *y) {
  float *dx, *dy;
  check(cudaMalloc(&dx, n * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&dy, n * sizeof(float)), "cudaMalloc");
  check(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
  check(cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
  saxpy<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
  check(cudaGetLastError(), "saxpy");
  check(cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudaFree(dx);
  cudaFree(dy);
}
