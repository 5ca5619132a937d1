// Lanes carried through helpers: a helper's return value carries the lane it
// computes, and a parameter that every call passes a lane is one (functions
// and lambdas alike, two calls deep). A helper with a caller that passes
// something else keeps its parameter unmarked, and stays quiet.
#include <cuda_runtime.h>

__device__ int laneOfThread(int t) { return t % 32; }
__device__ bool pastLastLane(int ln, int d) { return ln + d > 31; }
__device__ bool pastLimit(int x, int d) { return x + d > 31; } // quiet: called with data too

__global__ void scanRows(const int *in, int *out, int limit) {
  auto laneOf = [](int tid, int width = 32) { return tid % width; };
  auto beyond = [](int lane, int d) { return lane + d > 31; };
  const int lane = laneOf(threadIdx.x);
  const int l2 = laneOfThread(threadIdx.x);
  int v = in[threadIdx.x];
  for (int d = 1; d < warpSize; d <<= 1) {
    const int below = __shfl_down_sync(0xffffffff, v, d);
    if (!beyond(lane, d) && !pastLastLane(l2, d) && !pastLimit(l2, d))
      v += below;
  }
  out[threadIdx.x] = pastLimit(limit, 1) ? 0 : v;
}
