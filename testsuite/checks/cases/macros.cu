// Warp code written in macros: findings and fixes land in the macro bodies.
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

// A vote reads the whole warp: the unit does not work in consistent 32-lane
// groups, so its 32s are hazards and --fix-wave64 decides per grouping.
__global__ void anyPositive(const float *in, int *flag) {
  if (__any_sync(0xffffffff, in[threadIdx.x] > 0.f))
    *flag = 1;
}
