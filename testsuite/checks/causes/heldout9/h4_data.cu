// Held out, round 9. Cause 4: a thread index used as data (hard negatives only).
// Domains: sparse triangular solve (solved-row bitmap), radix sort (5-bit
// digits, bank-padded block scan, warp-aggregated counts written with warpSize
// and __activemask), Monte Carlo (xorshift seeded from the thread index), image
// histogram equalization (32 x 32 pixel tiles), N-body particle binning.
// Every label is `quiet:`: nothing here assumes 32-lane warps.
// Ambiguous calls (labelled from the check pages, never checked with the tool):
// - bitmap words and bits from a thread-derived row (`row >> 5`, `row & 31`,
//   `1u << (row % 32)`) in kernels without warp calls: data (quiet LANE-MATH,
//   and no lane mask for BALLOT-NARROW).
// - `word * 32 + b` packs flags into bitmap words: the first bit of a word, not
//   the first thread of a warp; the same for the RNG seed `tid * 32u` and the
//   xorshift `s << 5` (state bits).
// - radixCountAggregated does warp-level work (match) with kRadix = 32 buckets:
//   `cnt[kRadix]` is indexed by a digit from memory, not by a warp id, and
//   `threadIdx.x < kRadix` initialises the buckets (quiet).
// - PADDED(i) is bank padding (`i + (i >> 5)`) on block-sized indices.
// - tileHist flattens 1024 threads into r = t / 32, c = t % 32 used as a
//   row and column of a 32 x 32 pixel tile; its launch of kTile * kTile
//   threads is a multiple of 64 built from 32s for a kernel with no shuffle.
// - the bitmap is sized on the host with (n + 31) / 32 words and passed to a
//   kernel that does no warp-level work (quiet WARP-COUNT).
#include <cuda_runtime.h>
#include <cstdint>

#define LOG_BANKS 5
#define PADDED(i) ((i) + ((i) >> LOG_BANKS))                                    // quiet: W64-LANE-MATH
constexpr int kRadix = 32;                                                      // quiet: W64-LANE-MATH, W64-WARP-COUNT
constexpr int kScanThreads = 256;
constexpr int kTile = 32;                                                       // quiet: W64-LANE-MATH

// Level 0 of a lower-triangular solve: rows whose only entry is the diagonal.
__global__ void sptrsvLevel0(const int* __restrict__ rowPtr, const float* __restrict__ val,
                             const float* __restrict__ b, int n, float* __restrict__ x,
                             unsigned* __restrict__ solved) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || rowPtr[row + 1] - rowPtr[row] != 1) return;
  x[row] = b[row] / val[rowPtr[row]];
  atomicOr(&solved[row >> 5], 1u << (row & 31));                                // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
}

// Later levels: one thread per row of the level; dependencies must be solved.
__global__ void sptrsvLevel(const int* __restrict__ rowPtr, const int* __restrict__ col,
                            const float* __restrict__ val, const float* __restrict__ b,
                            const int* __restrict__ levelRows, int levelSize, float* __restrict__ x,
                            unsigned* __restrict__ solved, int* __restrict__ violations) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= levelSize) return;
  const int row = levelRows[i];
  float acc = b[row], diag = 1.f;
  for (int j = rowPtr[row]; j < rowPtr[row + 1]; ++j) {
    const int c = col[j];
    if (c == row) { diag = val[j]; continue; }
    if (!((solved[c >> 5] >> (c & 31)) & 1u)) atomicAdd(violations, 1);         // quiet: W64-LANE-MATH
    acc -= val[j] * x[c];
  }
  x[row] = acc / diag;
  atomicOr(&solved[row / 32], 1u << (row % 32));                                // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
}

// Pack one flag per row into bitmap words: thread `word` builds word `word`.
__global__ void packFlags(const uint8_t* __restrict__ flags, int n, unsigned* __restrict__ words) {
  const int word = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned bits = 0u;
  for (int b = 0; b < 32; ++b) {                                                // quiet: W64-SHFL-OFFSET
    const int r = word * 32 + b;                                                // quiet: W64-LANE-MATH
    if (r < n && flags[r]) bits |= 1u << b;
  }
  if (word * 32 < n) words[word] = bits;                                        // quiet: W64-LANE-MATH
}

// Radix sort, counting pass: 5-bit digits, one counter per bucket per block.
__global__ void __launch_bounds__(kScanThreads)
radixCount(const uint32_t* __restrict__ keys, int n, int shift, unsigned* __restrict__ blockCounts) {
  __shared__ unsigned cnt[kRadix];                                              // quiet: W64-WARP-COUNT
  if (threadIdx.x < kRadix) cnt[threadIdx.x] = 0u;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&cnt[(keys[i] >> shift) & (kRadix - 1)], 1u);                     // quiet: W64-LANE-MATH
  __syncthreads();
  if (threadIdx.x < kRadix) blockCounts[threadIdx.x * gridDim.x + blockIdx.x] = cnt[threadIdx.x];
}

// The same counts with warp aggregation: lanes holding equal digits elect a leader.
__global__ void __launch_bounds__(kScanThreads)
radixCountAggregated(const uint32_t* __restrict__ keys, int n, int shift, unsigned* __restrict__ blockCounts) {
  __shared__ unsigned cnt[kRadix];                                              // quiet: W64-WARP-COUNT
  const int lane = threadIdx.x % warpSize;                                      // quiet: W64-LANE-MATH
  if (threadIdx.x < kRadix) cnt[threadIdx.x] = 0u;                              // quiet: W64-LANE-MATH
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const unsigned digit = (keys[i] >> shift) & (kRadix - 1);                   // quiet: W64-LANE-MATH
    const auto peers = __match_any_sync(__activemask(), digit);                 // quiet: W64-MASK32, W64-BALLOT-NARROW
    const int leader = __ffsll(static_cast<long long>(peers)) - 1;              // quiet: W64-BALLOT-NARROW
    if (lane == leader) atomicAdd(&cnt[digit], static_cast<unsigned>(__popcll(peers)));   // quiet: W64-BALLOT-NARROW
  }
  __syncthreads();
  if (threadIdx.x < kRadix) blockCounts[threadIdx.x * gridDim.x + blockIdx.x] = cnt[threadIdx.x];
}

// Exclusive scan of 2 * kScanThreads counters per block (work-efficient, with
// one padding slot per 32 entries against bank conflicts).
__global__ void __launch_bounds__(kScanThreads)
blockExclusiveScan(unsigned* __restrict__ data, unsigned* __restrict__ blockTotals, int n) {
  __shared__ unsigned s[PADDED(2 * kScanThreads)];                             // quiet: W64-WARP-COUNT
  const int t = threadIdx.x, base = blockIdx.x * 2 * kScanThreads;
  const int ai = t, bi = t + kScanThreads;
  s[PADDED(ai)] = base + ai < n ? data[base + ai] : 0u;                         // quiet: W64-LANE-MATH
  s[PADDED(bi)] = base + bi < n ? data[base + bi] : 0u;                         // quiet: W64-LANE-MATH
  int off = 1;
  for (int d = kScanThreads; d > 0; d >>= 1, off <<= 1) {
    __syncthreads();
    if (t < d) { const int a = off * (2 * t + 1) - 1, b = off * (2 * t + 2) - 1; s[PADDED(b)] += s[PADDED(a)]; }   // quiet: W64-LANE-MATH
  }
  if (t == 0) { blockTotals[blockIdx.x] = s[PADDED(2 * kScanThreads - 1)]; s[PADDED(2 * kScanThreads - 1)] = 0u; }
  for (int d = 1; d <= kScanThreads; d <<= 1) {
    off >>= 1;
    __syncthreads();
    if (t < d) {
      const int a = off * (2 * t + 1) - 1, b = off * (2 * t + 2) - 1;
      const unsigned v = s[PADDED(a)]; s[PADDED(a)] = s[PADDED(b)]; s[PADDED(b)] += v;
    }
  }
  __syncthreads();
  if (base + ai < n) data[base + ai] = s[PADDED(ai)];
  if (base + bi < n) data[base + bi] = s[PADDED(bi)];
}

// Monte Carlo digital call: a hit count per block, reduced through shared memory.
__device__ __forceinline__ uint32_t xorshift32(uint32_t s) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s; }   // quiet: W64-LANE-MATH

__global__ void __launch_bounds__(kScanThreads)
mcDigital(float s0, float k, float drift, float diff, int pathsPerThread, unsigned* __restrict__ hits) {
  __shared__ unsigned part[kScanThreads];
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t s = (tid * 32u) ^ 0x9E3779B9u;                                       // quiet: W64-LANE-MATH
  unsigned count = 0;
  for (int p = 0; p < pathsPerThread; ++p) {
    s = xorshift32(s); const float u1 = (s >> 8) * (1.f / 16777216.f) + 1e-7f;
    s = xorshift32(s); const float u2 = (s >> 8) * (1.f / 16777216.f);
    count += s0 * expf(drift + diff * sqrtf(-2.f * logf(u1)) * cospif(2.f * u2)) > k;
  }
  part[threadIdx.x] = count;
  __syncthreads();
  for (int st = kScanThreads / 2; st > 0; st >>= 1) {                           // quiet: W64-SHFL-OFFSET
    if (threadIdx.x < st) part[threadIdx.x] += part[threadIdx.x + st];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(hits, part[0]);
}

// Histogram equalization, tiled: one block of 32 x 32 threads per 32 x 32 tile.
__global__ void tileHist(const uint8_t* __restrict__ img, int w, int h, unsigned* __restrict__ tileHists) {
  __shared__ uint8_t tile[kTile][kTile + 1];                                    // quiet: W64-WARP-COUNT
  __shared__ unsigned hist[256];
  const int t = threadIdx.x;
  const int r = t / 32, c = t % 32;                                             // quiet: W64-LANE-MATH
  const int x = blockIdx.x * kTile + c, y = blockIdx.y * kTile + r;
  if (t < 256) hist[t] = 0u;
  tile[r][c] = (x < w && y < h) ? img[static_cast<size_t>(y) * w + x] : 0;
  __syncthreads();
  if (x < w && y < h) atomicAdd(&hist[tile[r][c]], 1u);
  __syncthreads();
  if (t < 256) tileHists[(static_cast<size_t>(blockIdx.y) * gridDim.x + blockIdx.x) * 256 + t] = hist[t];
}

// N-body binning on a 32 x 32 x 32 cell grid: the cell id is data.
__global__ void binParticles(const float4* __restrict__ pos, int n, float invCell,
                             unsigned* __restrict__ cellOf, unsigned* __restrict__ cellCount) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 p = pos[i];
  const unsigned cx = static_cast<unsigned>(p.x * invCell) & 31u;               // quiet: W64-LANE-MATH
  const unsigned cy = static_cast<unsigned>(p.y * invCell) & 31u;
  const unsigned cz = static_cast<unsigned>(p.z * invCell) & 31u;
  const unsigned cell = (cz << 10) | (cy << 5) | cx;                            // quiet: W64-LANE-MATH
  cellOf[i] = cell;
  atomicAdd(&cellCount[cell], 1u);
}

void solveLevel0(const int* rowPtr, const float* val, const float* b, int n, float* x, unsigned** solved) {
  const size_t words = (static_cast<size_t>(n) + 31) / 32;                      // quiet: W64-WARP-COUNT, W64-BLOCK-SIZE
  cudaMalloc(solved, words * sizeof(unsigned));
  cudaMemset(*solved, 0, words * sizeof(unsigned));
  sptrsvLevel0<<<(n + 255) / 256, 256>>>(rowPtr, val, b, n, x, *solved);
}

void equalizeTiles(const uint8_t* img, int w, int h, unsigned* tileHists) {
  const dim3 grid((w + kTile - 1) / kTile, (h + kTile - 1) / kTile);
  tileHist<<<grid, kTile * kTile>>>(img, w, h, tileHists);                      // quiet: W64-BLOCK-SIZE
}
