// Held out, round 11. Cause 4: a thread index used as data.
// Domains: sliding-window sparse attention masks (bit-packed), 2:4 structured pruning
// with keep bitmaps, 32 x 32 bit-matrix transposes, block scans of keep counts with bank
// padding, masked score tiles stored in rows of 32.
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - Bitmap words and bits (`k / 32`, `1u << (k % 32)`, through locals and a cast in
//   prune24), rows and columns of rows of 32 (`t / 32`, `t % 32` as tile[r][c],
//   `(r << 5) + (c & 31)`), bank padding `i + (i >> LOG_BANKS)` through a macro (also on
//   the block-sized `m - 1`), `% 32` on data and on blockIdx: quiet, in functions that
//   make no warp call ("in a function without warp calls, a thread index used as data").
//   `1u << bit` there is no lane bit of a ballot (quiet BALLOT-NARROW), nor is __popc of
//   a loaded word.
// - windowMaskBallot and bitTransposeVote build the same words with __ballot_sync: the
//   data exemption is for functions without warp calls, so `threadIdx.x & 31`, `k >> 5`,
//   `blk * 32 + lane` are LANE-MATH there (the ballot spans 64 lanes).
// - maskRowNnz: a row's first thread (`(threadIdx.x & 31) == 0`) writes `rowNnz[i >> 5]`
//   in a kernel with no warp-level work: the README's "`lane = tid & 31; if (lane == 0)
//   slots[tid >> 5] = v;` ... per-group outputs" case, a LANE-MATH note (no bit or tile
//   addressing pairs the two).
// - ROW_ALL_ON is 0xffffffffu under a name without "mask", stored as data and never
//   given to a warp call: quiet.
// - Host: `(m + m / 32) * sizeof(int)` is the padded scan buffer (an index plus its own
//   thirty-second; the 32 only divides) and `L * wordsPerRow / 32` counts bit blocks,
//   sizing no cudaMalloc buffer of a per-warp kernel: quiet WARP-COUNT / BLOCK-SIZE.
#include <cuda_runtime.h>
#include <cstdint>

#define LOG_BANKS 5
#define BANK_PAD(i) ((i) >> LOG_BANKS)                                            // quiet: W64-LANE-MATH, W64-WARP-COUNT
#define ROW_ALL_ON 0xffffffffu                                                    // quiet: W64-MASK32

// Sliding-window causal mask, one bit per (query, key): one thread per key.
__global__ void windowMaskAtomic(int L, int window, uint32_t* __restrict__ bits) {
  const int q = blockIdx.y;
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= L) return;
  const int wordsPerRow = (L + 31) / 32;
  if (k <= q && q - k < window)
    atomicOr(&bits[static_cast<size_t>(q) * wordsPerRow + k / 32], 1u << (k % 32));   // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
}

// The same mask with one vote per 32 keys: the word is the warp's ballot.
__global__ void windowMaskBallot(int L, int window, uint32_t* __restrict__ bits) {
  const int q = blockIdx.y;
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int wordsPerRow = (L + 31) / 32;
  const unsigned word = __ballot_sync(0xffffffffu, k < L && k <= q && q - k < window);   // expect: W64-MASK32, W64-BALLOT-NARROW
  if ((threadIdx.x & 31) == 0 && k < L) bits[static_cast<size_t>(q) * wordsPerRow + (k >> 5)] = word;   // expect: W64-LANE-MATH
}

// Global tokens attend everywhere: every word of their rows is set.
__global__ void fillGlobalRows(uint32_t* __restrict__ bits, const int* __restrict__ globalRows,
                               int wordsPerRow) {
  const int g = blockIdx.y;
  for (int w = blockIdx.x * blockDim.x + threadIdx.x; w < wordsPerRow; w += gridDim.x * blockDim.x)
    bits[static_cast<size_t>(globalRows[g]) * wordsPerRow + w] = ROW_ALL_ON;
}

// 2:4 structured pruning: each thread keeps the two largest magnitudes of a group of
// four weights and sets their bits in a keep bitmap (bit e of word e / 32).
__global__ void prune24(const float* __restrict__ w, int n, float* __restrict__ out,
                        uint32_t* __restrict__ keepBits) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (4 * g + 3 >= n) return;
  float v[4];
  for (int j = 0; j < 4; ++j) v[j] = w[4 * g + j];
  int first = 0;
  for (int j = 1; j < 4; ++j) if (fabsf(v[j]) > fabsf(v[first])) first = j;
  int second = first == 0 ? 1 : 0;
  for (int j = 0; j < 4; ++j) if (j != first && fabsf(v[j]) > fabsf(v[second])) second = j;
  for (int j = 0; j < 4; ++j) {
    const int e = 4 * g + j;
    const bool keep = j == first || j == second;
    out[e] = keep ? v[j] : 0.f;
    if (keep) {
      const unsigned word = static_cast<unsigned>(e) >> 5, bit = e & 31;           // quiet: W64-LANE-MATH
      atomicOr(&keepBits[word], 1u << bit);                                       // quiet: W64-BALLOT-NARROW
    }
  }
}

// Set bits per mask row for rows of exactly 32 words (1024 keys): one thread per word;
// the row's first thread adds up its 32 words. No warp-level work here.
__global__ void maskRowNnz(const uint32_t* __restrict__ bits, int words, int* __restrict__ rowNnz) {
  __shared__ int cnt[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  cnt[threadIdx.x] = i < words ? __popc(bits[i]) : 0;                             // quiet: W64-BALLOT-NARROW
  __syncthreads();
  if ((threadIdx.x & 31) == 0 && i < words) {                                     // note: W64-LANE-MATH
    int s = 0;
    for (int j = 0; j < 32; ++j) s += cnt[threadIdx.x + j];
    rowNnz[i >> 5] = s;                                                           // note: W64-LANE-MATH
  }
}

// Transpose of 32 x 32 bit blocks through a shared bit tile: 1024 flat threads per
// block, thread t moves bit (r, c) of the block.
__global__ void bitTransposeShared(const uint32_t* __restrict__ in, uint32_t* __restrict__ out) {
  __shared__ uint8_t tile[32][33];
  const uint32_t* blk = in + static_cast<size_t>(blockIdx.x) * 32;
  const int t = threadIdx.x;
  const int r = t / 32, c = t % 32;                                               // quiet: W64-LANE-MATH
  tile[r][c] = static_cast<uint8_t>((blk[r] >> c) & 1u);
  __syncthreads();
  if (t < 32) {
    uint32_t w = 0;
    for (int k = 0; k < 32; ++k) w |= static_cast<uint32_t>(tile[k][t]) << k;
    out[static_cast<size_t>(blockIdx.x) * 32 + t] = w;                            // quiet: W64-LANE-MATH
  }
}

// The same transpose with votes: one warp per 32 x 32 block, lane = row.
__global__ void bitTransposeVote(const uint32_t* __restrict__ in, int blocks, uint32_t* __restrict__ out) {
  const int lane = threadIdx.x & 31;                                              // expect: W64-LANE-MATH
  const int blk = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);            // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (blk >= blocks) return;
  const uint32_t row = in[blk * 32 + lane];                                       // expect: W64-LANE-MATH
  uint32_t mine = 0;
  for (int c = 0; c < 32; ++c) {
    const unsigned colBits = __ballot_sync(0xffffffffu, (row >> c) & 1u);         // expect: W64-MASK32, W64-BALLOT-NARROW
    if (lane == c) mine = colBits;
  }
  out[blk * 32 + lane] = mine;                                                    // expect: W64-LANE-MATH
}

// Exclusive scan of per-word keep counts inside one block (Blelloch), 2 * blockDim.x
// words, shared memory padded against bank conflicts.
__global__ void keepScanBlock(const uint32_t* __restrict__ keepBits, int words, int* __restrict__ offs) {
  extern __shared__ int s[];
  const int t = threadIdx.x;
  const int m = 2 * blockDim.x;
  const int ai = t, bi = t + blockDim.x;
  s[ai + BANK_PAD(ai)] = ai < words ? __popc(keepBits[ai]) : 0;                   // quiet: W64-LANE-MATH, W64-WARP-COUNT, W64-BALLOT-NARROW
  s[bi + BANK_PAD(bi)] = bi < words ? __popc(keepBits[bi]) : 0;                   // quiet: W64-LANE-MATH, W64-WARP-COUNT, W64-BALLOT-NARROW
  int off = 1;
  for (int d = m >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int x = off * (2 * t + 1) - 1, y = off * (2 * t + 2) - 1;
      x += BANK_PAD(x); y += BANK_PAD(y);                                         // quiet: W64-LANE-MATH, W64-WARP-COUNT
      s[y] += s[x];
    }
    off <<= 1;
  }
  if (t == 0) s[m - 1 + BANK_PAD(m - 1)] = 0;                                     // quiet: W64-WARP-COUNT
  for (int d = 1; d < m; d <<= 1) {
    off >>= 1;
    __syncthreads();
    if (t < d) {
      int x = off * (2 * t + 1) - 1, y = off * (2 * t + 2) - 1;
      x += BANK_PAD(x); y += BANK_PAD(y);
      const int tmp = s[x]; s[x] = s[y]; s[y] += tmp;
    }
  }
  __syncthreads();
  if (ai < words) offs[ai] = s[ai + BANK_PAD(ai)];
  if (bi < words) offs[bi] = s[bi + BANK_PAD(bi)];
}

// Masked attention scores for one 32 x 32 tile per block (threads 32 x 8, four rows
// each); tiles are stored in rows of 32, tileBits holds one word per tile row.
__global__ void applyTileMask(float* __restrict__ scoreTiles, const uint32_t* __restrict__ tileBits,
                              float fill) {
  const int c = threadIdx.x, r0 = threadIdx.y;
  float* tile = scoreTiles + static_cast<size_t>(blockIdx.x) * 1024;
  const uint32_t* rowBits = tileBits + static_cast<size_t>(blockIdx.x) * 32;
  for (int r = r0; r < 32; r += 8)
    if (!((rowBits[r] >> (c & 31)) & 1u)) tile[(r << 5) + (c & 31)] = fill;       // quiet: W64-LANE-MATH
}

// Row densities modulo 32 for a load-balancing heuristic, and a count of sampled blocks.
__global__ void densityBuckets(const int* __restrict__ rowNnz, int rows, int* __restrict__ bucketCount) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) atomicAdd(&bucketCount[rowNnz[i] % 32], 1);                       // quiet: W64-LANE-MATH
  if (threadIdx.x == 0 && blockIdx.x % 32 == 0) atomicAdd(&bucketCount[32], 1);   // quiet: W64-LANE-MATH
}

void buildAttentionMasks(int L, int window, const int* dGlobalRows, int numGlobal, uint32_t* dBits,
                         int* dRowNnz, int* dBuckets, uint32_t* dTransposed, cudaStream_t st) {
  const int wordsPerRow = (L + 31) / 32;
  windowMaskBallot<<<dim3((L + 255) / 256, L), 256, 0, st>>>(L, window, dBits);
  if (numGlobal > 0) fillGlobalRows<<<dim3(1, numGlobal), 128, 0, st>>>(dBits, dGlobalRows, wordsPerRow);
  if (wordsPerRow == 32) {
    maskRowNnz<<<(L * wordsPerRow + 255) / 256, 256, 0, st>>>(dBits, L * wordsPerRow, dRowNnz);
    densityBuckets<<<(L + 255) / 256, 256, 0, st>>>(dRowNnz, L, dBuckets);
  }
  const int bitBlocks = L * wordsPerRow / 32;                                     // quiet: W64-WARP-COUNT
  bitTransposeShared<<<bitBlocks, 1024, 0, st>>>(dBits, dTransposed);
}

void pruneAndScan(const float* dW, int n, float* dOut, uint32_t* dKeep, int* dOffs, cudaStream_t st) {
  const int words = (n + 31) / 32;
  cudaMemsetAsync(dKeep, 0, words * sizeof(uint32_t), st);
  prune24<<<(n / 4 + 255) / 256, 256, 0, st>>>(dW, n, dOut, dKeep);
  const int threads = 512;
  const int m = 2 * threads;
  keepScanBlock<<<1, threads, (m + m / 32) * sizeof(int), st>>>(dKeep, words, dOffs);   // quiet: W64-WARP-COUNT, W64-BLOCK-SIZE
}
