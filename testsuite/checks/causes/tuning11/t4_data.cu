// Tuning, round 11. Cause 4: a thread index used as data (hard negatives only).
// Domains: cellular automata (bit-packed Game of Life), CSR matrix transpose
// (column bitmap, blocked scan with bank padding, tile transpose of a dense
// block), bitonic sort (global steps), embedding bag (hashed buckets).
// Ambiguous calls (labelled as a demanding GPU engineer reading the check
// pages would expect):
// - Every kernel with a 32 on a thread index does no warp-level work (no warp
//   call, no warpSize): bitmap words and bits (`x >> 5`, `x & 31`,
//   `1u << (c % 32)`), rows and columns of rows of 32 (`r = t / 32`,
//   `c = t % 32` used as tile[r][c] and m[r * 33 + c]), bank padding
//   `ai + CONFLICT_FREE_OFFSET(ai)`, `blockIdx.x % 32`, `% 32` of loaded
//   keys: quiet.
// - golPopulation is the one warp-level kernel: it shuffles from
//   `warpSize / 2` with an `__activemask()` mask and counts live cells with
//   __popc of a data word: quiet SHFL-OFFSET, MASK32 and BALLOT-NARROW.
// - Launch shapes: `dim3 block(32, 8)` (256 threads) for kernels that never
//   shuffle and `(n + 31) / 32` grids (a 32 that only divides): quiet.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

#define NUM_BANKS 32                                                       // quiet: W64-LANE-MATH
#define LOG_NUM_BANKS 5                                                    // quiet: W64-LANE-MATH
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

// --------------------------------------------------------- Game of Life
// One thread per cell; the grid is stored as rows of 32-bit words.
__device__ __forceinline__ int cellAt(const uint32_t* __restrict__ g, int wordsPerRow, int x, int y) {
  return (g[y * wordsPerRow + (x >> 5)] >> (x & 31)) & 1u;                 // quiet: W64-LANE-MATH
}

__global__ void golStep(const uint32_t* __restrict__ cur, uint32_t* __restrict__ nxt, int width, int height,
                        int wordsPerRow) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int n = 0;
#pragma unroll
  for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
    for (int dx = -1; dx <= 1; ++dx) {
      if (dx == 0 && dy == 0) continue;
      const int xx = (x + dx + width) % width, yy = (y + dy + height) % height;
      n += cellAt(cur, wordsPerRow, xx, yy);
    }
  const int alive = cellAt(cur, wordsPerRow, x, y);
  const uint32_t bit = 1u << (x % 32);                                     // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
  if (n == 3 || (alive && n == 2)) atomicOr(&nxt[y * wordsPerRow + x / 32], bit);   // quiet: W64-LANE-MATH
}

// Live cells per row: one warp per row, lanes over the row's words.
__global__ void golPopulation(const uint32_t* __restrict__ grid, int wordsPerRow, int height, int* __restrict__ pop) {
  const int lane = threadIdx.x % warpSize;
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (row >= height) return;
  int live = 0;
  for (int w = lane; w < wordsPerRow; w += warpSize) live += __popc(grid[row * wordsPerRow + w]);   // quiet: W64-BALLOT-NARROW
  for (int o = warpSize / 2; o > 0; o >>= 1) live += __shfl_down_sync(__activemask(), live, o);   // quiet: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) pop[row] = live;
}

// ---------------------------------------------------------- CSR transpose
// Column occupancy bitmap: thread per nonzero, the column is loaded data.
__global__ void colBitmap(const int* __restrict__ colIdx, int nnz, uint32_t* __restrict__ bits) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nnz) return;
  const int c = colIdx[k];
  atomicOr(&bits[c >> 5], 1u << (c & 31));                                // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
}

// Thread per column: is column c present?
__global__ void bitmapToFlags(const uint32_t* __restrict__ bits, int nCols, int* __restrict__ flags) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < nCols) flags[c] = (bits[c / 32] >> (c % 32)) & 1u;                // quiet: W64-LANE-MATH
}

// Work-efficient exclusive scan of column counts (2 * blockDim.x per block),
// padded against shared-memory bank conflicts.
__global__ void blellochScan(const int* __restrict__ in, int* __restrict__ out, int n, int* __restrict__ blockSums) {
  extern __shared__ int temp[];
  const int tid = threadIdx.x;
  const int base = 2 * blockIdx.x * blockDim.x;
  const int m = 2 * blockDim.x;
  int ai = tid, bi = tid + blockDim.x;
  const int bankA = CONFLICT_FREE_OFFSET(ai), bankB = CONFLICT_FREE_OFFSET(bi);   // quiet: W64-LANE-MATH, W64-WARP-COUNT
  temp[ai + bankA] = base + ai < n ? in[base + ai] : 0;
  temp[bi + bankB] = base + bi < n ? in[base + bi] : 0;
  int offset = 1;
  for (int d = m >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      int a = offset * (2 * tid + 1) - 1, b = offset * (2 * tid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a);
      b += CONFLICT_FREE_OFFSET(b);
      temp[b] += temp[a];
    }
    offset <<= 1;
  }
  if (tid == 0) {
    const int last = m - 1 + CONFLICT_FREE_OFFSET(m - 1);
    blockSums[blockIdx.x] = temp[last];
    temp[last] = 0;
  }
  for (int d = 1; d < m; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int a = offset * (2 * tid + 1) - 1, b = offset * (2 * tid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a);
      b += CONFLICT_FREE_OFFSET(b);
      const int t = temp[a];
      temp[a] = temp[b];
      temp[b] += t;
    }
  }
  __syncthreads();
  if (base + ai < n) out[base + ai] = temp[ai + bankA];
  if (base + bi < n) out[base + bi] = temp[bi + bankB];
}

// Transpose of a dense 32 x 32 block, a flat 1D block of 256 threads.
__global__ void denseBlockTranspose(const float* __restrict__ a, float* __restrict__ at, int rows, int cols) {
  __shared__ float tile[32][33];                                           // quiet: W64-WARP-COUNT
  const int t = threadIdx.x;
  const int r = t / 32, c = t % 32;                                        // quiet: W64-LANE-MATH
  const int r0 = blockIdx.y * 32, c0 = blockIdx.x * 32;
  for (int rr = r; rr < 32; rr += 8)                                       // quiet: W64-LANE-MATH
    if (r0 + rr < rows && c0 + c < cols) tile[rr][c] = a[(r0 + rr) * cols + c0 + c];
  __syncthreads();
  for (int rr = r; rr < 32; rr += 8)                                       // quiet: W64-LANE-MATH
    if (c0 + rr < cols && r0 + c < rows) at[(c0 + rr) * rows + r0 + c] = tile[c][rr];
}

// --------------------------------------------------------- bitonic sort
// One compare-exchange step (j, k) of a global bitonic sort over n = 2^p keys.
__global__ void bitonicStep(unsigned* __restrict__ keys, int j, int k) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned ixj = i ^ j;
  if (ixj <= i) return;
  const bool up = (i & k) == 0;
  const unsigned a = keys[i], b = keys[ixj];
  if ((a > b) == up) { keys[i] = b; keys[ixj] = a; }
}

// ----------------------------------------------------------- embedding bag
// Hashed embedding bag: ids fold into 32 buckets per shard, shards round-robin over blocks.
__global__ void hashedBagSum(const int64_t* __restrict__ ids, const int* __restrict__ offsets,
                             const float* __restrict__ table, float* __restrict__ out, int numBags, int dim) {
  const int bag = blockIdx.x;
  if (bag >= numBags) return;
  const int shard = blockIdx.x % 32;                                       // quiet: W64-LANE-MATH
  for (int d = threadIdx.x; d < dim; d += blockDim.x) {
    float acc = 0.f;
    for (int k = offsets[bag]; k < offsets[bag + 1]; ++k) {
      const int bucket = static_cast<int>(ids[k] % 32);                    // quiet: W64-LANE-MATH
      acc += table[(static_cast<size_t>(shard) * 32 + bucket) * dim + d];
    }
    out[static_cast<size_t>(bag) * dim + d] = acc;
  }
}

// ------------------------------------------------------------------ host
void runData(const uint32_t* cur, uint32_t* nxt, int width, int height, const float* a, float* at, int rows, int cols) {
  const int wordsPerRow = (width + 31) / 32;                               // quiet: W64-BLOCK-SIZE, W64-WARP-COUNT
  dim3 block(32, 8);                                                       // quiet: W64-BLOCK-SIZE
  dim3 grid((width + 31) / 32, (height + 7) / 8);                          // quiet: W64-BLOCK-SIZE
  golStep<<<grid, block>>>(cur, nxt, width, height, wordsPerRow);
  dim3 tgrid((cols + 31) / 32, (rows + 31) / 32);                          // quiet: W64-BLOCK-SIZE
  denseBlockTranspose<<<tgrid, 256>>>(a, at, rows, cols);
}
