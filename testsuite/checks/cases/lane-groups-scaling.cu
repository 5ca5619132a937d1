// Default-width shuffles whose lanes stay below 32 are not 32-lane groups by
// themselves when one reads a lane the translation unit cannot bound: the
// exchange helper is also called with a run-time distance, so the code may
// reach across 32 lanes and the lane math by 32 is reported as usual. (A
// reduction from offset 16 alone, with no fixed lane, also scales to
// warpSize: see lane-math.cu.)
#include <cuda_runtime.h>

__device__ int exchange(int k, int mask) {
  return __shfl_xor_sync(0xffffffff, k, mask);
}

__global__ void sortPairs(const int *keys, int *out, int distance) {
  const int lane = threadIdx.x & 31;    // reported: W64-LANE-MATH
  const int group = threadIdx.x / 32;   // reported: W64-LANE-MATH
  int k = keys[(group << 7) + lane];
  k = exchange(k, 0x1);
  k = exchange(k, distance);
  int half = __shfl_sync(0xffffffff, k, 16);
  out[threadIdx.x] = k < half ? k : half;
}
