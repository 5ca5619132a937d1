// Warp *_sync calls whose 32-bit lane mask is a macro, a variable or a
// parameter. HIP 5.2 gets the legacy calls without a mask (a mask that may not
// cover the warp is dropped with a warning); for HIP >= 6.2
// (warp_mask_variables.cu.expected-hip64) each such mask passes through the
// cu2dcu_lane_mask shim, since HIP 6.4's static_assert rejects 32-bit masks.
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff

__device__ int reduce(int x, unsigned m) {
  for (int d = 16; d > 0; d /= 2)
    x += __shfl_down_sync(m, x, d);
  return x;
}

__global__ void kernel(int *v) {
  static const unsigned kFull = 0xffffffff;
  int x = v[threadIdx.x];
  x += __shfl_xor_sync(FULL_MASK, x, 1);
  x += __shfl_sync(kFull, x, 0);
  unsigned active = __activemask();
  x = reduce(x, active);
  if (__any_sync(active, x > 0))
    v[threadIdx.x] = x;
}
