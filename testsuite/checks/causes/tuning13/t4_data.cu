// Tuning round 13. Cause 4: a thread index used as data (hard negatives).
// Domains: sparse attention masks as bitmaps (sliding window, global tokens,
// applying the mask to scores), bit-unpacking of fixed-width Huffman/RLE
// codes and RLE runs expanded into an occupancy bitmap, sort-based dedup (the
// one kernel here that works as a warp), 2D FFT transpose through a padded
// flat tile, prefix-sum stream compaction with conflict-free shared offsets.
// Every kernel but markUniqueSorted does no warp-level work: its 32s address
// bits of 32-bit words, rows of 32 and shared-memory banks.
// Ambiguous calls (labelled from the check pages only, never run):
// - buildGlobalTokenMask's `word * 32 + b` (one thread per mask word, b the
//   bit) is the first bit of a bitmap word, the same address as `w[i / 32]`
//   and `1u << (i % 32)` read the other way: quiet.
// - unpackCodes takes the word and bit of a 64-bit bit position through
//   casts (`static_cast<uint32_t>(bitPos >> 5)`, `bitPos & 31`): quiet.
// - maskGroupPopcount numbers 32-thread groups that never act as a warp
//   (`cnt[threadIdx.x >> 5]`, `(threadIdx.x & 31) == 0`, one output per
//   group): the pages make that lane math a note (labelled note:), unlike
//   the bit addressing, which they call data.
// - __popc on a mask word loaded from memory is no ballot: quiet.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

#define LOG_NUM_BANKS 5                                                                  // quiet: W64-LANE-MATH
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)
constexpr int kScanThreads = 256;

// Sliding-window attention mask: bit k of row q is set when q may attend to k.
__global__ void buildSlidingWindowMask(unsigned* __restrict__ mask, int seq, int window, int wordsPerRow) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int q = blockIdx.y;
  if (k >= seq) return;
  if (k <= q && q - k < window)
    atomicOr(&mask[static_cast<size_t>(q) * wordsPerRow + k / 32], 1u << (k % 32));   // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
}

// Global tokens attend everywhere and are attended by everyone: one thread
// builds one 32-bit word of the row.
__global__ void buildGlobalTokenMask(unsigned* __restrict__ mask, const uint8_t* __restrict__ isGlobal, int seq,
                                     int wordsPerRow) {
  const int word = blockIdx.x * blockDim.x + threadIdx.x;
  const int q = blockIdx.y;
  if (word >= wordsPerRow) return;
  unsigned bits = 0;
  for (int b = 0; b < 32; ++b) {
    const int k = word * 32 + b;                                                        // quiet: W64-LANE-MATH
    if (k < seq && (isGlobal[k] || isGlobal[q])) bits |= 1u << b;                       // quiet: W64-BALLOT-NARROW
  }
  mask[static_cast<size_t>(q) * wordsPerRow + word] |= bits;
}

// Masked scores: -inf where the bitmap has no bit.
__global__ void applyMask(const unsigned* __restrict__ mask, float* __restrict__ scores, int seq, int wordsPerRow) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int q = blockIdx.y;
  if (k >= seq) return;
  const unsigned on = (mask[static_cast<size_t>(q) * wordsPerRow + (k >> 5)] >> (k & 31)) & 1u;   // quiet: W64-LANE-MATH
  if (!on) scores[static_cast<size_t>(q) * seq + k] = -INFINITY;
}

// Fixed-width codes packed into 32-bit words, one symbol per thread.
__global__ void unpackCodes(const uint32_t* __restrict__ packed, int nSym, int bits, uint16_t* __restrict__ out) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= nSym) return;
  const uint64_t bitPos = static_cast<uint64_t>(s) * bits;
  const uint32_t word = static_cast<uint32_t>(bitPos >> 5), shift = static_cast<uint32_t>(bitPos & 31);   // quiet: W64-LANE-MATH
  const uint64_t window = packed[word] | (static_cast<uint64_t>(packed[word + 1]) << 32);
  out[s] = static_cast<uint16_t>((window >> shift) & ((1u << bits) - 1u));
}

// RLE runs of occupied cells, one run per thread, set in an occupancy bitmap;
// the runs are spread over 32 sub-bitmaps by the block to cut contention.
__global__ void expandRuns(const int* __restrict__ runStart, const int* __restrict__ runLen, int nRuns,
                           unsigned* __restrict__ occ, int wordsPerStripe) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  const int stripe = blockIdx.x % 32;                                                    // quiet: W64-LANE-MATH
  if (r >= nRuns) return;
  unsigned* bm = occ + static_cast<size_t>(stripe) * wordsPerStripe;
  const int p0 = runStart[r];
  for (int p = p0; p < p0 + runLen[r]; ++p) atomicOr(&bm[p >> 5], 1u << (p & 31));     // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
}

// Sort-based dedup: after sorting, a key is kept when it differs from its
// predecessor; each warp compacts its heads with a ballot.
__global__ void markUniqueSorted(const unsigned long long* __restrict__ keys, int n, int* __restrict__ outIdx,
                                 int* __restrict__ outCount) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;                                                     // expect: W64-LANE-MATH
  const bool head = i < n && (i == 0 || keys[i] != keys[i - 1]);
  const unsigned heads = __ballot_sync(0xffffffffu, head);                               // expect: W64-BALLOT-NARROW, W64-MASK32
  const int before = __popc(heads & ((1u << lane) - 1u));                                // expect: W64-BALLOT-NARROW
  int base = 0;
  if (lane == 0) base = atomicAdd(outCount, __popc(heads));                              // expect: W64-BALLOT-NARROW
  base = __shfl_sync(0xffffffffu, base, 0);                                              // expect: W64-MASK32
  if (head) outIdx[base + before] = i;
}

// Hash buckets of the unique keys: 32 sub-tables chosen by the key's hash.
__global__ void bucketUnique(const unsigned long long* __restrict__ keys, const int* __restrict__ idx, int nUnique,
                             int* __restrict__ subCount) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nUnique) return;
  const unsigned long long k = keys[idx[t]];
  const unsigned h = static_cast<unsigned>(k ^ (k >> 29)) * 0x9E3779B1u;
  const unsigned sub = (h >> 7) % 32;                                                    // quiet: W64-LANE-MATH
  atomicAdd(&subCount[sub], 1);
}

// 2D FFT: 32 x 32 complex tiles through a flat padded tile, 256 threads.
__global__ void fftTranspose32(const float2* __restrict__ in, float2* __restrict__ out, int n) {
  __shared__ float2 tile[32 * 33];                                                       // quiet: W64-WARP-COUNT
  const int t = threadIdx.x;
  const int r = t / 32, c = t % 32;                                                      // quiet: W64-LANE-MATH
  const int bx = blockIdx.x * 32, by = blockIdx.y * 32;
  for (int j = 0; j < 32; j += 8) tile[(r + j) * 33 + c] = in[static_cast<size_t>(by + r + j) * n + bx + c];   // quiet: W64-LANE-MATH
  __syncthreads();
  for (int j = 0; j < 32; j += 8) out[static_cast<size_t>(bx + r + j) * n + by + c] = tile[c * 33 + r + j];    // quiet: W64-LANE-MATH
}

// Stream compaction, step 1: Blelloch scan of keep-flags over 512 elements
// per block, shared offsets padded against bank conflicts.
__global__ void __launch_bounds__(kScanThreads)
blockScanFlags(const int* __restrict__ flags, int* __restrict__ offs, int* __restrict__ blockSums, int n) {
  __shared__ int temp[2 * kScanThreads + (2 * kScanThreads >> LOG_NUM_BANKS)];
  const int t = threadIdx.x, base = blockIdx.x * 2 * kScanThreads;
  const int ai = t, bi = t + kScanThreads;
  temp[ai + CONFLICT_FREE_OFFSET(ai)] = base + ai < n ? flags[base + ai] : 0;            // quiet: W64-LANE-MATH, W64-WARP-COUNT
  temp[bi + CONFLICT_FREE_OFFSET(bi)] = base + bi < n ? flags[base + bi] : 0;            // quiet: W64-LANE-MATH, W64-WARP-COUNT
  int offset = 1;
  for (int d = kScanThreads; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int x = offset * (2 * t + 1) - 1, y = offset * (2 * t + 2) - 1;
      x += CONFLICT_FREE_OFFSET(x);
      y += CONFLICT_FREE_OFFSET(y);
      temp[y] += temp[x];
    }
    offset <<= 1;
  }
  if (t == 0) {
    const int last = 2 * kScanThreads - 1 + CONFLICT_FREE_OFFSET(2 * kScanThreads - 1);
    blockSums[blockIdx.x] = temp[last];
    temp[last] = 0;
  }
  for (int d = 1; d < 2 * kScanThreads; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int x = offset * (2 * t + 1) - 1, y = offset * (2 * t + 2) - 1;
      x += CONFLICT_FREE_OFFSET(x);
      y += CONFLICT_FREE_OFFSET(y);
      const int v = temp[x];
      temp[x] = temp[y];
      temp[y] += v;
    }
  }
  __syncthreads();
  if (base + ai < n) offs[base + ai] = temp[ai + CONFLICT_FREE_OFFSET(ai)];              // quiet: W64-LANE-MATH, W64-WARP-COUNT
  if (base + bi < n) offs[base + bi] = temp[bi + CONFLICT_FREE_OFFSET(bi)];              // quiet: W64-LANE-MATH, W64-WARP-COUNT
}

// Nonzeros of the mask per 32 words: 32-thread groups that add into a shared
// counter and write one value per group; nothing here acts as a warp.
__global__ void maskGroupPopcount(const unsigned* __restrict__ mask, int nWords, int* __restrict__ groupNnz) {
  __shared__ int cnt[8];  // 256 threads: eight groups
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 8) cnt[threadIdx.x] = 0;
  __syncthreads();
  if (w < nWords) atomicAdd(&cnt[threadIdx.x >> 5], __popc(mask[w]));                   // note: W64-LANE-MATH // quiet: W64-BALLOT-NARROW
  __syncthreads();
  if ((threadIdx.x & 31) == 0 && w < nWords) groupNnz[w >> 5] = cnt[threadIdx.x >> 5];   // note: W64-LANE-MATH
}

int main() {
  const int seq = 4096, wordsPerRow = seq / 32, n = 1 << 22, nfft = 1024, nRuns = 1 << 16;
  unsigned *mask, *occ;
  uint8_t* isGlobal;
  float* scores;
  uint32_t* packed;
  uint16_t* syms;
  unsigned long long* keys;
  int *runStart, *runLen, *outIdx, *outCount, *subCount, *flags, *offs, *blockSums, *groupNnz;
  float2 *spec, *specT;
  cudaMalloc(&mask, sizeof(unsigned) * seq * wordsPerRow);
  cudaMalloc(&isGlobal, seq);
  cudaMalloc(&scores, sizeof(float) * seq * seq);
  cudaMalloc(&packed, sizeof(uint32_t) * (n / 2 + 2));
  cudaMalloc(&syms, sizeof(uint16_t) * n);
  cudaMalloc(&keys, sizeof(unsigned long long) * n);
  cudaMalloc(&runStart, sizeof(int) * nRuns);
  cudaMalloc(&runLen, sizeof(int) * nRuns);
  cudaMalloc(&occ, sizeof(unsigned) * 32 * (n / 32));
  cudaMalloc(&outIdx, sizeof(int) * n);
  cudaMalloc(&outCount, sizeof(int));
  cudaMalloc(&subCount, sizeof(int) * 32);
  cudaMalloc(&flags, sizeof(int) * n);
  cudaMalloc(&offs, sizeof(int) * n);
  cudaMalloc(&blockSums, sizeof(int) * (n / 512 + 1));
  cudaMalloc(&groupNnz, sizeof(int) * (seq * wordsPerRow / 32 + 1));                     // quiet: W64-WARP-COUNT
  cudaMalloc(&spec, sizeof(float2) * nfft * nfft);
  cudaMalloc(&specT, sizeof(float2) * nfft * nfft);

  cudaMemset(mask, 0, sizeof(unsigned) * seq * wordsPerRow);
  buildSlidingWindowMask<<<dim3(seq / 256, seq), 256>>>(mask, seq, 256, wordsPerRow);
  buildGlobalTokenMask<<<dim3(1, seq), 128>>>(mask, isGlobal, seq, wordsPerRow);
  applyMask<<<dim3(seq / 256, seq), 256>>>(mask, scores, seq, wordsPerRow);
  unpackCodes<<<n / 256, 256>>>(packed, n, 12, syms);
  expandRuns<<<nRuns / 256, 256>>>(runStart, runLen, nRuns, occ, n / 32);
  markUniqueSorted<<<n / 256, 256>>>(keys, n, outIdx, outCount);
  bucketUnique<<<n / 256, 256>>>(keys, outIdx, n / 2, subCount);
  fftTranspose32<<<dim3(nfft / 32, nfft / 32), 256>>>(spec, specT, nfft);                 // quiet: W64-BLOCK-SIZE
  blockScanFlags<<<(n + 511) / 512, kScanThreads>>>(flags, offs, blockSums, n);
  maskGroupPopcount<<<seq * wordsPerRow / kScanThreads, kScanThreads>>>(mask, seq * wordsPerRow, groupNnz);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(err));
  cudaFree(mask); cudaFree(occ); cudaFree(isGlobal); cudaFree(scores); cudaFree(packed); cudaFree(syms);
  cudaFree(keys); cudaFree(runStart); cudaFree(runLen); cudaFree(outIdx); cudaFree(outCount); cudaFree(subCount);
  cudaFree(flags); cudaFree(offs); cudaFree(blockSums); cudaFree(groupNnz); cudaFree(spec); cudaFree(specT);
  return 0;
}
