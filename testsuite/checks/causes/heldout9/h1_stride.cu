// Held out, round 9. Cause 1: lane strides and per-lane splits.
// Domains: Jacobi stencil and halo exchange, int4 weight dequantization (GEMV),
// run-length encoding (run-start compaction), radix select.
// Ambiguous calls (labelled from the check pages, as a demanding GPU engineer
// would expect; the tool was never read or run):
// - FULL_LANES_MASK is an object-like macro holding the full 32-bit mask: its
//   definition and every *_sync call that passes it are W64-MASK32 lines.
// - jacobiRowWarp numbers its lanes by warpSize (quiet) but steps columns by a
//   literal 32 from `1 + lane`: a lane stride that starts at an offset (expect).
// - packHaloFaces: `& 31` and `>> 5` number lanes and faces (warps) by 32 in a
//   kernel that votes (__any_sync), plus the element stride `k += 32`.
// - gemvInt4: the contiguous share `kPerLane = kWords / 32` and its use
//   `lane * kPerLane` are on one line, so either place of the finding fits the
//   label. `32 / 4` nibbles per 32-bit word is a data width (quiet).
// - rleRunStarts: the tile step `base += 32` over `base + lane` (a lane by
//   warpSize) is the stride; labelled on the loop line, the only line with a
//   32. The ballot is kept in unsigned long long and counted with __popcll, with
//   a 64-bit lane bit (quiet).
// - radixSelectWarp: the lane comes from PTX %laneid (W64-INLINE-PTX, an
//   error); the split `kItems / 32` and `j * 32 + lane` share one line.
//   The per-bucket ballot is kept in `unsigned` (W64-BALLOT-NARROW).
// - heatTile: kTileW = 32 steps a halo load over threadIdx.x in a kernel with
//   no warp call, no shuffling caller or callee: a tile size (quiet), and its
//   32 x 8 block is 256 threads (quiet).
#include <cuda_runtime.h>
#include <cstdint>

#define FULL_LANES_MASK 0xffffffffu                                              // expect: W64-MASK32

__device__ __forceinline__ float warpSumXor(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(FULL_LANES_MASK, v, o);   // expect: W64-MASK32 // quiet: W64-SHFL-OFFSET
  return v;
}

// Jacobi sweep of the interior, one warp per row; per-row L1 norm of the update.
__global__ void jacobiRowWarp(const float* __restrict__ u, float* __restrict__ un,
                              float* __restrict__ rowDelta, int nx, int ny) {
  const int lane = threadIdx.x % warpSize;                                      // quiet: W64-LANE-MATH
  const int row = 1 + (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (row >= ny - 1) return;
  const float* up = u + static_cast<size_t>(row - 1) * nx;
  const float* mid = u + static_cast<size_t>(row) * nx;
  const float* dn = u + static_cast<size_t>(row + 1) * nx;
  float delta = 0.f;
  for (int x = 1 + lane; x < nx - 1; x += 32) {                                 // expect: W64-LANE-MATH
    const float v = 0.25f * (up[x] + dn[x] + mid[x - 1] + mid[x + 1]);
    delta += fabsf(v - mid[x]);
    un[static_cast<size_t>(row) * nx + x] = v;
  }
  delta = warpSumXor(delta);
  if (lane == 0) rowDelta[row] = delta;
}

// Halo exchange: pack the west, east, south and north faces of the local
// subdomain into one send buffer; warp w packs face w and flags non-finite data.
__global__ void packHaloFaces(const float* __restrict__ u, float* __restrict__ send,
                              int* __restrict__ badFace, int nx, int ny) {
  const int lane = threadIdx.x & 31;                                            // expect: W64-LANE-MATH
  const int face = threadIdx.x >> 5;                                            // expect: W64-LANE-MATH
  if (face >= 4) return;
  const int len = face < 2 ? ny : nx;
  float* dst = send + (face < 2 ? face * ny : 2 * ny + (face - 2) * nx);
  bool bad = false;
  for (int k = lane; k < len; k += 32) {                                        // expect: W64-LANE-MATH
    const int x = face == 0 ? 1 : face == 1 ? nx - 2 : k;
    const int y = face == 2 ? 1 : face == 3 ? ny - 2 : k;
    const float v = u[static_cast<size_t>(y) * nx + x];
    bad |= !isfinite(v);
    dst[k] = v;
  }
  if (__any_sync(FULL_LANES_MASK, bad) && lane == 0) badFace[face] = 1;         // expect: W64-MASK32
}

constexpr int kNibblesPerWord = 32 / 4;                                         // quiet: W64-LANE-MATH

// y = dequant(W) x for int4 weights (8 nibbles per word, zero point 8, one
// scale per 128 inputs). One warp per output row; each lane owns a contiguous
// run of words of the row.
template <int K>
__global__ void gemvInt4(const uint32_t* __restrict__ wq, const float* __restrict__ scales,
                         const float* __restrict__ x, float* __restrict__ y, int rows) {
  constexpr int kWords = K / kNibblesPerWord;
  const int lane = threadIdx.x % 32;                                            // expect: W64-LANE-MATH
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;            // expect: W64-LANE-MATH, W64-WARP-COUNT
  if (row >= rows) return;
  constexpr int kPerLane = kWords / 32; const int w0 = lane * kPerLane;         // expect: W64-LANE-MATH
  const uint32_t* wr = wq + static_cast<size_t>(row) * kWords + w0;
  float acc = 0.f;
#pragma unroll 4
  for (int j = 0; j < kPerLane; ++j) {
    const uint32_t word = wr[j];
    const int k0 = (w0 + j) * kNibblesPerWord;
    const float s = scales[static_cast<size_t>(row) * (K / 128) + k0 / 128];
#pragma unroll
    for (int n = 0; n < kNibblesPerWord; ++n)
      acc += s * static_cast<float>(static_cast<int>((word >> (4 * n)) & 0xFu) - 8) * x[k0 + n];
  }
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(FULL_LANES_MASK, acc, o);   // expect: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) y[row] = acc;
}

template __global__ void gemvInt4<4096>(const uint32_t*, const float*, const float*, float*, int);

// Run-length encoding, step 1: compact the start index of every run of each
// segment (one warp per segment) and count the runs.
__global__ void rleRunStarts(const int* __restrict__ sym, const int* __restrict__ segOff,
                             int* __restrict__ runStart, int* __restrict__ runCount, int numSegs) {
  const int lane = threadIdx.x % warpSize;                                      // quiet: W64-LANE-MATH
  const int seg = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (seg >= numSegs) return;
  const int beg = segOff[seg], end = segOff[seg + 1];
  int written = 0;
  for (int base = beg; base < end; base += 32) {                                // expect: W64-LANE-MATH
    const int i = base + lane;
    const bool start = i < end && (i == beg || sym[i] != sym[i - 1]);
    const unsigned long long starts = __ballot_sync(FULL_LANES_MASK, start);    // expect: W64-MASK32 // quiet: W64-BALLOT-NARROW
    if (start) runStart[beg + written + __popcll(starts & ((1ull << lane) - 1))] = i;   // quiet: W64-BALLOT-NARROW
    written += __popcll(starts);                                                // quiet: W64-BALLOT-NARROW
  }
  if (lane == 0) runCount[seg] = written;
}

// Radix select, one pass: each warp histograms the 4-bit digit at `shift` of
// the keys of its segment that still match the selected prefix, then walks the
// buckets from the top to find the one holding the k-th largest key.
template <int kItems>
__global__ void radixSelectWarp(const uint32_t* __restrict__ keys, const uint32_t* __restrict__ prefix,
                                int* __restrict__ kth, int* __restrict__ digitOut, int shift) {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));                           // expect: W64-INLINE-PTX
  const int seg = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  const uint32_t* ks = keys + static_cast<size_t>(seg) * kItems;
  const uint32_t hiMask = shift >= 28 ? 0u : ~0u << (shift + 4);
  const uint32_t want = prefix[seg] & hiMask;
  int cnt[16];
#pragma unroll
  for (int b = 0; b < 16; ++b) cnt[b] = 0;
  for (int j = 0; j < kItems / 32; ++j) { const uint32_t k = ks[j * 32 + lane]; if ((k & hiMask) == want) ++cnt[(k >> shift) & 0xF]; }   // expect: W64-LANE-MATH
  int need = kth[seg], digit = 0;
  for (int b = 15; b >= 0; --b) {
    const unsigned has = __ballot_sync(FULL_LANES_MASK, cnt[b] > 0);            // expect: W64-MASK32, W64-BALLOT-NARROW
    int total = 0;
    if (has) { total = cnt[b]; for (int o = warpSize / 2; o > 0; o >>= 1) total += __shfl_xor_sync(FULL_LANES_MASK, total, o); }   // expect: W64-MASK32 // quiet: W64-SHFL-OFFSET
    if (total >= need) { digit = b; break; }
    need -= total;
  }
  if (lane == 0) { digitOut[seg] = digit; kth[seg] = need; }
}

template __global__ void radixSelectWarp<1024>(const uint32_t*, const uint32_t*, int*, int*, int);

constexpr int kTileW = 32;                                                      // quiet: W64-LANE-MATH
constexpr int kTileH = 8;

// Explicit heat step through a shared tile with a one-cell halo (no warp calls).
__global__ void heatTile(const float* __restrict__ t, float* __restrict__ tn, int nx, int ny, float alpha) {
  __shared__ float tile[kTileH + 2][kTileW + 2];                                // quiet: W64-WARP-COUNT
  const int x0 = blockIdx.x * kTileW - 1, y0 = blockIdx.y * kTileH - 1;
  for (int y = threadIdx.y; y < kTileH + 2; y += kTileH)
    for (int x = threadIdx.x; x < kTileW + 2; x += kTileW) {                    // quiet: W64-LANE-MATH
      const int gx = min(max(x0 + x, 0), nx - 1), gy = min(max(y0 + y, 0), ny - 1);
      tile[y][x] = t[static_cast<size_t>(gy) * nx + gx];
    }
  __syncthreads();
  const int gx = blockIdx.x * kTileW + threadIdx.x, gy = blockIdx.y * kTileH + threadIdx.y;
  if (gx >= nx || gy >= ny) return;
  const int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
  const float c = tile[ly][lx];
  tn[static_cast<size_t>(gy) * nx + gx] =
      c + alpha * (tile[ly][lx - 1] + tile[ly][lx + 1] + tile[ly - 1][lx] + tile[ly + 1][lx] - 4.f * c);
}

void heatStep(const float* t, float* tn, int nx, int ny, float alpha, cudaStream_t s) {
  const dim3 block(kTileW, kTileH);                                             // quiet: W64-BLOCK-SIZE
  const dim3 grid((nx + kTileW - 1) / kTileW, (ny + kTileH - 1) / kTileH);
  heatTile<<<grid, block, 0, s>>>(t, tn, nx, ny, alpha);
}
