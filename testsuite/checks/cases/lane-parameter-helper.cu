// W64-LANE-MATH on a header helper's `lane` parameter that no call in the
// unit passes (mappings/checks/warp_names.yaml, lane_index_parameters): the
// lane of a 32-lane warp, so `lane + d < 32` (and its mirror `32 > lane + d`)
// tests for the warp's last lane. `tid` in suffixTid is a thread index, not a
// lane: its comparison stays quiet.
#include <cuda_runtime.h>

__device__ int suffixSum(int v, int lane) {
  for (int d = 1; d < warpSize; d <<= 1) {
    const int o = __shfl_down_sync(0xffffffffu, v, d);
    if (lane + d < 32)
      v += o;
  }
  return v;
}

__device__ int suffixMirror(int v, int lane) {
  for (int d = 1; d < warpSize; d <<= 1) {
    const int o = __shfl_down_sync(0xffffffffu, v, d);
    if (32 > lane + d)
      v += o;
  }
  return v;
}

__device__ int suffixTid(int v, int tid) {
  for (int d = 1; d < warpSize; d <<= 1) {
    const int o = __shfl_down_sync(0xffffffffu, v, d);
    if (tid + d < 32)
      v += o;
  }
  return v;
}
