// Held out, round 2. Cause 2: recognition by value.
#include <cuda_runtime.h>

enum { kThreadsPerGroup = 32 };                                    // expect: W64-LANE-MATH

struct Config {
  static constexpr unsigned kFull = 0xFFFFFFFFu;                   // expect: W64-MASK32
  static constexpr int kLanes = 32;                                // expect: W64-SHFL-OFFSET
};

template <class C>
__device__ float reduceWith(float v) {
  for (int d = C::kLanes >> 1; d; d >>= 1)                         // expect: W64-SHFL-OFFSET
    v += __shfl_xor_sync(C::kFull, v, d);                          // expect: W64-MASK32
  return v;
}

__global__ void useConfig(const float *in, float *out) {
  float s = reduceWith<Config>(in[threadIdx.x]);
  if (threadIdx.x % kThreadsPerGroup == 0) out[threadIdx.x / kThreadsPerGroup] = s; // expect: W64-LANE-MATH
  unsigned any = __ballot_sync(Config::kFull, s > 0.f);           // expect: W64-BALLOT-NARROW, W64-MASK32
  if (threadIdx.x == 0) out[0] = (float)__popc(any);               // expect: W64-BALLOT-NARROW
}

template <int W = 32> __device__ int laneOfDefault(int t) { return t % W; } // expect: W64-LANE-MATH

__global__ void useDefault(const int *in, int *out) {
  int ln = laneOfDefault(threadIdx.x);
  int first = __shfl_sync(0xffffffff, in[threadIdx.x], 0);         // expect: W64-MASK32
  if (ln == 0) out[blockIdx.x] = first;
}

__global__ void viaFunctor(const int *in, int *out) {
  struct WarpOf {
    __device__ int operator()(int t) const { return t / 32; }      // expect: W64-LANE-MATH
  } warpOf;
  int v = __shfl_sync(0xffffffff, in[threadIdx.x], 0);             // expect: W64-MASK32
  out[warpOf(threadIdx.x)] = v;
}

__global__ void halves(const float *in, float *out) {
  int lane = threadIdx.x % warpSize;
  float v = in[threadIdx.x];
  float other = __shfl_xor_sync(0xffffffff, v, 16);                // expect: W64-SHFL-OFFSET, W64-MASK32
  out[threadIdx.x] = lane < 16 ? v - other : other - v;            // expect: W64-LANE-MATH
}
