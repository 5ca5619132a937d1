// Held out, round 4. Cause 2: recognition by value.
#include <cuda_runtime.h>

enum { LANES = 32 };                                                 // expect: W64-LANE-MATH

struct Geometry {
  static constexpr int kWidth = 32;                                  // expect: W64-LANE-MATH
};

template <int W>
__device__ float rowSum(float v) {
  for (int o = W / 2; o > 0; o >>= 1)                                // expect: W64-SHFL-OFFSET
    v += __shfl_down_sync(0xffffffff, v, o);                         // expect: W64-MASK32
  return v;
}

__global__ void enumLanes(const float *x, float *y) {
  int lane = threadIdx.x % LANES;                                    // expect: W64-LANE-MATH
  float s = rowSum<Geometry::kWidth>(x[threadIdx.x]);
  if (lane == LANES - 1) y[threadIdx.x / LANES] = s;                 // expect: W64-LANE-MATH
}

__global__ void lastLaneStores(const int *in, int *out) {
  int l = threadIdx.x & (Geometry::kWidth - 1);                      // expect: W64-LANE-MATH
  int v = in[threadIdx.x];
  int up = __shfl_up_sync(0xffffffff, v, 1);                         // expect: W64-MASK32
  if (l + 1 > 31) out[blockIdx.x] = v + up;                          // expect: W64-LANE-MATH
}
