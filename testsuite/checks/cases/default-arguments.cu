// Warp widths that reach lane math through default arguments: a helper's or
// lambda's parameter that every call leaves at its default (or passes the
// same value) is that constant, and a template parameter's default counts in
// the instantiation. The helpers make no warp call themselves; their callers
// shuffle, so a 32 of any name counts there. A parameter that some call
// passes another value is not a constant, and stays quiet.
#include <cuda_runtime.h>

__device__ int laneIn(int tid, int width = 32) { return tid % width; }
__device__ int slotIn(int tid, int width = 32) { return tid % width; }
template <int W = 32> __device__ int groupOf(int tid) { return tid / W; }

__global__ void reduceRows(const float *in, float *out) {
  auto laneOf = [](int tid, int width = 32) { return tid % width; };
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 16);
  if (!__any_sync(0xffffffff, v != 0.f)) // a whole-warp vote: lanes by 32 are a hazard
    return;
  if (laneIn(threadIdx.x) == 0 && laneOf(threadIdx.x) == 0)
    out[groupOf(threadIdx.x)] = v;
  out[blockDim.x + slotIn(threadIdx.x, 8)] = v; // quiet: another width
  out[2 * blockDim.x + slotIn(threadIdx.x)] = v;
}
