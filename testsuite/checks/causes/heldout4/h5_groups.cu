// Held out, round 4. Cause 5: consistent 32-lane groups (correct on 64 lanes as written).
#include <cuda_runtime.h>

#define TEAM 32                                                      // note: W64-LANE-MATH

__device__ float teamSum(float v) {
  v += __shfl_xor_sync(0xffffffff, v, 16, TEAM);                     // expect: W64-MASK32
  v += __shfl_xor_sync(0xffffffff, v, 8, TEAM);                      // expect: W64-MASK32
  v += __shfl_xor_sync(0xffffffff, v, 4, TEAM);                      // expect: W64-MASK32
  v += __shfl_xor_sync(0xffffffff, v, 2, TEAM);                      // expect: W64-MASK32
  v += __shfl_xor_sync(0xffffffff, v, 1, TEAM);                      // expect: W64-MASK32
  return v;
}

__global__ void rowMeans(const float *x, float *mean, int cols) {
  int team = threadIdx.x / TEAM, member = threadIdx.x % TEAM;        // note: W64-LANE-MATH
  int row = blockIdx.x * (blockDim.x / TEAM) + team;                 // note: W64-WARP-COUNT
  float s = 0.f;
  for (int c = member; c < cols; c += TEAM) s += x[row * cols + c];  // note: W64-LANE-MATH
  s = teamSum(s);
  if (member == 0) mean[row] = s / cols;
}
