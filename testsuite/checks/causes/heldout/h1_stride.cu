// Held out. Cause 1: lane strides and per-lane splits.
#include <cuda_runtime.h>

__global__ void spmvVector(const int *ptr, const int *col, const float *val, const float *x,
                           float *y, int rows) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 32;                                             // expect: W64-LANE-MATH
  int l = t & 31;                                               // expect: W64-LANE-MATH
  if (row >= rows) return;
  float sum = 0.f;
  for (int k = ptr[row] + l; k < ptr[row + 1]; k += 32)         // expect: W64-LANE-MATH
    sum += val[k] * x[col[k]];
  for (int d = 16; d >= 1; d >>= 1)                             // expect: W64-SHFL-OFFSET
    sum += __shfl_down_sync(0xffffffff, sum, d);                // expect: W64-MASK32
  if (l == 0) y[row] = sum;
}

__global__ void colsPerLane(const float *m, float *out, int ncols) {
  int laneId = threadIdx.x % 32;                                // expect: W64-LANE-MATH
  const int perLane = 256 / 32;                                 // expect: W64-LANE-MATH
  float best = 0.f;
  for (int j = 0; j < perLane; ++j)
    best = fmaxf(best, m[blockIdx.x * 256 + laneId * perLane + j]);
  best = fmaxf(best, __shfl_xor_sync(0xffffffff, best, 16));    // expect: W64-SHFL-OFFSET, W64-MASK32
  best = fmaxf(best, __shfl_xor_sync(0xffffffff, best, 8));     // expect: W64-MASK32
  best = fmaxf(best, __shfl_xor_sync(0xffffffff, best, 4));     // expect: W64-MASK32
  best = fmaxf(best, __shfl_xor_sync(0xffffffff, best, 2));     // expect: W64-MASK32
  best = fmaxf(best, __shfl_xor_sync(0xffffffff, best, 1));     // expect: W64-MASK32
  __shared__ float wmax[8];
  if (laneId == 0) wmax[threadIdx.x / 32] = best;               // expect: W64-LANE-MATH
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = wmax[0];
}

__global__ void histogramRows(const int *keys, int *hist, int n) {
  int lane = threadIdx.x & 0x1f;                                // expect: W64-LANE-MATH
  int w = threadIdx.x >> 5;                                     // expect: W64-LANE-MATH
  int base = (blockIdx.x * 4 + w) * 128;
  for (int r = 0; r < 4; ++r) {
    int k = base + lane + r * 32;                               // expect: W64-LANE-MATH
    if (k < n) atomicAdd(&hist[keys[k]], 1);
  }
}

// A block-size stride from a thread index: not a lane stride.
__global__ void blockStride(float *p, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) p[i] = 0.f;
  int t = threadIdx.x;
  if (t < 32) p[t] = 1.f;                                       // quiet: W64-LANE-MATH
}
