// Device built-ins, math, atomics, vector types and half precision.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__global__ void builtins(const float *__restrict__ in, float *out, __half *halves, int *count) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = __ldg(&in[i]);
  __syncthreads();
  float v = __expf(tile[threadIdx.x]) + sqrtf(fabsf(tile[threadIdx.x])) + __fdividef(1.0f, 3.0f);
  float4 packed = make_float4(v, v, v, v);
  out[i] = packed.x + packed.w;
  halves[i] = __float2half(v);
  atomicAdd(count, 1);
  __threadfence();
}
