// Cause 1: lane strides and per-lane splits.
#include <cuda_runtime.h>

__global__ void rowGather(const float *a, const int *rowStart, float *out, int rows) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; // expect: W64-WARP-COUNT, W64-LANE-MATH
  int lane = threadIdx.x % 32;                                 // expect: W64-LANE-MATH
  if (row >= rows) return;
  float s = 0.f;
  for (int j = rowStart[row] + lane; j < rowStart[row + 1]; j += 32) // expect: W64-LANE-MATH
    s += a[j];
  for (int o = 16; o > 0; o /= 2)                              // expect: W64-SHFL-OFFSET
    s += __shfl_down_sync(0xffffffff, s, o);                   // expect: W64-MASK32
  if (lane == 0) out[row] = s;
}

__global__ void tileLoad(const float *x, float *y, int n) {
  int lane = threadIdx.x & 31;                                 // expect: W64-LANE-MATH
  float acc = 0.f;
  for (int k0 = 0; k0 < n; k0 += 32) {                         // expect: W64-LANE-MATH
    float v = x[k0 + lane];
    acc += v * v;
  }
  acc += __shfl_xor_sync(0xffffffff, acc, 16);                 // expect: W64-MASK32
  y[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int D>
__global__ void perLaneRegisters(const float *q, float *o) {
  int lane = threadIdx.x % 32;                                 // expect: W64-LANE-MATH
  float r[D / 32];                                             // expect: W64-LANE-MATH
  for (int i = 0; i < D / 32; ++i)                             // expect: W64-LANE-MATH
    r[i] = q[blockIdx.x * D + i * 32 + lane];                  // expect: W64-LANE-MATH
  for (int i = 0; i < D / 32; ++i)                             // expect: W64-LANE-MATH
    o[blockIdx.x * D + i * 32 + lane] = 2.f * r[i];            // expect: W64-LANE-MATH
}

template __global__ void perLaneRegisters<128>(const float *, float *);

// A thread index (not a lane) stepped by the block size: no lane stride.
__global__ void gridStride(float *p, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    p[i] *= 2.f;
  int t = threadIdx.x;
  p[t + 32] = 0.f;                                             // quiet: W64-LANE-MATH
}
