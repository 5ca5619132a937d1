// Kernels passed to the runtime: CUDA has template overloads taking the
// function; HIP's C API takes const void *, so the kernel is cast (function_arg).
#include <cuda_runtime.h>
template <typename T> __global__ void k(T *p) { p[threadIdx.x] = T(); }
__global__ void plain(int *p) {}
int main() {
  cudaFuncSetCacheConfig(plain, cudaFuncCachePreferL1);
  cudaFuncSetCacheConfig(k<float>, cudaFuncCachePreferShared);
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, plain);
  const void *f = (const void *)plain;
  cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024);
  cudaFuncSetAttribute(reinterpret_cast<const void *>(plain), cudaFuncAttributeMaxDynamicSharedMemorySize, 1024);
}
