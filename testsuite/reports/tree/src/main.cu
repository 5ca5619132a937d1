#include <cstdio>
#include <cuda_runtime.h>
#include "kernels.cuh"

int main() {
  const int n = 1024;
  float *d = nullptr;
  float h[n];
  for (int i = 0; i < n; ++i)
    h[i] = i;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(d, 2.0f, n);
  cudaThreadSynchronize();
  cudaArray_t array = nullptr;
  cudaArrayGetInfo(nullptr, nullptr, nullptr, array);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaError_t err = cudaGetLastError();
  cudaFree(d);
  std::printf("%f %s\n", h[1], err == cudaSuccess ? "ok" : "failed");
  return 0;
}
