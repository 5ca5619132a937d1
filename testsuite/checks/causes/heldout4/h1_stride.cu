// Held out, round 4. Cause 1: lane strides and per-lane splits.
#include <cuda_runtime.h>

__global__ void dotRows(const float *a, const float *b, float *out, int cols) {
  int warp = threadIdx.x >> 5;                                       // expect: W64-LANE-MATH
  int lane = threadIdx.x & 0x1f;                                     // expect: W64-LANE-MATH
  const float *ra = a + (blockIdx.x * 4 + warp) * cols;
  const float *rb = b + (blockIdx.x * 4 + warp) * cols;
  float s = 0.f;
  for (int c = lane; c < cols; c += 32) s += ra[c] * rb[c];          // expect: W64-LANE-MATH
  #pragma unroll
  for (int off = 16; off >= 1; off /= 2)                             // expect: W64-SHFL-OFFSET
    s += __shfl_xor_sync(0xffffffff, s, off);                        // expect: W64-MASK32
  if (lane == 0) out[blockIdx.x * 4 + warp] = s;
}

__global__ void gatherFour(const int *idx, const float *src, float *dst) {
  int lane = threadIdx.x % 32;                                       // expect: W64-LANE-MATH
  float v[4];
  for (int k = 0; k < 4; ++k) v[k] = src[idx[blockIdx.x * 128 + lane + 32 * k]]; // expect: W64-LANE-MATH
  float m = fmaxf(fmaxf(v[0], v[1]), fmaxf(v[2], v[3]));
  m = fmaxf(m, __shfl_down_sync(0xffffffff, m, 16));                 // expect: W64-SHFL-OFFSET, W64-MASK32
  m = fmaxf(m, __shfl_down_sync(0xffffffff, m, 8));                  // expect: W64-MASK32
  m = fmaxf(m, __shfl_down_sync(0xffffffff, m, 4));                  // expect: W64-MASK32
  m = fmaxf(m, __shfl_down_sync(0xffffffff, m, 2));                  // expect: W64-MASK32
  m = fmaxf(m, __shfl_down_sync(0xffffffff, m, 1));                  // expect: W64-MASK32
  if (lane == 0) dst[blockIdx.x] = m;
}

// A stride of 32 over blocks, not lanes.
__global__ void everyThirtySecond(float *x, int n) {
  for (int i = blockIdx.x; i < n; i += 32) x[i] *= 2.f;              // quiet: W64-LANE-MATH
}
