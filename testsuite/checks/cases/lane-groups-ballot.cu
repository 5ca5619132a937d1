// Width-32 shuffles do not make a translation unit work in 32-lane groups when
// something reads the whole warp: a ballot has 64 bits on a 64-lane wavefront,
// so the lane math by 32 next to it is reported as usual.
#include <cuda_runtime.h>

__device__ float groupSum(float v) {
  for (int o = 16; o > 0; o >>= 1)      // reported: W64-SHFL-OFFSET
    v += __shfl_xor_sync(0xffffffff, v, o, 32);
  return v;
}

__global__ void countPositive(const float *in, int *out) {
  int lane = threadIdx.x & 31;          // reported: W64-LANE-MATH
  float v = groupSum(in[threadIdx.x]);
  unsigned votes = __ballot_sync(0xffffffff, v > 0.f);
  if (lane == 0)
    atomicAdd(out, __popc(votes));
}
