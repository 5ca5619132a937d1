// Warp code written in macros: findings and fixes land in the macro bodies.
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff
#define LANE_ID (threadIdx.x & 31)
#define WARP_REDUCE(v)                                   \
  for (int o_ = 16; o_ > 0; o_ >>= 1)                    \
    v += __shfl_down_sync(FULL_MASK, v, o_)
#define CHECKED(x) (x)

__global__ void k(float *out) {
  float v = out[threadIdx.x];
  WARP_REDUCE(v);
  float w = CHECKED(__shfl_xor_sync(FULL_MASK, v, 1));
  if (LANE_ID == 0)
    out[blockIdx.x] = v + w;
}
