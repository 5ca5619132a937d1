// Held out, round 3. Cause 5: consistent 32-lane groups (correct on 64 lanes as written).
#include <cuda_runtime.h>

constexpr int kGroup = 32;                                         // note: W64-LANE-MATH

template <typename T> __device__ T groupAllReduce(T v) {
  for (int mask = 16; mask > 0; mask >>= 1)                        // note: W64-SHFL-OFFSET
    v += __shfl_xor_sync(0xffffffff, v, mask);                     // expect: W64-MASK32
  return v;
}

__global__ void layerNorm(const float *x, float *y, int rows, int cols) {
  int g = threadIdx.x / kGroup;                                    // note: W64-LANE-MATH
  int lane = threadIdx.x % kGroup;                                 // note: W64-LANE-MATH
  int row = blockIdx.x * (blockDim.x / kGroup) + g;                // note: W64-WARP-COUNT
  if (row >= rows) return;
  float s = 0.f, ss = 0.f;
  for (int c = lane; c < cols; c += kGroup) {                      // note: W64-LANE-MATH
    float v = x[row * cols + c];
    s += v;
    ss += v * v;
  }
  s = groupAllReduce(s);
  ss = groupAllReduce(ss);
  float mean = s / cols, inv = rsqrtf(ss / cols - mean * mean + 1e-5f);
  for (int c = lane; c < cols; c += kGroup)                        // note: W64-LANE-MATH
    y[row * cols + c] = (x[row * cols + c] - mean) * inv;
}

void launchLayerNorm(const float *x, float *y, int rows, int cols) {
  const int groups = 3;
  layerNorm<<<(rows + groups - 1) / groups, groups * kGroup>>>(x, y, rows, cols); // note: W64-BLOCK-SIZE
}
