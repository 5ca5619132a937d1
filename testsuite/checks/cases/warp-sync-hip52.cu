// Warp intrinsics translated for HIP 5.2 (the default target): the *_sync
// functions do not exist there; full masks are dropped.
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff
#define SHFL_XOR(v, o) __shfl_xor_sync(FULL_MASK, v, o)
static const unsigned kFull = 0xffffffffu;

__device__ float sum_down(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

template <typename T>
__device__ T max_xor(T v) {
  for (int o = warpSize / 2; o > 0; o >>= 1)
    v = max(v, __shfl_xor_sync(~0u, v, o));
  return v;
}

__global__ void votes(const float *in, unsigned long long *out, int *flags) {
  float v = in[threadIdx.x];
  unsigned long long b = __ballot_sync(FULL_MASK, v > 0.f);
  int any = __any_sync(kFull, v < 0.f);
  int all = __all_sync(-1, v == 0.f);
  unsigned long long active = __activemask();
  unsigned long long alive = __activemask();
  float up = __shfl_up_sync(alive, v, 1);
  float bcast = __shfl_sync(0xFFFFFFFF, v, 0, warpSize);
  float x = SHFL_XOR(v, 1);
  __syncwarp();
  __syncwarp(0xffffffff);
  __syncwarp(__activemask()); // the shim keeps its argument: __ballot(1)
  out[threadIdx.x] = b + active;
  flags[threadIdx.x] = any + all + (int)(up + bcast + x + sum_down(v) + max_xor(v));
}

template __device__ float max_xor<float>(float);
