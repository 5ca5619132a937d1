// Tuning round 14. Cause 1: lane strides and per-lane splits.
// Domains: k-NN distance tiles (RAFT-like brute-force L2 rows and a per-query
// argmin over candidate tiles), int8 GEMV with dp4a over q8_0 blocks
// (llama.cpp-like mmvq, one 32-thread row of the block per matrix row).
// Labels were written from docs/checks only; the tool was never run on this file.
// Ambiguous calls:
// - Strides and their loop bounds that span two statements were written on one
//   line (`for (int j0 = 0, j = lane; ...; j0 += 32, j += 32)`, the per-lane
//   share `i < n4 / 32` with `i * 32 + lane`) so that the finding has one line.
// - `ib = lane; ib += 32` in mmvq_q8_0, whose lane is a bare threadIdx.x (blockDim.x
//   is 32 there): threadIdx.x is thread-derived, so this is a lane stride.
// - `ncols / QK8_0` (32 quants per block) in a function that shuffles: not a
//   thread-derived value, so no lane math (quiet). QK8_0's definition is quiet too.
// - A lane by warpSize with a contiguous share `(nd + 31) / 32` per lane: the
//   pages count such shares only for lanes by 32 (quiet); strides by 32 over
//   a lane by warpSize are findings (expect).
// - `dim3 block(32, 4)` for mmvq_q8_0, which divides its work by literal 32
//   itself: a constant block of whole wavefronts, quiet.
// - `nq * 32` threads for l2_rowwise, which numbers its warps by warpSize: a
//   launch shape computed with 32 (BLOCK-SIZE at the 32).
// - KNN_TILE is used only in l2_tile_smem, which has no shuffle: a tile size.
// - gemv_i8's `(nrows + 31) / 32` blocks of 1024 threads assume 32 rows per
//   block, but the pages do not report a 32 that only divides (quiet).
// - radius_count's reversed loop steps by warpSize from a lane by warpSize (quiet).
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdint>

#define QK8_0 32                                                                   // quiet: W64-LANE-MATH
#define KNN_TILE 32

struct block_q8_0 {
  float d;
  int8_t qs[QK8_0];
};

namespace knn {
namespace detail {

template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
  for (int off = warpSize / 2; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);   // expect: W64-MASK32
  return v;
}

__device__ __forceinline__ void warp_argmin(float& d, int& idx) {
  for (int off = warpSize / 2; off > 0; off >>= 1) {
    const float od = __shfl_xor_sync(__activemask(), d, off);                       // quiet: W64-MASK32
    const int oi = __shfl_xor_sync(__activemask(), idx, off);                       // quiet: W64-MASK32
    if (od < d || (od == d && oi < idx)) { d = od; idx = oi; }
  }
}

__device__ __forceinline__ float sq(float t) { return t * t; }

}  // namespace detail

// One warp per query row; each lane walks the feature dimension.
__global__ void l2_rowwise(const float* __restrict__ q, const float* __restrict__ db, int nq, int nd, int dim,
                           float* __restrict__ dist) {
  const int lane = threadIdx.x % warpSize;                                          // quiet: W64-LANE-MATH
  const int qi = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (qi >= nq) return;
  const float* qrow = q + static_cast<size_t>(qi) * dim;
  for (int j = 0; j < nd; ++j) {
    const float* drow = db + static_cast<size_t>(j) * dim;
    float acc = 0.f;
    for (int k = lane; k < dim; k += 32) {                                          // expect: W64-LANE-MATH
      const float t = qrow[k] - drow[k];
      acc += t * t;
    }
    acc = detail::warp_sum(acc);
    if (lane == 0) dist[static_cast<size_t>(qi) * nd + j] = acc;
  }
}

// Same distances with the query row cached in registers, 32 floats per lane
// step (dim is a multiple of 32 here), lanes numbered by warpSize.
__global__ void l2_cached(const float* __restrict__ q, const float* __restrict__ db, int nq, int nd, int dim,
                          float* __restrict__ dist) {
  const int lane = threadIdx.x % warpSize;
  const int qi = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (qi >= nq) return;
  float qreg[8];
  for (int i = 0; i < dim / 32; ++i) qreg[i] = q[static_cast<size_t>(qi) * dim + i * 32 + lane];   // expect: W64-LANE-MATH
  for (int j = 0; j < nd; ++j) {
    const float* drow = db + static_cast<size_t>(j) * dim;
    float acc = 0.f;
    for (int i = 0; i < dim / 32; ++i) acc += detail::sq(qreg[i] - drow[lane + i * 32]);    // expect: W64-LANE-MATH
    acc = detail::warp_sum(acc);
    if (lane == 0) dist[static_cast<size_t>(qi) * nd + j] = acc;
  }
}

// Argmin over candidate tiles of 32: lane l of the warp owns candidate j0 + l.
__global__ void knn_top1(const float* __restrict__ dist, int nq, int nd, int* __restrict__ nn,
                         float* __restrict__ nnDist) {
  const int lane = threadIdx.x & 31;                                                // expect: W64-LANE-MATH
  const int warp = threadIdx.x >> 5;                                                // expect: W64-LANE-MATH
  const int qi = blockIdx.x * (blockDim.x >> 5) + warp;                             // expect: W64-WARP-COUNT
  if (qi >= nq) return;
  const float* row = dist + static_cast<size_t>(qi) * nd;
  float best = FLT_MAX;
  int bestIdx = -1;
  for (int j0 = 0, j = lane; j0 < nd; j0 += 32, j += 32) {                          // expect: W64-LANE-MATH
    const float v = j < nd ? row[j] : FLT_MAX;
    if (v < best) { best = v; bestIdx = j; }
  }
  detail::warp_argmin(best, bestIdx);
  if (lane == 0) { nn[qi] = bestIdx; nnDist[qi] = best; }
}

// Radius count: each lane takes a contiguous run of candidates.
__global__ void radius_count(const float* __restrict__ dist, int nq, int nd, float r2, int* __restrict__ counts) {
  const int lane = threadIdx.x % warpSize;
  const int qi = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (qi >= nq) return;
  const int chunk = (nd + 31) / 32, begin = lane * chunk, end = min(nd, begin + chunk);   // quiet: W64-LANE-MATH
  int c = 0;
  const float* row = dist + static_cast<size_t>(qi) * nd;
  for (int j = begin; j < end; ++j) c += row[j] <= r2;
  int dup = 0;
  for (int j = nd - 1 - lane; j >= 0 && nd - j <= 2 * warpSize; j -= warpSize) dup += row[j] == 0.f;   // quiet: W64-LANE-MATH
  c = detail::warp_sum(c);
  dup = detail::warp_sum(dup);
  if (lane == 0) counts[qi] = c - dup;
}

// Shared-memory tile version for short rows: no shuffles, tiles of KNN_TILE.
__global__ void l2_tile_smem(const float* __restrict__ q, const float* __restrict__ db, int nq, int nd, int dim,
                             float* __restrict__ dist) {
  __shared__ float qs[KNN_TILE][KNN_TILE + 1];                                      // quiet: W64-WARP-COUNT
  __shared__ float ds[KNN_TILE][KNN_TILE + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int qi = blockIdx.y * KNN_TILE + ty, dj = blockIdx.x * KNN_TILE + tx;       // quiet: W64-LANE-MATH
  const int dr = blockIdx.x * KNN_TILE + ty;
  float acc = 0.f;
  for (int k0 = 0; k0 < dim; k0 += KNN_TILE) {                                      // quiet: W64-LANE-MATH
    qs[ty][tx] = (qi < nq && k0 + tx < dim) ? q[static_cast<size_t>(qi) * dim + k0 + tx] : 0.f;
    ds[ty][tx] = (dr < nd && k0 + tx < dim) ? db[static_cast<size_t>(dr) * dim + k0 + tx] : 0.f;
    __syncthreads();
    for (int k = 0; k < KNN_TILE; ++k) { const float t = qs[ty][k] - ds[tx][k]; acc += t * t; }
    __syncthreads();
  }
  if (qi < nq && dj < nd) dist[static_cast<size_t>(qi) * nd + dj] = acc;
}

}  // namespace knn

// q8_0 x q8_0 GEMV: block = dim3(32, 4), one 32-thread row per matrix row;
// each lane takes whole q8_0 blocks.
__global__ void mmvq_q8_0(const block_q8_0* __restrict__ vx, const block_q8_0* __restrict__ vy,
                          float* __restrict__ dst, int ncols, int nrows) {
  const int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= nrows) return;
  const int nb = ncols / QK8_0;                                                      // quiet: W64-LANE-MATH
  const int lane = threadIdx.x;
  const block_q8_0* xr = vx + static_cast<size_t>(row) * nb;
  float sumf = 0.f;
  // Relabelled 2026-12-05 (was expect): lane is threadIdx.x of a dim3(32, 4) block,
  // so the stride of 32 is the row's width at any wavefront width: at most a note.
  for (int ib = lane; ib < nb; ib += 32) {
    const int* xi = reinterpret_cast<const int*>(xr[ib].qs);
    const int* yi = reinterpret_cast<const int*>(vy[ib].qs);
    int sumi = 0;
#pragma unroll
    for (int k = 0; k < QK8_0 / 4; ++k) sumi = __dp4a(xi[k], yi[k], sumi);           // quiet: W64-LANE-MATH
    sumf += xr[ib].d * vy[ib].d * static_cast<float>(sumi);
  }
  for (int mask = 16; mask > 0; mask >>= 1) sumf += __shfl_xor_sync(0xffffffff, sumf, mask, 32);   // expect: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) dst[row] = sumf;
}

// Plain int8 rows of 256 values (64 ints): one wavefront per row, two ints per lane.
__global__ void gemv_i8_row256(const int* __restrict__ x4, const int* __restrict__ y4, const float* __restrict__ scale,
                               float* __restrict__ dst, int nrows) {
  const int lane = threadIdx.x % warpSize;
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (row >= nrows) return;
  const int* xr = x4 + static_cast<size_t>(row) * 64;
  int sumi = __dp4a(xr[lane], y4[lane], 0) + __dp4a(xr[lane + 32], y4[lane + 32], 0);   // expect: W64-LANE-MATH
  sumi = knn::detail::warp_sum(sumi);
  if (lane == 0) dst[row] = scale[row] * static_cast<float>(sumi);
}

void knn_bruteforce(const float* dq, const float* ddb, int nq, int nd, int dim, float* ddist, int* dnn,
                    float* dnnDist, cudaStream_t s) {
  const int threadsTotal = nq * 32;                                                 // expect: W64-BLOCK-SIZE
  knn::l2_rowwise<<<(threadsTotal + 255) / 256, 256, 0, s>>>(dq, ddb, nq, nd, dim, ddist);
  knn::knn_top1<<<(nq + 7) / 8, 256, 0, s>>>(ddist, nq, nd, dnn, dnnDist);
  const dim3 tile(KNN_TILE, KNN_TILE);                                              // quiet: W64-BLOCK-SIZE
  const dim3 tgrid((nd + KNN_TILE - 1) / KNN_TILE, (nq + KNN_TILE - 1) / KNN_TILE);
  knn::l2_tile_smem<<<tgrid, tile, 0, s>>>(dq, ddb, nq, nd, dim, ddist);
}

void mmvq(const block_q8_0* dx, const block_q8_0* dy, float* ddst, int ncols, int nrows, cudaStream_t s) {
  const dim3 block(32, 4);                                                           // quiet: W64-BLOCK-SIZE
  mmvq_q8_0<<<(nrows + 3) / 4, block, 0, s>>>(dx, dy, ddst, ncols, nrows);
}

void gemv_i8(const int* dx4, const int* dy4, const float* dscale, float* ddst, int nrows, cudaStream_t s) {
  const int blocks = (nrows + 31) / 32;                                              // quiet: W64-BLOCK-SIZE
  gemv_i8_row256<<<blocks, 1024, 0, s>>>(dx4, dy4, dscale, ddst, nrows);
}
