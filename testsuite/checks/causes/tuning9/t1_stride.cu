// Tuning round 9. Cause 1: lane strides and per-lane splits.
// LLM-inference and sparse kernels (rmsnorm, int8 GEMV, paged-attention QK,
// argmax for greedy sampling, warp-tiled GEMV), labelled from the check pages.
// Ambiguous calls and why they are labelled as they are:
// - rmsnormRows and pagedQk number their lanes by warpSize (quiet), but step
//   or offset those lanes by 32: `j += 32` in a for loop and again in a while
//   loop, `lane + j * 32` under `kHeadDim / 32`. The LANE-MATH page says the
//   strides and per-lane offsets by 32 around a warpSize lane still assume 32
//   lanes: expect, on the line that holds the 32 (the while loop's step line,
//   not the `while` line).
// - gemvInt8: `k += 32` steps vectors of 4 from a lane by 32 (expect); the
//   row line holds both a warp id (`threadIdx.x >> 5`, LANE-MATH) and a warp
//   count (`blockDim.x >> 5`, WARP-COUNT).
// - tiledGemv: `k0 += 32` steps a 32-wide tile that `k0 + lane` loads and
//   the 0..31 broadcast loop consumes: the tile is the warp's width, a lane
//   stride written as a tile step (expect LANE-MATH); the broadcast loop is
//   SHFL-OFFSET's "broadcast from every lane of a 32-lane warp in turn".
// - argmaxShare: `lane * chunk` with `chunk = (n + 31) / 32` is a contiguous
//   per-lane share over a lane by 32 (expect); split and share sit on one
//   line so the finding has a single place to land. bestShare does the same
//   with a warpSize lane and `(n + warpSize - 1) / warpSize` (quiet).
// - rotaryHeads makes no warp call: `threadIdx.x >> 5`, `& 31` and
//   `p * 32 + c` split a flat block into heads x columns of 32 (rows of 32,
//   data by the LANE-MATH page, strides built from them quiet too).
// - Full 32-bit literal masks: MASK32 at the call; `__activemask()` quiet.
#include <cuda_runtime.h>
#include <cstdint>
#include <cmath>

namespace {

constexpr int kRowsPerCta = 4;

// Whole-wavefront sum: starts at warpSize / 2, so it is right at any width.
__device__ __forceinline__ float waveSum(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(__activemask(), v, o);   // quiet: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

}  // namespace

// RMSNorm, one warp per row, kRowsPerCta rows per block.
__global__ void rmsnormRows(const float* __restrict__ x, const float* __restrict__ gamma,
                            float* __restrict__ y, int rows, int dim, float eps) {
  const int lane = threadIdx.x % warpSize;                                    // quiet: W64-LANE-MATH
  const int row = blockIdx.x * kRowsPerCta + threadIdx.x / warpSize;          // quiet: W64-LANE-MATH
  if (row >= rows) return;
  const float* xr = x + static_cast<size_t>(row) * dim;
  float ss = 0.f;
  for (int j = lane; j < dim; j += 32) ss += xr[j] * xr[j];                   // expect: W64-LANE-MATH
  const float inv = rsqrtf(waveSum(ss) / dim + eps);
  int j = lane;
  while (j < dim) {
    y[static_cast<size_t>(row) * dim + j] = xr[j] * inv * gamma[j];
    j += 32;                                                                  // expect: W64-LANE-MATH
  }
}

// W8A32 GEMV: int8 weights with a per-row scale, one warp per output row,
// four weights per load.
__global__ void gemvInt8(const int8_t* __restrict__ W, const float* __restrict__ scale,
                         const float* __restrict__ x, float* __restrict__ y, int N, int K) {
  const unsigned lane = threadIdx.x & 31u;                                    // expect: W64-LANE-MATH
  const unsigned row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);   // expect: W64-LANE-MATH, W64-WARP-COUNT
  if (row >= static_cast<unsigned>(N)) return;
  const char4* w4 = reinterpret_cast<const char4*>(W + static_cast<size_t>(row) * K);
  const float4* x4 = reinterpret_cast<const float4*>(x);
  float acc = 0.f;
  for (int k = lane; k < K / 4; k += 32) {                                    // expect: W64-LANE-MATH
    const char4 w = w4[k];
    const float4 v = x4[k];
    acc += w.x * v.x + w.y * v.y + w.z * v.z + w.w * v.w;
  }
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);   // expect: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) y[row] = acc * scale[row];
}

// Paged attention, decode: one warp per cached token computes q . k.
template <int kHeadDim>
__global__ void pagedQk(const float* __restrict__ q, const float* __restrict__ kcache,
                        const int* __restrict__ blockTable, float* __restrict__ logits,
                        int blockSize, int ctxLen, int maxBlocks, float scale) {
  const int lane = threadIdx.x % warpSize;                                    // quiet: W64-LANE-MATH
  const int tok = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;   // quiet: W64-LANE-MATH, W64-WARP-COUNT
  if (tok >= ctxLen) return;
  const int seq = blockIdx.y;
  const int phys = blockTable[seq * maxBlocks + tok / blockSize];
  const float* kp = kcache + (static_cast<size_t>(phys) * blockSize + tok % blockSize) * kHeadDim;
  const float* qp = q + static_cast<size_t>(seq) * kHeadDim;
  float dot = 0.f;
#pragma unroll
  for (int j = 0; j < kHeadDim / 32; ++j) dot += qp[lane + j * 32] * kp[lane + j * 32];   // expect: W64-LANE-MATH
  dot = waveSum(dot);
  if (lane == 0) logits[static_cast<size_t>(seq) * ctxLen + tok] = dot * scale;
}

// y = A x with a warp per row; the warp stages 32 entries of x in registers
// and broadcasts them one lane at a time.
__global__ void tiledGemv(const float* __restrict__ A, const float* __restrict__ x,
                          float* __restrict__ y, int M, int K) {
  const int lane = threadIdx.x & 31;                                          // expect: W64-LANE-MATH
  const int row = blockIdx.x * kRowsPerCta + (threadIdx.x >> 5);              // expect: W64-LANE-MATH
  if (row >= M) return;
  const float* ar = A + static_cast<size_t>(row) * K;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += 32) {                                       // expect: W64-LANE-MATH
    const float xv = (k0 + lane < K) ? x[k0 + lane] : 0.f;
    for (int kk = 0; kk < 32 && k0 + kk < K; ++kk) acc += ar[k0 + kk] * __shfl_sync(0xffffffffu, xv, kk);   // expect: W64-SHFL-OFFSET, W64-MASK32
  }
  if (lane == 0) y[row] = acc;
}

// Greedy sampling: one warp per row of logits, each lane scans a contiguous
// share, then the warp keeps the best (value, index) pair.
__device__ __forceinline__ void keepBest(float& v, int& idx) {
  for (int o = warpSize / 2; o > 0; o /= 2) {                                 // quiet: W64-SHFL-OFFSET
    const float ov = __shfl_xor_sync(__activemask(), v, o);
    const int oi = __shfl_xor_sync(__activemask(), idx, o);
    if (ov > v || (ov == v && oi < idx)) { v = ov; idx = oi; }
  }
}

__global__ void argmaxShare(const float* __restrict__ logits, int* __restrict__ out, int n) {
  const int lane = threadIdx.x & 31;                                          // expect: W64-LANE-MATH
  const float* row = logits + static_cast<size_t>(blockIdx.x) * n;
  const int chunk = (n + 31) / 32, first = lane * chunk;                      // expect: W64-LANE-MATH
  float best = -INFINITY;
  int idx = n;
  for (int i = first; i < min(first + chunk, n); ++i)
    if (row[i] > best) { best = row[i]; idx = i; }
  keepBest(best, idx);
  if (lane == 0) out[blockIdx.x] = idx;
}

__global__ void bestShare(const float* __restrict__ logits, int* __restrict__ out, int n) {
  const int lane = threadIdx.x % warpSize;                                    // quiet: W64-LANE-MATH
  const float* row = logits + static_cast<size_t>(blockIdx.x) * n;
  const int share = (n + warpSize - 1) / warpSize, from = lane * share;       // quiet: W64-LANE-MATH
  float best = -INFINITY;
  int idx = n;
  for (int i = from; i < min(from + share, n); ++i)
    if (row[i] > best) { best = row[i]; idx = i; }
  keepBest(best, idx);
  if (lane == 0) out[blockIdx.x] = idx;
}

// Rotary embedding (NeoX layout), no warp call: a block of 128 threads covers
// four heads, 32 threads per head, each thread kHalf / 32 rotation pairs.
template <int kHeadDim>
__global__ void rotaryHeads(float* __restrict__ qk, const float* __restrict__ cosT,
                            const float* __restrict__ sinT, int heads) {
  constexpr int kHalf = kHeadDim / 2;
  const int c = threadIdx.x & 31;                                             // quiet: W64-LANE-MATH
  const int head = blockIdx.x * 4 + (threadIdx.x >> 5);                       // quiet: W64-LANE-MATH
  if (head >= heads) return;
  float* v = qk + static_cast<size_t>(head) * kHeadDim;
#pragma unroll
  for (int p = 0; p < kHalf / 32; ++p) {                                      // quiet: W64-LANE-MATH
    const int i = p * 32 + c;                                                 // quiet: W64-LANE-MATH
    const float a = v[i], b = v[i + kHalf];
    v[i] = a * cosT[i] - b * sinT[i];
    v[i + kHalf] = b * cosT[i] + a * sinT[i];
  }
}

// Explicit instantiations, as the project's dispatch file would have them.
template __global__ void pagedQk<128>(const float*, const float*, const int*, float*, int, int, int, float);
template __global__ void rotaryHeads<128>(float*, const float*, const float*, int);
