// Held out, round 3. Cause 2: recognition by value.
#include <cuda_runtime.h>

namespace cfg {
constexpr int kThreadsPerWarp = 32;                                // expect: W64-LANE-MATH
constexpr unsigned kAll = 0xffffffffu;                             // expect: W64-MASK32
}

__device__ __forceinline__ float warpSumCfg(float v) {
  for (int d = cfg::kThreadsPerWarp / 2; d > 0; d >>= 1)           // expect: W64-SHFL-OFFSET
    v += __shfl_xor_sync(cfg::kAll, v, d);                         // expect: W64-MASK32
  return v;
}

__global__ void rowsByLambda(const float *in, float *out) {
  auto laneOf = [](int t) { return t % cfg::kThreadsPerWarp; };    // expect: W64-LANE-MATH
  auto warpOf = [](int t) { return t / cfg::kThreadsPerWarp; };    // expect: W64-LANE-MATH
  float s = warpSumCfg(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (laneOf(threadIdx.x) == 0) out[blockIdx.x * 8 + warpOf(threadIdx.x)] = s;
}

template <int kWarpSize = 32>
__device__ int isLeader(bool p) {
  unsigned m = __ballot_sync(0xffffffff, p);                       // expect: W64-MASK32, W64-BALLOT-NARROW
  return (threadIdx.x % kWarpSize) == __ffs(m) - 1;                // expect: W64-LANE-MATH, W64-BALLOT-NARROW
}

__global__ void leaders(const int *flags, int *out) {
  out[threadIdx.x] = isLeader(flags[threadIdx.x] != 0);
}
