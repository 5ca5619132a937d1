// Held out, round 8. Cause 4: a thread index used as data (hard negatives),
// with a few real hazards mixed in.
// Ambiguous calls (labelled as a demanding GPU engineer would expect):
// - bitOf() is a shared helper (as from a bitset header) that markInRange and
//   clearStale call with their thread indices: `idx / 32u` and `1u << (idx %
//   32u)` are the word and bit of a bitmap; no function on that path makes a
//   warp call (quiet).
// - rowDegrees: `__popc` of an adjacency word read from memory, not of a lane
//   mask (quiet).
// - boxFilterTile splits a flat block of 256 threads into a 32 x 8 tile,
//   `threadIdx.x & 31` the column and `threadIdx.x >> 5` the row of padded
//   rows (`(ty + dy) * kPitch + tx + dx`); no warp call (quiet both).
// - prefixSumPadded: `i + (i >> 5)` is bank-conflict padding (quiet).
// - bitTransposeShared: a 32-word shared tile and `threadIdx.x & 31` as a bit
//   position in it, no warp call (quiet). Its ballot twin
//   bitTransposeBallot is the hazard: the lane by 32 selects the row a
//   ballot of 64 lanes collects, and the ballot is kept in 32 bits (expect).
// - buildValidity builds a null bitmap with a ballot: the 32-bit word and the
//   word index `i / 32` / leader `(i & 31) == 0` are warp math there (expect).
// Convention pass (round 8): no labels were added or changed. The file has
// no named warp-size constant or mask, and its ballots take __activemask()
// as the mask (quiet by W64-MASK32's rules).
#include <cuda_runtime.h>
#include <cstdint>

struct BitRef {
  uint32_t* word;
  uint32_t bit;
};

__device__ __forceinline__ BitRef bitOf(uint32_t* base, unsigned idx) { return {base + idx / 32u, 1u << (idx % 32u)}; }   // quiet: W64-LANE-MATH

// Mark the elements whose value lies in [lo, hi).
__global__ void markInRange(const float* __restrict__ v, uint32_t* __restrict__ bits, float lo, float hi, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    if (v[i] >= lo && v[i] < hi) {
      const BitRef r = bitOf(bits, i);
      atomicOr(r.word, r.bit);
    }
}

// Clear the marks of entries whose timestamp is older than `now - ttl`.
__global__ void clearStale(const int* __restrict__ stamp, uint32_t* __restrict__ bits, int now, int ttl, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && stamp[i] < now - ttl) {
    const BitRef r = bitOf(bits, i);
    atomicAnd(r.word, ~r.bit);
  }
}

// Degree of every vertex from a bit-packed adjacency matrix.
__global__ void rowDegrees(const uint32_t* __restrict__ adj, int* __restrict__ deg, int wordsPerRow, int nRows) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= nRows) return;
  int d = 0;
  for (int w = 0; w < wordsPerRow; ++w) d += __popc(adj[static_cast<size_t>(r) * wordsPerRow + w]);   // quiet: W64-BALLOT-NARROW
  deg[r] = d;
}

// 5 x 5 box filter on 32 x 8 output tiles, a flat block of 256 threads.
constexpr int kR = 2;
constexpr int kPitch = 32 + 2 * kR;
__global__ void boxFilterTile(const float* __restrict__ img, float* __restrict__ dst, int w, int h) {
  __shared__ float halo[(8 + 2 * kR) * kPitch];
  const int tx = threadIdx.x & 31;                                       // quiet: W64-LANE-MATH
  const int ty = threadIdx.x >> 5;                                       // quiet: W64-LANE-MATH
  const int gx0 = blockIdx.x * 32 - kR, gy0 = blockIdx.y * 8 - kR;
  for (int k = threadIdx.x; k < (8 + 2 * kR) * kPitch; k += blockDim.x) {
    const int gx = min(max(gx0 + k % kPitch, 0), w - 1);
    const int gy = min(max(gy0 + k / kPitch, 0), h - 1);
    halo[k] = img[static_cast<size_t>(gy) * w + gx];
  }
  __syncthreads();
  float acc = 0.f;
  for (int dy = 0; dy <= 2 * kR; ++dy)
    for (int dx = 0; dx <= 2 * kR; ++dx) acc += halo[(ty + dy) * kPitch + tx + dx];
  const int ox = blockIdx.x * 32 + tx, oy = blockIdx.y * 8 + ty;
  if (ox < w && oy < h) dst[static_cast<size_t>(oy) * w + ox] = acc / ((2 * kR + 1) * (2 * kR + 1));
}

// Work-efficient exclusive scan of 2 * blockDim.x elements, padded against
// bank conflicts.
__device__ __forceinline__ int skew(int i) { return i + (i >> 5); }    // quiet: W64-LANE-MATH

__global__ void prefixSumPadded(const float* __restrict__ in, float* __restrict__ out, int n) {
  extern __shared__ float s[];
  const int t = threadIdx.x, m = 2 * blockDim.x;
  const int ai = t, bi = t + blockDim.x;
  s[skew(ai)] = ai < n ? in[ai] : 0.f;
  s[skew(bi)] = bi < n ? in[bi] : 0.f;
  int off = 1;
  for (int d = m >> 1; d > 0; d >>= 1, off <<= 1) {
    __syncthreads();
    if (t < d) {
      const int a = off * (2 * t + 1) - 1, b = off * (2 * t + 2) - 1;
      s[skew(b)] += s[skew(a)];
    }
  }
  if (t == 0) s[skew(m - 1)] = 0.f;
  for (int d = 1; d < m; d <<= 1) {
    off >>= 1;
    __syncthreads();
    if (t < d) {
      const int a = off * (2 * t + 1) - 1, b = off * (2 * t + 2) - 1;
      const float keep = s[skew(a)];
      s[skew(a)] = s[skew(b)];
      s[skew(b)] += keep;
    }
  }
  __syncthreads();
  if (ai < n) out[ai] = s[skew(ai)];
  if (bi < n) out[bi] = s[skew(bi)];
}

// 32 x 32 bit-matrix transpose through shared memory; blocks of 32 threads.
__global__ void bitTransposeShared(const uint32_t* __restrict__ in, uint32_t* __restrict__ out) {
  __shared__ uint32_t plane[32];                                         // quiet: W64-WARP-COUNT
  plane[threadIdx.x] = in[blockIdx.x * 32 + threadIdx.x];
  __syncthreads();
  const unsigned col = threadIdx.x & 31;                                 // quiet: W64-LANE-MATH
  uint32_t t = 0;
  for (int r = 0; r < 32; ++r) t |= ((plane[r] >> col) & 1u) << r;
  out[blockIdx.x * 32 + threadIdx.x] = t;
}

// The same transpose with ballots: lane b keeps column b.
__global__ void bitTransposeBallot(const uint32_t* __restrict__ in, uint32_t* __restrict__ out) {
  const int lane = threadIdx.x & 31;                                     // expect: W64-LANE-MATH
  const uint32_t row = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int b = 0; b < 32; ++b) {
    const uint32_t column = __ballot_sync(__activemask(), (row >> b) & 1u);   // expect: W64-BALLOT-NARROW
    if (lane == b) out[blockIdx.x * blockDim.x + threadIdx.x] = column;
  }
}

// Validity (null) bitmap of a float column, one 32-bit word per warp.
__global__ void buildValidity(const float* __restrict__ v, uint32_t* __restrict__ validity, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned word = __ballot_sync(__activemask(), i < n && !isnan(v[i]));   // expect: W64-BALLOT-NARROW
  if ((i & 31) == 0 && i < n) validity[i / 32] = word;                   // expect: W64-LANE-MATH
}
