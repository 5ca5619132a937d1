// CUDA 13 takes a cudaMemLocation where HIP takes a device ordinal: the calls
// are adapted by shims, which pass the location's device on AMD.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void add_one(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1.0f;
}

int main() {
  const int n = 1 << 20;
  float *data = nullptr;
  if (cudaMallocManaged(&data, n * sizeof(float)) != cudaSuccess) return 1;
  int device = 0;
  cudaGetDevice(&device);

  cudaMemLocation location;
  location.type = cudaMemLocationTypeDevice;
  location.id = device;
  cudaMemAdvise(data, n * sizeof(float), cudaMemAdviseSetPreferredLocation, location);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaError_t status = cudaMemPrefetchAsync(data, n * sizeof(float), location, 0, stream);
  if (status != cudaSuccess) printf("prefetch: %s\n", cudaGetErrorString(status));
  cudaMemPrefetchAsync(data, n * sizeof(float), location, 0);

  add_one<<<(n + 255) / 256, 256, 0, stream>>>(data, n);
  cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
  cudaFree(data);
  return 0;
}
