// __device__/__constant__ symbols are passed to HIP through HIP_SYMBOL().
#include <cuda_runtime.h>

__constant__ float coefficients[16];
__device__ int counter;

void upload(const float *host, int *result) {
  cudaMemcpyToSymbol(coefficients, host, 16 * sizeof(float));
  cudaMemcpyToSymbolAsync(coefficients, host, sizeof(float), 0, cudaMemcpyHostToDevice, 0);
  cudaMemcpyFromSymbol(result, counter, sizeof(int));
  void *address = nullptr;
  cudaGetSymbolAddress(&address, counter);
  size_t bytes = 0;
  cudaGetSymbolSize(&bytes, coefficients);
}
