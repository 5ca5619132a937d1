// Held out, round 3. Cause 1: lane strides and per-lane splits.
#include <cuda_runtime.h>

__global__ void csrWarpRow(const int *rowPtr, const int *cols, const float *vals,
                           const float *x, float *y, int rows) {
  const int lane = threadIdx.x % 32;                               // expect: W64-LANE-MATH
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (row >= rows) return;
  float acc = 0.f;
  for (int j = rowPtr[row] + lane; j < rowPtr[row + 1]; j += 32)  // expect: W64-LANE-MATH
    acc += vals[j] * x[cols[j]];
  acc += __shfl_down_sync(0xffffffff, acc, 16);                    // expect: W64-SHFL-OFFSET, W64-MASK32
  acc += __shfl_down_sync(0xffffffff, acc, 8);                     // expect: W64-MASK32
  acc += __shfl_down_sync(0xffffffff, acc, 4);                     // expect: W64-MASK32
  acc += __shfl_down_sync(0xffffffff, acc, 2);                     // expect: W64-MASK32
  acc += __shfl_down_sync(0xffffffff, acc, 1);                     // expect: W64-MASK32
  if (lane == 0) y[row] = acc;
}

#define TILE 256

__global__ void tileMax(const float *in, float *out) {
  int lane = threadIdx.x & 31;                                     // expect: W64-LANE-MATH
  float m = -1e30f;
#pragma unroll
  for (int k = 0; k < TILE / 32; ++k)                              // expect: W64-LANE-MATH
    m = fmaxf(m, in[blockIdx.x * TILE + k * 32 + lane]);           // expect: W64-LANE-MATH
  for (int o = 16; o; o >>= 1)                                     // expect: W64-SHFL-OFFSET
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));               // expect: W64-MASK32
  if (lane == 0) out[blockIdx.x] = m;
}

// A key modulo 32 is data.
__global__ void buckets(const int *keys, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&count[keys[i] % 32], 1);                   // quiet: W64-LANE-MATH
}
