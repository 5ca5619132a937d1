// cuda_runtime.h's template overload of cudaHostGetDevicePointer takes any
// T **; HIP's hipHostGetDevicePointer takes void ** only, so a typed pointer
// is cast (out_pointer_arg), and a void ** or an already cast one is kept.
#include <cuda_runtime.h>
__device__ float table[16];
int main() {
  float *host, *dev;
  void *raw;
  cudaHostAlloc(&host, 64, cudaHostAllocMapped);
  cudaHostGetDevicePointer(&dev, host, 0);
  cudaHostGetDevicePointer(&raw, host, 0);
  cudaHostGetDevicePointer((void **)&dev, host, 0);
  float *sym;
  cudaGetSymbolAddress((void **)&sym, table);
  return 0;
}
