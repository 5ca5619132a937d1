// Held out, round 7. Cause 4: a thread index used as data (hard negatives),
// with a few real hazards mixed in.
// Ambiguous calls (labelled as a demanding GPU engineer would expect):
// - markFrontier, frontierExpand, unpackBits, loadTileRows and bucketCount
//   make no warp call: their `>> 5`, `& 31`, `/ 32`, `% 32` on thread indices
//   are words and bits of 32-bit bitmaps or rows and columns of rows of 32
//   (quiet, as the LANE-MATH page lists them); `1u << (v & 31)` is a bitmap
//   bit, not a lane bit of a ballot. The 32-element shared arrays are tiles
//   and per-block buckets, not per-warp slots.
// - loadTileRows: `threadIdx.x / 32` and `threadIdx.x % 32` split one flat
//   thread index into the row and column of a 32-wide tile, and its k0 loop
//   steps over tiles, not over lanes (quiet).
// - packSigns looks like the same bitmap code but builds its words with a
//   ballot: its lane, its global warp index, the 32-bit ballot word and the
//   `__popc` of it under a `1u << lane` bit are real findings (expect).
#include <cuda_runtime.h>
#include <cstdint>

// BFS, top-down step: mark the vertices of the next frontier in a bitmap.
__global__ void markFrontier(const int* __restrict__ level, uint32_t* __restrict__ next,
                             int depth, int nv) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nv || level[v] != depth) return;
  const uint32_t word = static_cast<uint32_t>(v) >> 5;                 // quiet: W64-LANE-MATH
  const uint32_t bit = 1u << (v & 31);                                  // quiet: W64-LANE-MATH
  atomicOr(&next[word], bit);
}

// BFS, expansion: every vertex of the frontier visits its neighbours.
__global__ void frontierExpand(const uint32_t* __restrict__ frontier, uint32_t* __restrict__ visited,
                               const int* __restrict__ rowPtr, const int* __restrict__ adj,
                               int* __restrict__ level, int depth, int nv) {
  const int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= nv) return;
  if (((frontier[u / 32] >> (u % 32)) & 1u) == 0) return;               // quiet: W64-LANE-MATH
  for (int e = rowPtr[u]; e < rowPtr[u + 1]; ++e) {
    const int w = adj[e];
    const uint32_t m = 1u << (w & 31);
    if (atomicOr(&visited[w >> 5], m) & m) continue;
    level[w] = depth + 1;
  }
}

// Expand a bitmap to one byte per element.
__global__ void unpackBits(const uint32_t* __restrict__ bits, uint8_t* __restrict__ out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = static_cast<uint8_t>((bits[i >> 5] >> (i & 31)) & 1u);     // quiet: W64-LANE-MATH
}

// Tiled matrix multiply, 32 x 32 tiles loaded by a flat block of 256 threads.
__global__ void loadTileRows(const float* __restrict__ A, const float* __restrict__ B,
                             float* __restrict__ C, int n) {
  __shared__ float As[32][33];                                          // quiet: W64-WARP-COUNT
  __shared__ float Bs[32][33];
  const int r = threadIdx.x / 32;                                       // quiet: W64-LANE-MATH
  const int c = threadIdx.x % 32;                                       // quiet: W64-LANE-MATH
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k0 = 0; k0 < n; k0 += 32) {                                 // quiet: W64-LANE-MATH
    for (int rr = r; rr < 32; rr += 8) {
      As[rr][c] = A[static_cast<size_t>(row0 + rr) * n + k0 + c];
      Bs[rr][c] = B[static_cast<size_t>(k0 + rr) * n + col0 + c];
    }
    __syncthreads();
    for (int k = 0; k < 32; ++k)
      for (int q = 0; q < 4; ++q) acc[q] += As[r + 8 * q][k] * Bs[k][c];
    __syncthreads();
  }
  for (int q = 0; q < 4; ++q) C[static_cast<size_t>(row0 + r + 8 * q) * n + col0 + c] = acc[q];
}

// Hash keys into 32 buckets per block (key value, not a lane).
__global__ void bucketCount(const uint32_t* __restrict__ keys, int* __restrict__ counts, int n) {
  __shared__ int local[32];                                             // quiet: W64-WARP-COUNT
  if (threadIdx.x < 32) local[threadIdx.x] = 0;
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&local[keys[i] % 32], 1);                        // quiet: W64-LANE-MATH
  __syncthreads();
  if (threadIdx.x < 32) atomicAdd(&counts[(blockIdx.x % 32) * 32 + threadIdx.x], local[threadIdx.x]);   // quiet: W64-LANE-MATH
}

// Sign bitmap built with a ballot: one 32-bit word per warp, and each
// negative element's rank among the negatives of its warp.
__global__ void packSigns(const float* __restrict__ x, uint32_t* __restrict__ bits,
                          int* __restrict__ rankInWarp, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool neg = i < n && x[i] < 0.f;
  const uint32_t word = __ballot_sync(__activemask(), neg);             // expect: W64-BALLOT-NARROW
  const int lane = threadIdx.x & 31;                                    // expect: W64-LANE-MATH
  if (lane == 0 && i < n) bits[i >> 5] = word;                          // expect: W64-LANE-MATH
  if (neg) rankInWarp[i] = __popc(word & ((1u << lane) - 1u));          // expect: W64-BALLOT-NARROW
}
