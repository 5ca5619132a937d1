// Held out, round 2. Cause 1: lane strides and per-lane splits.
#include <cuda_runtime.h>

__global__ void rowDot(const float *a, const float *b, float *out, int n, int rows) {
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;  // expect: W64-LANE-MATH
  const int lane = threadIdx.x & 31;                               // expect: W64-LANE-MATH
  if (warp >= rows) return;
  float acc = 0.f;
  for (int i = lane; i < n; i += 32)                               // expect: W64-LANE-MATH
    acc += a[warp * n + i] * b[i];
  for (int s = 16; s > 0; s /= 2)                                  // expect: W64-SHFL-OFFSET
    acc += __shfl_xor_sync(0xffffffff, acc, s);                    // expect: W64-MASK32
  if (!lane) out[warp] = acc;
}

template <int ITEMS>
__global__ void loadItems(const int *in, int *out) {
  int lane = threadIdx.x % 32;                                     // expect: W64-LANE-MATH
  int warpBase = (threadIdx.x / 32) * ITEMS * 32;                  // expect: W64-LANE-MATH
  int items[ITEMS];
  for (int k = 0; k < ITEMS; ++k)
    items[k] = in[warpBase + k * 32 + lane];                       // expect: W64-LANE-MATH
  int total = 0;
  for (int k = 0; k < ITEMS; ++k) total += items[k];
  total += __shfl_down_sync(0xffffffff, total, 1);                 // expect: W64-MASK32
  out[threadIdx.x] = total;
}
template __global__ void loadItems<4>(const int *, int *);

__global__ void chunkPerLane(const float *x, float *y, int len) {
  int lane = threadIdx.x % 32;                                     // expect: W64-LANE-MATH
  int chunk = (len + 31) / 32;                                     // expect: W64-LANE-MATH
  float m = 0.f;
  for (int i = lane * chunk; i < min(len, (lane + 1) * chunk); ++i) m = fmaxf(m, x[i]);
  m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, 16));               // expect: W64-SHFL-OFFSET, W64-MASK32
  m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, 8));                // expect: W64-MASK32
  y[lane] = m;
}

// A grid-stride loop whose 32 is a scale factor, not a lane count.
__global__ void scale(float *p, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    p[i] *= 32.f;                                                  // quiet: W64-LANE-MATH
}
