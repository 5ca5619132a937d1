// Runtime API calls, types, enumerators and macros; names in comments and
// strings stay as written ("cudaMalloc").
#include <cuda_runtime.h>
#include <cstdio>

#define CUDA_CHECK(expr)                                                     \
  do {                                                                       \
    cudaError_t err_ = (expr);                                               \
    if (err_ != cudaSuccess) {                                               \
      std::fprintf(stderr, "cudaMalloc failed: %s\n", cudaGetErrorString(err_)); \
    }                                                                        \
  } while (0)

int main() {
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s has %d SMs\n", prop.name, prop.multiProcessorCount);
  float *device = nullptr, host[256] = {};
  CUDA_CHECK(cudaMalloc(&device, sizeof(host)));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, stream);
  CUDA_CHECK(cudaMemcpyAsync(device, host, sizeof(host), cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaMemcpy(host, device, sizeof(host), cudaMemcpyDeviceToHost));
  cudaEventRecord(stop, stream);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaError_t last = cudaGetLastError();
  if (last != cudaSuccess)
    return 1;
  cudaMemcpyKind kind = cudaMemcpyDeviceToDevice;
  (void)kind;
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  cudaFree(device);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
