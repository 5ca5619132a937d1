// APIs that HIP 6.4 declares and HIP 5.2 does not: kept (and reported) for
// HIP 5.2, translated for --hip-version 6.4 (hip64_newer_apis.cu.expected-hip64).
#include <cuda_runtime.h>
#include <library_types.h>

cudaDataType_t bf16Type() { return CUDA_R_16BF; }

void configure(cudaEvent_t event, cudaStream_t stream) {
  cudaDeviceSetLimit(cudaLimitStackSize, 4096);
  cudaEventRecordWithFlags(event, stream, cudaEventRecordDefault);
}

__global__ void rotate(int *v) {
  int x = v[threadIdx.x];
  v[threadIdx.x] = __shfl_down_sync(0xffffffffffffffffull, x, 1);
}
