// Tuning round 10. Cause 4: a thread index used as data (mostly hard
// negatives), with a few real hazards.
// Binarised-weight unpacking, bit-parallel string matching, a 3-tap image
// filter on a 32-column tile, a bank-padded Blelloch scan, grouped partial
// sums, a Bloom-filter query packed with a ballot and a 32-wide dense layer
// evaluated inside a warp.
// Ambiguous calls (labelled by the check pages):
// - unpackSigns (size_t index, while loop), shiftAndMatch (unsigned position,
//   word and bit on one line) and bloomQueryPacked's probes make no use of
//   lanes: bitmap words and bits (quiet). In bloomQueryPacked the probe
//   positions are hashes of loaded keys, not thread indices, although the
//   kernel takes a ballot (quiet).
// - conv3Tile splits the flat thread index into the row and column of a
//   32-column tile, `threadIdx.x >> 5` / `threadIdx.x & 31`, used as
//   tile[r][c + 1] (quiet).
// - blellochTile pads its shared indices with PADDED(n) = n + (n >> LOG_BANKS)
//   (bank padding, quiet).
// - groupRowSums: groups of 32 threads that never act as a warp (a shared
//   tree and barriers only, a leader at `(t & 31) == 0` writing slot
//   `t >> 5`): right at 64 lanes, so notes (LANE-MATH), and the per-group
//   __shared__ array of 32 is a per-warp array (a note by the WARP-COUNT
//   page).
// - groupIndex has no caller in this file: its `tid >> 5` keeps the warning.
// - bloomQueryPacked's packing of the ballot into 32-bit words, and
//   denseLayer32's broadcast loop over 32 lanes and its `k * 32 + lane` weight
//   index, are warp work: real hazards (expect).
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

// ---------------------------------------------------------------------------
// 1-bit weights of a binarised layer expanded to +-1.
__global__ void unpackSigns(const uint32_t* __restrict__ packed, float* __restrict__ w, size_t n) {
  size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  while (i < n) {
    const uint32_t word = packed[i / 32];                                   // quiet: W64-LANE-MATH
    w[i] = ((word >> (i % 32)) & 1u) ? 1.f : -1.f;                          // quiet: W64-LANE-MATH
    i += stride;
  }
}

// ---------------------------------------------------------------------------
// Shift-And exact matching of a pattern of at most 32 characters; one text
// position per thread, matches recorded in a bitmap.
__global__ void shiftAndMatch(const char* __restrict__ text, unsigned n,
                              const uint32_t* __restrict__ charMask, unsigned m,
                              uint32_t* __restrict__ hits) {
  const unsigned pos = blockIdx.x * blockDim.x + threadIdx.x;
  if (pos + m > n) return;
  uint32_t d = 0;
  for (unsigned k = 0; k < m; ++k)
    d = ((d << 1) | 1u) & charMask[static_cast<unsigned char>(text[pos + k])];
  if (d & (1u << (m - 1))) atomicOr(&hits[pos >> 5], 1u << (pos & 31u));  // quiet: W64-LANE-MATH
}

// ---------------------------------------------------------------------------
// Horizontal 3-tap filter on 8 x 32 tiles (256 threads), halo columns loaded
// by the first 16 threads.
__device__ __forceinline__ float pixelAt(const float* img, int x, int y, int w, int h) {
  x = x < 0 ? 0 : (x >= w ? w - 1 : x);
  y = y < 0 ? 0 : (y >= h ? h - 1 : y);
  return img[static_cast<size_t>(y) * w + x];
}

__global__ void conv3Tile(const float* __restrict__ img, float* __restrict__ out,
                          float k0, float k1, float k2, int w, int h) {
  __shared__ float tile[8][34];
  const int r = threadIdx.x >> 5;                                           // quiet: W64-LANE-MATH
  const int c = threadIdx.x & 31;                                           // quiet: W64-LANE-MATH
  const int x0 = blockIdx.x * 32, y0 = blockIdx.y * 8;
  tile[r][c + 1] = pixelAt(img, x0 + c, y0 + r, w, h);
  if (threadIdx.x < 16) {
    const int hr = threadIdx.x >> 1, side = threadIdx.x & 1;
    tile[hr][side * 33] = pixelAt(img, side ? x0 + 32 : x0 - 1, y0 + hr, w, h);
  }
  __syncthreads();
  const int x = x0 + c, y = y0 + r;
  if (x < w && y < h)
    out[static_cast<size_t>(y) * w + x] = k0 * tile[r][c] + k1 * tile[r][c + 1] + k2 * tile[r][c + 2];
}

// ---------------------------------------------------------------------------
// Work-efficient exclusive scan of 512-element tiles, 256 threads, with the
// classic conflict-free padding.
#define LOG_BANKS 5
#define PADDED(n) ((n) + ((n) >> LOG_BANKS))

__global__ void blellochTile(const int* __restrict__ in, int* __restrict__ out, int* __restrict__ tileSums) {
  __shared__ int s[PADDED(512)];
  const int t = threadIdx.x;
  const int base = blockIdx.x * 512;
  const int ai = t, bi = t + 256;
  s[PADDED(ai)] = in[base + ai];                                            // quiet: W64-LANE-MATH, W64-WARP-COUNT
  s[PADDED(bi)] = in[base + bi];                                            // quiet: W64-LANE-MATH, W64-WARP-COUNT
  int offset = 1;
  for (int d = 256; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      const int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
      s[PADDED(b)] += s[PADDED(a)];
    }
    offset <<= 1;
  }
  if (t == 0) {
    tileSums[blockIdx.x] = s[PADDED(511)];
    s[PADDED(511)] = 0;
  }
  for (int d = 1; d < 512; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      const int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
      const int tmp = s[PADDED(a)];
      s[PADDED(a)] = s[PADDED(b)];
      s[PADDED(b)] += tmp;
    }
  }
  __syncthreads();
  out[base + ai] = s[PADDED(ai)];
  out[base + bi] = s[PADDED(bi)];
}

// ---------------------------------------------------------------------------
// Sums of rows of 32 values, one group of 32 threads per row (256 threads),
// with a shared-memory tree and block barriers.
__global__ void groupRowSums(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float buf[256];
  __shared__ float groupSums[32];                                           // note: W64-WARP-COUNT
  const int t = threadIdx.x;
  const int gid = blockIdx.x * blockDim.x + t;
  buf[t] = gid < n ? in[gid] : 0.f;
  __syncthreads();
  for (int s = 16; s > 0; s >>= 1) {
    if ((t & 31) < s) buf[t] += buf[t + s];                                 // note: W64-LANE-MATH
    __syncthreads();
  }
  if ((t & 31) == 0) groupSums[t >> 5] = buf[t];                            // note: W64-LANE-MATH
  __syncthreads();
  if (t < 8) out[blockIdx.x * 8 + t] = groupSums[t];
}

// Kept for the multi-row variant (not built in this file).
__device__ __forceinline__ int groupIndex(int tid) { return tid >> 5; }     // expect: W64-LANE-MATH

// ---------------------------------------------------------------------------
// Bloom-filter membership of a batch of keys, results packed into one bit
// per key with a ballot.
__device__ __forceinline__ uint32_t mix32(uint64_t k, uint32_t seed) {
  k ^= k >> 33; k *= 0xff51afd7ed558ccdull; k ^= k >> 33;
  return static_cast<uint32_t>(k) ^ seed;
}

__global__ void bloomQueryPacked(const uint32_t* __restrict__ filter, const uint64_t* __restrict__ keys,
                                 uint32_t* __restrict__ presentBits, int n, uint32_t nBits) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool present = false;
  if (i < n) {
    const uint32_t h1 = mix32(keys[i], 0x9747b28cu) % nBits;
    const uint32_t h2 = mix32(keys[i], 0x85ebca6bu) % nBits;
    present = ((filter[h1 >> 5] >> (h1 & 31)) & 1u) && ((filter[h2 >> 5] >> (h2 & 31)) & 1u);   // quiet: W64-LANE-MATH
  }
  const unsigned word = __ballot_sync(0xffffffffu, present);                // expect: W64-BALLOT-NARROW, W64-MASK32
  if ((i & 31) == 0 && i < n) presentBits[i >> 5] = word;                   // expect: W64-LANE-MATH
}

// ---------------------------------------------------------------------------
// A 32 x 32 dense layer evaluated by one warp: lane j holds input j and
// produces output j.
__global__ void denseLayer32(const float* __restrict__ W, const float* __restrict__ bias,
                             const float* __restrict__ in, float* __restrict__ out) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;                                        // expect: W64-LANE-MATH
  const float xin = in[gid];
  float acc = bias[lane];
  for (int k = 0; k < 32; ++k)                                              // expect: W64-SHFL-OFFSET
    acc += __shfl_sync(0xffffffffu, xin, k) * W[k * 32 + lane];             // expect: W64-MASK32, W64-LANE-MATH
  out[gid] = acc > 0.f ? acc : 0.f;
}
