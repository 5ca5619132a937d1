// Warp calls in templates and macros stand for all their instantiations and
// expansions: a mask is dropped only when it is full in every one of them.
#include <cuda_runtime.h>

#define FULL 0xffffffff
#define REDUCE_STEP(v, o) v += __shfl_down_sync(FULL, v, o)

template <typename T, unsigned Mask = 0xffffffffu>
struct WarpOps {
  __device__ static T broadcast(T v) { return __shfl_sync(Mask, v, 0); }
};

template <unsigned Mask>
__device__ float masked_sum(float v) {
  return v + __shfl_xor_sync(Mask, v, 1);     // full in one instantiation, partial in the other
}

template <unsigned Mask>
__device__ float never_used(float v) {
  return __shfl_xor_sync(Mask, v, 1);         // no instantiation tells the mask
}

__global__ void k(float *p) {
  float v = p[threadIdx.x];
  REDUCE_STEP(v, 2);
  REDUCE_STEP(v, 1);
  v += WarpOps<float>::broadcast(v);
  v += masked_sum<0xffffffffu>(v) + masked_sum<0x0000ffffu>(v);
  p[threadIdx.x] = v;
}
