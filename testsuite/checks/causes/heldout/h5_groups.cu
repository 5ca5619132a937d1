// Held out. Cause 5: consistent 32-lane groups (correct on 64 lanes as written).
#include <cuda_runtime.h>

constexpr int kTeam = 32;                                       // note: W64-LANE-MATH
constexpr unsigned kTeamMask = 0xffffffffu;                     // expect: W64-MASK32

__device__ __forceinline__ float teamMax(float v) {
#pragma unroll
  for (int m = kTeam / 2; m >= 1; m /= 2)                       // note: W64-SHFL-OFFSET
    v = fmaxf(v, __shfl_xor_sync(kTeamMask, v, m));             // expect: W64-MASK32
  return v;
}

__device__ __forceinline__ float teamSum(float v) {
#pragma unroll
  for (int m = kTeam / 2; m >= 1; m /= 2)                       // note: W64-SHFL-OFFSET
    v += __shfl_xor_sync(kTeamMask, v, m);                      // expect: W64-MASK32
  return v;
}

__global__ void softmaxRows(const float *x, float *y, int rows, int cols) {
  int team = threadIdx.x / kTeam;                               // note: W64-LANE-MATH
  int lane = threadIdx.x % kTeam;                               // note: W64-LANE-MATH
  int row = blockIdx.x * (blockDim.x / kTeam) + team;           // note: W64-WARP-COUNT
  if (row >= rows) return;
  const float *r = x + (size_t)row * cols;
  float mx = -1e30f;
  for (int c = lane; c < cols; c += kTeam) mx = fmaxf(mx, r[c]); // note: W64-LANE-MATH
  mx = teamMax(mx);
  float s = 0.f;
  for (int c = lane; c < cols; c += kTeam) s += __expf(r[c] - mx); // note: W64-LANE-MATH
  s = teamSum(s);
  for (int c = lane; c < cols; c += kTeam) y[(size_t)row * cols + c] = __expf(r[c] - mx) / s; // note: W64-LANE-MATH
}

void runSoftmax(const float *x, float *y, int rows, int cols) {
  const int teamsPerBlock = 4;
  dim3 block(teamsPerBlock * kTeam);                            // quiet: W64-BLOCK-SIZE
  dim3 grid((rows + teamsPerBlock - 1) / teamsPerBlock);
  softmaxRows<<<grid, block>>>(x, y, rows, cols);
}
