// Held out, round 6. Cause 4: a thread index used as data (hard negatives).
// Stream compaction over a bit-packed flag array, a per-thread string match
// over 32-byte records and a 32x32 box-blur tile; one kernel with warp-level
// work written for any width sits in the same unit.
// Ambiguous calls (labelled as a demanding GPU engineer would expect):
// - `__popc` of a bitmap word (data, not a ballot) is quiet for
//   W64-BALLOT-NARROW, also in the kernel that shuffles (countWords).
// - scatter's `(1u << (i & 31)) - 1` prefix of a bitmap word is a bit
//   position of data in a function without warp calls: quiet for both
//   W64-LANE-MATH and W64-BALLOT-NARROW.
// - blurTile's `for (tx = threadIdx.x; tx < 32 + 2; tx += 32)` steps over the
//   columns of a tile 32 wide (the block's x extent) in a kernel without any
//   warp-level work: a tile dimension, quiet, though it is spelled like a lane
//   stride.
#include <cuda_runtime.h>

// One flag per element, packed 32 to a word.
__global__ void packFlags(const int *val, unsigned *words, int n, int threshold) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && val[i] > threshold) atomicOr(&words[i >> 5], 1u << (i & 31)); // quiet: W64-LANE-MATH
}

// Set bits per word, summed per block, the block partials then scanned on the
// host; shuffles span warpSize lanes.
__global__ void countWords(const unsigned *words, int nWords, unsigned *blockCount) {
  __shared__ unsigned perWarp[64];
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned c = w < nWords ? __popc(words[w]) : 0u;                     // quiet: W64-BALLOT-NARROW
  for (int o = warpSize / 2; o > 0; o /= 2) c += __shfl_down_sync(0xffffffff, c, o); // expect: W64-MASK32
  if (threadIdx.x % warpSize == 0) perWarp[threadIdx.x / warpSize] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned s = 0;
    for (int k = 0; k < blockDim.x / warpSize; ++k) s += perWarp[k];
    blockCount[blockIdx.x] = s;
  }
}

// Scatter: an element's output slot is its word's offset plus the set bits
// below it in that word.
__global__ void scatter(const int *val, const unsigned *words, const unsigned *wordOffset,
                        int *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned word = words[i / 32];                                 // quiet: W64-LANE-MATH
  if ((word >> (i % 32)) & 1u)                                         // quiet: W64-LANE-MATH
    out[wordOffset[i / 32] + __popc(word & ((1u << (i & 31)) - 1))] = val[i]; // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
}

// Each thread compares one fixed 32-byte record with the pattern.
__global__ void matchRecords(const char *records, const char *pattern, int *hit, int nRecords) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= nRecords) return;
  const char *rec = records + r * 32;                                  // quiet: W64-LANE-MATH
  int same = 1;
  for (int k = 0; k < 32; ++k) same &= rec[k] == pattern[k];
  hit[r] = same;
}

// 3x3 box blur through a 32x32 tile with a one-element halo (block 32 x 8).
__global__ void blurTile(const float *in, float *out, int w, int h) {
  __shared__ float tile[32 + 2][32 + 2];                               // quiet: W64-WARP-COUNT
  const int gx = blockIdx.x * 32 + threadIdx.x;                        // quiet: W64-LANE-MATH
  for (int ty = threadIdx.y; ty < 32 + 2; ty += blockDim.y)
    for (int tx = threadIdx.x; tx < 32 + 2; tx += 32) {                // quiet: W64-LANE-MATH
      const int x = min(max(blockIdx.x * 32 + tx - 1, 0), w - 1);
      const int y = min(max(blockIdx.y * 32 + ty - 1, 0), h - 1);
      tile[ty][tx] = in[y * w + x];
    }
  __syncthreads();
  for (int ty = threadIdx.y; ty < 32; ty += blockDim.y) {
    const int gy = blockIdx.y * 32 + ty;
    if (gx >= w || gy >= h) continue;
    float s = 0.f;
    for (int dy = 0; dy < 3; ++dy)
      for (int dx = 0; dx < 3; ++dx) s += tile[ty + dy][threadIdx.x + dx];
    out[gy * w + gx] = s * (1.f / 9.f);
  }
}
