// --fix-wave64 changes the 32s of one lane grouping together or not at all.
// Each grouping below has a 32 with no safe fix, so none of its fixes is
// applied; each fixable finding says which site held it back (fixWithheld in
// the JSON report). Changing only the others would break code that is
// consistent in 32-lane warps: in compact (the shape of marchingCubes'
// compactLv1) warpid would count 64-lane wavefronts while warpNum still
// counts 32-lane warps, and the second scan would read slots nobody wrote.
// (Each kernel reads warpSize, so its 32s are not consistent 32-lane groups,
// which would be notes without fixes.)
#include <cuda_runtime.h>

constexpr unsigned kThreads = 256;

__global__ void compact(const unsigned *in, unsigned *out) {
  if (blockDim.x % warpSize) // reads the wavefront's width: its 32s are no 32-lane groups
    return;
  __shared__ unsigned sums[32];
  constexpr unsigned warpNum(kThreads / 32); // compile-time: no safe fix; blocker: compact
  unsigned tid = threadIdx.x;
  unsigned laneid = tid % 32; // blocker: compact
  unsigned warpid = tid >> 5; // waits: compact
  unsigned sum = in[blockIdx.x * kThreads + tid];
  for (int c0 = 1; c0 < 32; c0 *= 2) { // waits: compact
    unsigned tp = __shfl_up_sync(0xffffffffu, sum, c0);
    if (laneid >= c0)
      sum += tp;
  }
  if (laneid == 31) // waits: compact
    sums[warpid] = sum;
  __syncthreads();
  if (warpid == 0) {
    unsigned w = laneid < warpNum ? sums[laneid] : 0;
    for (int c0 = 1; c0 < warpNum; c0 *= 2) {
      unsigned tp = __shfl_up_sync(0xffffffffu, w, c0);
      if (laneid >= c0)
        w += tp;
    }
    sums[laneid] = w;
  }
  __syncthreads();
  out[blockIdx.x * kThreads + tid] = sum + (warpid > 0 ? sums[warpid - 1] : 0);
}

// A helper's safe fix waits for the kernels that use it: blockSum's warp
// count has no safe fix, so warpSum keeps reducing 32 lanes.
__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) // waits: blockSum
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void blockSum(const float *in, float *out) {
  if (blockDim.x % warpSize) // reads the wavefront's width: its 32s are no 32-lane groups
    return;
  constexpr int kWarps = kThreads / 32; // compile-time: no safe fix; blocker: blockSum
  __shared__ float partial[kWarps];
  int lane = threadIdx.x % 32; // waits: blockSum
  int warp = threadIdx.x / 32; // waits: blockSum
  float v = warpSum(in[blockIdx.x * kThreads + threadIdx.x]);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int w = 0; w < kWarps; ++w)
      s += partial[w];
    out[blockIdx.x] = s;
  }
}

// A macro body stands for every use: its fix waits for every function that
// uses it, and halfWarp's half-warp test has no safe fix.
#define LANE_ID (threadIdx.x & 31) // blocker: macro, waits: macro

__global__ void halfWarp(float *out) { __syncwarp(); // warp-level work: its 32s count lanes
  if (LANE_ID < 16) // half-warp logic: no safe fix
    out[threadIdx.x] = 0.f;
}

__global__ void lastLane(float *out) { __syncwarp(); // warp-level work: its 32s count lanes
  int warp = threadIdx.x / 32; // waits: macro
  if (LANE_ID == 31) // waits: macro
    out[warp] = 1.f;
}

// A vote reads the whole warp: the unit does not work in consistent 32-lane
// groups, so its 32s are hazards and --fix-wave64 decides per grouping.
__global__ void anyPositive(const float *in, int *flag) {
  if (__any_sync(0xffffffff, in[threadIdx.x] > 0.f))
    *flag = 1;
}
