#include <cublas_v2.h>
// The library header is the file's first line: the runtime include nvcc
// implies and the lines hipBLAS wants above its header start at the same
// offset, and both are kept, the runtime first.
__global__ void zero(float *p) { p[threadIdx.x] = 0.0f; }

int main() {
  float *d = nullptr;
  cudaMalloc(&d, 64 * sizeof(float));
  zero<<<1, 64>>>(d);
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasDestroy(handle);
  cudaFree(d);
  return 0;
}
