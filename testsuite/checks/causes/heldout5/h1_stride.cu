// Held out, round 5. Cause 1: lane strides and per-lane splits.
// Ambiguous calls: gemmTile32's `A[row * n + k0 + tx]` with `k0 += 32` has the
// shape of a lane stride, but the function has no warp-level code and 32 is
// the tile width: quiet. The kernels with 32-lane strides are labelled expect
// (not note): the unit reads warpSize and broadcasts from lane 0, so it is not
// a consistent 32-lane-group design.
#include <cfloat>
#include <cuda_runtime.h>

constexpr int kDim = 256;  // descriptor length of the k-NN search

// k-NN distances: one warp per query. Lane and query come from warpSize, the
// split of the descriptor over the lanes still counts 32 lanes.
__global__ void knnDist(const float *query, const float *ref, float *dist, int nRef) {
  const int lane = threadIdx.x % warpSize;
  const int q = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  for (int r = 0; r < nRef; ++r) {
    float acc = 0.f;
#pragma unroll
    for (int k = 0; k < kDim / 32; ++k) {                                     // expect: W64-LANE-MATH
      const float d = query[q * kDim + k * 32 + lane] - ref[r * kDim + k * 32 + lane]; // expect: W64-LANE-MATH
      acc += d * d;
    }
    for (int o = warpSize / 2; o > 0; o >>= 1)
      acc += __shfl_xor_sync(0xffffffffu, acc, o);                            // expect: W64-MASK32
    if (lane == 0) dist[q * nRef + r] = acc;
  }
}

// Stable-softmax first pass over an attention score tile: one warp per row,
// the keys strided over the lanes, the row max broadcast from lane 0.
__global__ void scoreShift(const float *scores, float *shifted, int nKeys) {
  const int lane = threadIdx.x & 31;                                          // expect: W64-LANE-MATH
  const int row = blockIdx.x * (blockDim.x / 32) + (threadIdx.x >> 5);        // expect: W64-WARP-COUNT, W64-LANE-MATH
  const float *s = scores + (size_t)row * nKeys;
  float m = -FLT_MAX;
  int j = lane;
  while (j < nKeys) { m = fmaxf(m, s[j]); j += 32; }                          // expect: W64-LANE-MATH
  for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_down_sync(0xffffffff, m, o)); // expect: W64-SHFL-OFFSET, W64-MASK32
  m = __shfl_sync(0xffffffff, m, 0);                                          // expect: W64-MASK32
  for (int k = lane; k < nKeys; k += 32) shifted[(size_t)row * nKeys + k] = s[k] - m; // expect: W64-LANE-MATH
}

// Rotary embedding of 64-wide heads, one warp per head: a lane rotates the
// pair (lane, lane + 32).
__global__ void rotaryHead64(float *x, const float *cosT, const float *sinT) {
  const int lane = threadIdx.x % warpSize;
  const int head = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  float *h = x + (size_t)head * 64;
  const float a = h[lane], b = h[lane + 32];                                   // expect: W64-LANE-MATH
  h[lane] = a * cosT[lane] - b * sinT[lane];
  h[lane + 32] = b * cosT[lane] + a * sinT[lane];                              // expect: W64-LANE-MATH
}

// Shared-memory GEMM with 32x32 tiles: the 32s are tile sizes, and nothing
// here works per warp.
__global__ void gemmTile32(const float *A, const float *B, float *C, int n) {
  __shared__ float As[32][32], Bs[32][32];                                     // quiet: W64-WARP-COUNT
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;            // quiet: W64-LANE-MATH
  float acc = 0.f;
  for (int k0 = 0; k0 < n; k0 += 32) {                                         // quiet: W64-LANE-MATH
    As[ty][tx] = A[row * n + k0 + tx];                                         // quiet: W64-LANE-MATH
    Bs[ty][tx] = B[(k0 + ty) * n + col];
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < 32; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}
