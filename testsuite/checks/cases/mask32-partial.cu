// Masks that may not cover the whole warp: HIP 5.2 has no masked warp
// functions, so the mask is dropped and the call reported (a warning that says
// what changed); mask32-partial-strict.cu keeps them with --strict-masks.
#include <cuda_runtime.h>

__global__ void partial(const float *in, float *out, int n) {
  float v = in[threadIdx.x];
  float lo = __shfl_down_sync(0x0000ffff, v, 1);             // half of a 32-lane warp
  unsigned m = __ballot_sync(0xffffffff, threadIdx.x < n);    // the lanes still in range
  if (threadIdx.x < n)
    v += __shfl_down_sync(m, v, 1);                           // computed mask
  unsigned long long low = 0xffffffffull;                     // 64-bit, but only lanes 0-31
  float w = __shfl_xor_sync(low, v, 1);
  __syncwarp(0x0f0f0f0f);
  out[threadIdx.x] = lo + v + w;
}
