// Cause 2: recognition by value, not by name or syntax.
#include <cuda_runtime.h>

static const unsigned kAll = 0xffffffffu;                      // expect: W64-MASK32

struct Cfg {
  static constexpr int kGroup = 32;                            // expect: W64-LANE-MATH
};

template <typename C>
__global__ void viaMember(const float *in, float *out) {
  int lane = threadIdx.x % C::kGroup;                          // expect: W64-LANE-MATH
  float v = in[threadIdx.x];
  v += __shfl_sync(kAll, v, 0);                               // expect: W64-MASK32
  if (lane == 0) out[threadIdx.x / C::kGroup] = v;            // expect: W64-LANE-MATH
}
template __global__ void viaMember<Cfg>(const float *, float *);

template <int W = 32>
__device__ float groupSum(float v) {
  for (int o = W / 2; o > 0; o /= 2)                           // expect: W64-SHFL-OFFSET
    v += __shfl_xor_sync(0xffffffff, v, o);                    // expect: W64-MASK32
  return v;
}

__global__ void useDefault(const float *in, float *out) {
  float v = groupSum(in[threadIdx.x]);
  if (threadIdx.x == 0) *out = v;
}

__global__ void lambdaLane(const float *in, float *out) {
  auto laneOf = [](int t) { return t % 32; };                 // expect: W64-LANE-MATH
  int lane = laneOf(threadIdx.x);
  unsigned b = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.f); // expect: W64-BALLOT-NARROW, W64-MASK32
  if (lane == 0) out[blockIdx.x] = __popc(b);                  // expect: W64-BALLOT-NARROW
}

__global__ void halfSplit(const float *in, float *out) {
  int lane = threadIdx.x & 31;                                 // expect: W64-LANE-MATH
  float v = in[threadIdx.x];
  if (lane < 16) v *= 2.f;
  float w = __shfl_down_sync(0xffffffff, v, 1);                // expect: W64-MASK32
  if (lane + 1 > 31) w = 0.f;                                  // expect: W64-LANE-MATH
  out[threadIdx.x] = w;
}

__global__ void scanBound(int *data) {
  int lane = threadIdx.x % 32;                                 // expect: W64-LANE-MATH
  int v = data[threadIdx.x];
  for (int step = 1; step < 32; step <<= 1) {                  // expect: W64-SHFL-OFFSET
    int d = step;
    int n = __shfl_up_sync(0xffffffff, v, d);                  // expect: W64-MASK32
    if (lane >= d) v += n;
  }
  data[threadIdx.x] = v;
}
