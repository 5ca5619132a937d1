// Held out, round 12. Cause 4: a thread index used as data. Hard negatives only.
// Domains: suffix arrays by prefix doubling (bucket-head bitmaps, word popcounts scanned
// with conflict-free shared-memory offsets, re-ranking), batched Needleman-Wunsch over
// 32 x 32 anti-diagonal tiles with a traceback bitmap, Gaussian-process cross-covariance
// tiles and their transpose.
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - No function in this file makes a warp call or reads warpSize, so the LANE-MATH page's
//   "thread index used as data" list decides: bitmap words and bits (`i >> 5`,
//   `1u << (i & 31)`, through a cast), rows and columns of rows of 32 (`t / 32`,
//   `t % 32` used as `A[rr][c]`, the `rr += 8` stride over them, `row * kTile + j`).
// - `__popc` of a bitmap word and `1u << (i & 31)` are no lane masks: no ballot,
//   activemask or match produced them (quiet BALLOT-NARROW).
// - kTile = 32 spells a tile: `threadIdx.x / kTile`, `threadIdx.x % kTile`, the
//   anti-diagonal bound `j < kTile` and the last row `row == kTile - 1` are tile math in
//   code with no shuffle (quiet), not lane ids or last-lane tests.
// - `(k) >> LOG_NUM_BANKS` added to its own index is bank padding (quiet LANE-MATH and
//   WARP-COUNT), also on the host, where `perBlock + CONFLICT_FREE_OFFSET(perBlock - 1)`
//   pads the shared size (no count of warps).
// - `(n + 31) / 32` bitmap words size a buffer for kernels that do no warp work (quiet
//   WARP-COUNT); `(n + 31) / 32` tiles only divide a grid (quiet BLOCK-SIZE);
//   `dim3(32, 8)` is 256 threads, a multiple of 64, for a kernel that does not shuffle.
// - `aa & 31` on residue letters read from memory is data (quiet).
#include <cuda_runtime.h>
#include <cstdint>
#include <vector>

// ---------------------------------------------------------------------------------------
// Suffix array by prefix doubling. After sorting by (rank[s], rank[s + h]), bit i of
// headBits marks that SA[i] starts a new bucket.
__global__ void markHeads(const int* __restrict__ sa, const int* __restrict__ rank, int n, int h,
                          uint32_t* __restrict__ headBits) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int s = sa[i];
  bool head = i == 0;
  if (!head) {
    const int p = sa[i - 1];
    const int a1 = rank[s], b1 = s + h < n ? rank[s + h] : -1;
    const int a0 = rank[p], b0 = p + h < n ? rank[p + h] : -1;
    head = a1 != a0 || b1 != b0;
  }
  if (head) atomicOr(&headBits[i >> 5], 1u << (i & 31));                             // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
}

__global__ void wordCounts(const uint32_t* __restrict__ headBits, int words, int* __restrict__ cnt) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w < words) cnt[w] = __popc(headBits[w]);                                       // quiet: W64-BALLOT-NARROW
}

#define NUM_BANKS 32
#define LOG_NUM_BANKS 5                                                              // quiet: W64-LANE-MATH
#define CONFLICT_FREE_OFFSET(k) ((k) >> LOG_NUM_BANKS)

// Exclusive Blelloch scan of 2 * blockDim.x values per block, with conflict-free offsets.
__global__ void blellochScan(const int* __restrict__ in, int count, int* __restrict__ out,
                             int* __restrict__ blockSums) {
  extern __shared__ int temp[];
  const int t = threadIdx.x, nn = 2 * blockDim.x;
  const int base = blockIdx.x * nn;
  const int ai = t, bi = t + blockDim.x;
  const int padA = CONFLICT_FREE_OFFSET(ai), padB = CONFLICT_FREE_OFFSET(bi);        // quiet: W64-LANE-MATH, W64-WARP-COUNT
  temp[ai + padA] = base + ai < count ? in[base + ai] : 0;
  temp[bi + padB] = base + bi < count ? in[base + bi] : 0;
  int offset = 1;
  for (int d = nn >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a);                                                  // quiet: W64-LANE-MATH
      b += CONFLICT_FREE_OFFSET(b);                                                  // quiet: W64-LANE-MATH
      temp[b] += temp[a];
    }
    offset *= 2;
  }
  if (t == 0) {
    const int last = nn - 1 + CONFLICT_FREE_OFFSET(nn - 1);
    blockSums[blockIdx.x] = temp[last];
    temp[last] = 0;
  }
  for (int d = 1; d < nn; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a);
      b += CONFLICT_FREE_OFFSET(b);
      const int x = temp[a];
      temp[a] = temp[b];
      temp[b] += x;
    }
  }
  __syncthreads();
  if (base + ai < count) out[base + ai] = temp[ai + padA];
  if (base + bi < count) out[base + bi] = temp[bi + padB];
}

// New rank of SA[i]: the heads at or before i, minus one.
__global__ void rerank(const int* __restrict__ sa, const uint32_t* __restrict__ headBits,
                       const int* __restrict__ wordOff, const int* __restrict__ blockOff, int wordsPerScan, int n,
                       int* __restrict__ newRank, int* __restrict__ numBuckets) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t word = static_cast<uint32_t>(i) >> 5;                               // quiet: W64-LANE-MATH
  const uint32_t upTo = headBits[word] & ((2u << (i & 31)) - 1u);                    // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
  const int r = wordOff[word] + blockOff[word / wordsPerScan] + __popc(upTo) - 1;    // quiet: W64-BALLOT-NARROW
  newRank[sa[i]] = r;
  if (i == n - 1) *numBuckets = r + 1;
}

// ---------------------------------------------------------------------------------------
// Batched Needleman-Wunsch: re-scoring of 32-residue seed extensions. A block of 128
// threads scores four pairs; thread t owns row t % kTile of its pair's tile, and the tile
// is swept by anti-diagonals. Diagonal moves go to a traceback bitmap.
constexpr int kTile = 32;
__constant__ int8_t kSubst[32][32];

__global__ void nwTiles(const uint8_t* __restrict__ qry, const uint8_t* __restrict__ ref, int pairs, int gap,
                        int* __restrict__ score, uint32_t* __restrict__ diagBits) {
  __shared__ int H[4][kTile + 1][kTile + 1];
  const int slot = threadIdx.x / kTile;                                              // quiet: W64-LANE-MATH
  const int row = threadIdx.x % kTile;                                               // quiet: W64-LANE-MATH
  const int pair = blockIdx.x * 4 + slot;
  const bool active = pair < pairs;
  int (*Hp)[kTile + 1] = H[slot];
  Hp[row + 1][0] = (row + 1) * gap;
  if (row == 0)
    for (int j = 0; j <= kTile; ++j) Hp[0][j] = j * gap;
  __syncthreads();
  const uint8_t* b = ref + static_cast<size_t>(active ? pair : 0) * kTile;
  const int qa = active ? (qry[static_cast<size_t>(pair) * kTile + row] & 31) : 0;   // quiet: W64-LANE-MATH
  for (int d = 0; d < 2 * kTile - 1; ++d) {
    const int j = d - row;
    if (active && j >= 0 && j < kTile) {                                             // quiet: W64-LANE-MATH
      const int s = Hp[row][j] + kSubst[qa][b[j] & 31];
      const int best = max(s, max(Hp[row][j + 1] + gap, Hp[row + 1][j] + gap));
      Hp[row + 1][j + 1] = best;
      if (best == s) {
        const int cell = row * kTile + j;                                            // quiet: W64-LANE-MATH
        atomicOr(&diagBits[static_cast<size_t>(pair) * (kTile * kTile / 32) + (cell >> 5)], 1u << (cell & 31));   // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
      }
    }
    __syncthreads();
  }
  if (active && row == kTile - 1) score[pair] = Hp[kTile][kTile];                    // quiet: W64-LANE-MATH
}

// ---------------------------------------------------------------------------------------
// Gaussian-process cross-covariance K*[i][j] = s2 * exp(-g |xs_i - x_j|^2) in 32 x 32
// output tiles, a flat block of 256 threads: thread t owns column t % 32 and rows
// t / 32 + 8 q of the tile.
__global__ void rbfCrossTile(const float* __restrict__ Xs, int m, const float* __restrict__ X, int n, int d,
                             float g, float s2, float* __restrict__ Ks) {
  __shared__ float A[32][33];                                                        // quiet: W64-WARP-COUNT
  __shared__ float B[32][33];
  const int c = threadIdx.x % 32;                                                    // quiet: W64-LANE-MATH
  const int r = threadIdx.x / 32;                                                    // quiet: W64-LANE-MATH
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k0 = 0; k0 < d; k0 += 32) {
    for (int rr = r; rr < 32; rr += 8) {                                             // quiet: W64-LANE-MATH
      A[rr][c] = (row0 + rr < m && k0 + c < d) ? Xs[static_cast<size_t>(row0 + rr) * d + k0 + c] : 0.f;
      B[rr][c] = (col0 + rr < n && k0 + c < d) ? X[static_cast<size_t>(col0 + rr) * d + k0 + c] : 0.f;
    }
    __syncthreads();
    for (int k = 0; k < 32; ++k)
      for (int q = 0; q < 4; ++q) { const float u = A[r + 8 * q][k] - B[c][k]; acc[q] += u * u; }
    __syncthreads();
  }
  for (int q = 0; q < 4; ++q) {
    const int i = row0 + r + 8 * q, j = col0 + c;
    if (i < m && j < n) Ks[static_cast<size_t>(i) * n + j] = s2 * __expf(-g * acc[q]);
  }
}

// K* (m x n) -> K*^T (n x m) for the triangular solves, 32 x 8 threads per 32 x 32 tile.
__global__ void transposeTile(const float* __restrict__ in, int rows, int cols, float* __restrict__ out) {
  __shared__ float tile[32][33];                                                     // quiet: W64-WARP-COUNT
  const int x = blockIdx.x * 32 + threadIdx.x;                                       // quiet: W64-LANE-MATH
  const int y0 = blockIdx.y * 32;
  for (int j = threadIdx.y; j < 32; j += 8)
    if (x < cols && y0 + j < rows) tile[j][threadIdx.x] = in[static_cast<size_t>(y0 + j) * cols + x];
  __syncthreads();
  const int ox = blockIdx.y * 32 + threadIdx.x, oy0 = blockIdx.x * 32;                // quiet: W64-LANE-MATH
  for (int j = threadIdx.y; j < 32; j += 8)
    if (ox < rows && oy0 + j < cols) out[static_cast<size_t>(oy0 + j) * rows + ox] = tile[threadIdx.x][j];
}

// ---------------------------------------------------------------------------------------
int prefixDoublingRound(const int* sa, const int* rank, int n, int h, int* newRank, cudaStream_t st) {
  const int words = (n + 31) / 32;                                                   // quiet: W64-WARP-COUNT
  uint32_t* headBits = nullptr;
  int *cnt = nullptr, *wordOff = nullptr, *blockSums = nullptr, *numBuckets = nullptr;
  cudaMalloc(&headBits, words * sizeof(uint32_t));
  cudaMalloc(&cnt, words * sizeof(int));
  cudaMalloc(&wordOff, words * sizeof(int));
  cudaMemsetAsync(headBits, 0, words * sizeof(uint32_t), st);
  markHeads<<<(n + 255) / 256, 256, 0, st>>>(sa, rank, n, h, headBits);
  wordCounts<<<(words + 255) / 256, 256, 0, st>>>(headBits, words, cnt);
  const int scanThreads = 256, perBlock = 2 * scanThreads;
  const int scanBlocks = (words + perBlock - 1) / perBlock;
  const size_t shmem = (perBlock + CONFLICT_FREE_OFFSET(perBlock - 1)) * sizeof(int);   // quiet: W64-WARP-COUNT
  cudaMalloc(&blockSums, scanBlocks * sizeof(int));
  cudaMalloc(&numBuckets, sizeof(int));
  blellochScan<<<scanBlocks, scanThreads, shmem, st>>>(cnt, words, wordOff, blockSums);
  std::vector<int> sums(scanBlocks);
  cudaMemcpyAsync(sums.data(), blockSums, scanBlocks * sizeof(int), cudaMemcpyDeviceToHost, st);
  cudaStreamSynchronize(st);
  for (int b = 0, run = 0; b < scanBlocks; ++b) { const int v = sums[b]; sums[b] = run; run += v; }
  cudaMemcpyAsync(blockSums, sums.data(), scanBlocks * sizeof(int), cudaMemcpyHostToDevice, st);
  rerank<<<(n + 255) / 256, 256, 0, st>>>(sa, headBits, wordOff, blockSums, perBlock, n, newRank, numBuckets);
  int buckets = 0;
  cudaMemcpyAsync(&buckets, numBuckets, sizeof(int), cudaMemcpyDeviceToHost, st);
  cudaStreamSynchronize(st);
  cudaFree(headBits);
  cudaFree(cnt);
  cudaFree(wordOff);
  cudaFree(blockSums);
  cudaFree(numBuckets);
  return buckets;
}

void gpCrossCovariance(const float* Xs, int m, const float* X, int n, int d, float g, float s2, float* Ks,
                       float* KsT, cudaStream_t st) {
  const dim3 tiles((n + 31) / 32, (m + 31) / 32);                                   // quiet: W64-BLOCK-SIZE
  rbfCrossTile<<<tiles, 256, 0, st>>>(Xs, m, X, n, d, g, s2, Ks);
  const dim3 tgrid((n + 31) / 32, (m + 31) / 32);
  transposeTile<<<tgrid, dim3(32, 8), 0, st>>>(Ks, m, n, KsT);                       // quiet: W64-BLOCK-SIZE
}

void nwBatch(const uint8_t* qry, const uint8_t* ref, int pairs, int gap, int* score, uint32_t* diagBits,
             cudaStream_t st) {
  nwTiles<<<(pairs + 3) / 4, 4 * kTile, 0, st>>>(qry, ref, pairs, gap, score, diagBits);   // quiet: W64-BLOCK-SIZE
}
