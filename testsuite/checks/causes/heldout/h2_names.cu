// Held out. Cause 2: recognition by value.
#include <cuda_runtime.h>

#define ALL_LANES 0xffffffffu                                         // expect: W64-MASK32

struct Traits {
  static constexpr int width = 32;                              // expect: W64-LANE-MATH
};

template <typename T, int LANES>
__device__ T sumLanes(T v) {
  for (int o = LANES / 2; o > 0; o >>= 1)                       // expect: W64-SHFL-OFFSET
    v += __shfl_down_sync(ALL_LANES, v, o);                     // expect: W64-MASK32
  return v;
}

__global__ void callWithArg(const float *in, float *out) {
  float v = sumLanes<float, 32>(in[threadIdx.x]);
  int ln = threadIdx.x % Traits::width;                         // expect: W64-LANE-MATH
  if (ln == 0) atomicAdd(out, v);
  unsigned vote = __ballot_sync(ALL_LANES, v > 0.f);            // expect: W64-BALLOT-NARROW, W64-MASK32
  if (ln == 0) out[1 + threadIdx.x / Traits::width] = __popc(vote); // expect: W64-LANE-MATH, W64-BALLOT-NARROW
}

__global__ void lambdaIndex(const int *in, int *out) {
  auto warpOf = [](unsigned t) { return t >> 5; };             // expect: W64-LANE-MATH
  auto laneOf = [](unsigned t) { return t & 31u; };            // expect: W64-LANE-MATH
  int w = warpOf(threadIdx.x);
  int l = laneOf(threadIdx.x);
  int v = in[threadIdx.x];
  int first = __shfl_sync(0xffffffff, v, 0);                    // expect: W64-MASK32
  if (l == 0) out[w] = first;
}

__global__ void edgeLanes(const float *in, float *out) {
  int lane = threadIdx.x % 32;                                  // expect: W64-LANE-MATH
  float v = in[threadIdx.x];
  float right = __shfl_down_sync(0xffffffff, v, 2);             // expect: W64-MASK32
  if (lane + 2 > 31) right = 0.f;                               // expect: W64-LANE-MATH
  float left = __shfl_up_sync(0xffffffff, v, 1);                // expect: W64-MASK32
  if (lane < 1) left = 0.f;
  out[threadIdx.x] = left + right;
}

__global__ void countedLoop(float *data) {
  float v = data[threadIdx.x];
  int off = 16;                                                 // expect: W64-SHFL-OFFSET
  while (off > 0) {
    float o = __shfl_xor_sync(0xffffffff, v, off);              // expect: W64-MASK32
    v += o;
    off /= 2;
  }
  data[threadIdx.x] = v;
}
