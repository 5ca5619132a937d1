// CUDA 12's forms of calls that CUDA 13 changed: cudaMemAdvise and
// cudaMemPrefetchAsync with a device ordinal (cudaCpuDeviceId for the
// host). CUDA 13's headers reject them (the parse is recovered), and the
// shims take both forms.
#include <cuda_runtime.h>

int main() {
  float *data;
  size_t bytes = 1 << 20;
  cudaMallocManaged(&data, bytes);
  cudaMemAdvise(data, bytes, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId);
  cudaMemAdvise(data, bytes, cudaMemAdviseSetAccessedBy, 0);
  cudaMemPrefetchAsync(data, bytes, 0, 0);
  cudaMemPrefetchAsync(data, bytes, cudaCpuDeviceId);
  cudaDeviceSynchronize();
  cudaFree(data);
  return 0;
}
