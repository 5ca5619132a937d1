// atomicAdd on __half and __half2: CUDA overloads HIP lacks, which become
// cu2dcu_atomicAdd_half (an atomicCAS loop on the value's 32-bit word on
// AMD, CUDA's own on NVIDIA); atomicAdd on float is HIP's own. In a template
// the call names no overload until it is instantiated, so it stays atomicAdd
// (quant3MatMul's scalar_t accumulator).
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__global__ void accumulate(const float *in, __half *sum, __half2 *pairs, float *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&sum[i & 1], __float2half(in[i]));
  atomicAdd(pairs, __floats2half2_rn(in[i], -in[i]));
  atomicAdd(total, in[i]);
}

template <typename scalar_t>
__global__ void accumulateAs(const scalar_t *in, scalar_t *sum) {
  atomicAdd(sum, in[threadIdx.x]);
}
template __global__ void accumulateAs<float>(const float *, float *);

int main() {
  float *in, *total;
  __half *sum;
  __half2 *pairs;
  cudaMalloc(&in, 256 * sizeof(float));
  cudaMalloc(&total, sizeof(float));
  cudaMalloc(&sum, 2 * sizeof(__half));
  cudaMalloc(&pairs, sizeof(__half2));
  accumulate<<<4, 64>>>(in, sum, pairs, total, 256);
  cudaDeviceSynchronize();
  return 0;
}
