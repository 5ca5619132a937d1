// PTX cache-hint loads and stores: the value is what a plain access gives, so
// every one has a faithful HIP form (a shim: CUDA's own on NVIDIA).
#include <cuda_runtime.h>

__global__ void stream_copy(const float4 *__restrict__ in, float4 *out, float *scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 v = __ldcs(in + i);
  float s = __ldcg(scale) + __ldca(scale + 1) + __ldlu(scale + 2);
  v.x *= s;
  __stcs(out + i, v);
  __stcg(scale + 3, 2.0);  // a double converts to float, as with CUDA's overloads
  __stwb(scale + 4, s);
  __stwt(scale + 5, s);
}

__global__ void poll(const int *flag, const double2 *pair, double *result) {
  while (__ldcv(flag) == 0) {
  }
  double2 p = __ldcv(pair);
  *result = p.x + p.y;
}

int main() {
  float4 *in = nullptr, *out = nullptr;
  float *scale = nullptr;
  cudaMalloc(&in, 64 * sizeof(float4));
  cudaMalloc(&out, 64 * sizeof(float4));
  cudaMalloc(&scale, 8 * sizeof(float));
  stream_copy<<<1, 64>>>(in, out, scale, 64);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  cudaFree(scale);
  return 0;
}
