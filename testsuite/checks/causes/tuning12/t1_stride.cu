// Tuning, round 12. Cause 1: lane strides and per-lane splits.
// Domains: SpGEMM (symbolic row count, row merge into a dense accumulator,
// compaction, validation) and RoPE with a paged KV-cache append.
// Ambiguous calls (labelled as a demanding GPU compiler engineer would expect):
// - The unit reads warpSize and takes ballots and votes, so it is not one of
//   consistent 32-lane groups: lane math by 32 is a finding (warning) here.
// - A lane numbered by warpSize is right by itself (quiet); the strides by 32
//   around it (`k += 32`, `i * 32 + lane`, `kHalf / 32` trips) are findings.
// - `for (base = beg; base < end; base += 32)` with `k = base + lane` is a
//   tile stepped by 32 over a lane: labelled at the `for` line (the 32).
// - Per-lane splits are written on one line with their 32 (`j < chunk` with
//   `chunk = (len + 31) / 32` in the same `for`; `share` and `lane * share`
//   in one declaration), so the finding's line is not in doubt.
// - A lane's contiguous share over a lane by 32 (appendKv) is a finding; the
//   same share over a warpSize lane (rowsSorted) is quiet: the upper lanes
//   just get empty ranges.
// - `t < 32 && base + t < end` around `__shfl_sync(m, b, t)` is a broadcast
//   loop over lanes 0-31 only: W64-SHFL-OFFSET at its `for`.
// - FULL_MASK is labelled at its definition and at every call passing it.
// - Host: `warpsPerBlock * 32` is a constant block of whole wavefronts; it is
//   a note for rowFlops (shuffles, splits by warpSize) and quiet for
//   rowMergeDense, which divides by 32 itself.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>

#define FULL_MASK 0xffffffffu                                                  // expect: W64-MASK32

namespace spgemm {

// Symbolic pass: one warp per row of A adds up the lengths of the B rows it touches.
__global__ void rowFlops(const int* __restrict__ aPtr, const int* __restrict__ aCol,
                         const int* __restrict__ bPtr, long long* __restrict__ flops, int rows) {
  const int lane = threadIdx.x % warpSize;                                     // quiet: W64-LANE-MATH
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (row >= rows) return;
  long long f = 0;
  for (int k = aPtr[row] + lane; k < aPtr[row + 1]; k += 32) {                 // expect: W64-LANE-MATH
    const int b = aCol[k];
    f += bPtr[b + 1] - bPtr[b];
  }
  for (int o = warpSize / 2; o > 0; o /= 2) f += __shfl_down_sync(FULL_MASK, f, o);  // expect: W64-MASK32 // quiet: W64-SHFL-OFFSET
  if (lane == 0) flops[row] = f;
}

// Numeric pass: the warp of row i scatters a_ik * B(k,:) into a dense accumulator row.
__global__ void rowMergeDense(const int* __restrict__ aPtr, const int* __restrict__ aCol,
                              const float* __restrict__ aVal, const int* __restrict__ bPtr,
                              const int* __restrict__ bCol, const float* __restrict__ bVal,
                              float* __restrict__ work, int rows, int ncols) {
  const int lane = threadIdx.x & 31;                                           // expect: W64-LANE-MATH
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;                // expect: W64-LANE-MATH
  if (row >= rows) return;
  float* acc = work + static_cast<size_t>(row) * ncols;
  const int beg = aPtr[row], end = aPtr[row + 1];
  for (int base = beg; base < end; base += 32) {                               // expect: W64-LANE-MATH
    const int k = base + lane;
    const int b = k < end ? aCol[k] : 0;
    const float a = k < end ? aVal[k] : 0.f;
    for (int t = 0; t < 32 && base + t < end; ++t) {                           // expect: W64-SHFL-OFFSET
      const int bt = __shfl_sync(FULL_MASK, b, t);                             // expect: W64-MASK32
      const float at = __shfl_sync(FULL_MASK, a, t);                           // expect: W64-MASK32
      const int len = bPtr[bt + 1] - bPtr[bt];
      for (int j = 0, chunk = (len + 31) / 32; j < chunk; ++j) {               // expect: W64-LANE-MATH
        const int e = bPtr[bt] + lane + j * 32;                                // expect: W64-LANE-MATH
        if (e < bPtr[bt + 1]) atomicAdd(&acc[bCol[e]], at * bVal[e]);
      }
    }
  }
}

// Compaction: the nonzeros of the accumulator row become row i of C (columns sorted).
__global__ void rowCompact(float* __restrict__ work, const int* __restrict__ cPtr,
                           int* __restrict__ cCol, float* __restrict__ cVal, int rows, int ncols) {
  const int lane = threadIdx.x % warpSize;
  const int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;   // quiet: W64-WARP-COUNT
  if (row >= rows) return;
  float* acc = work + static_cast<size_t>(row) * ncols;
  int out = cPtr[row];
  for (int c0 = 0; c0 < ncols; c0 += warpSize) {                               // quiet: W64-LANE-MATH
    const int c = c0 + lane;
    const float v = c < ncols ? acc[c] : 0.f;
    const unsigned hit = __ballot_sync(FULL_MASK, v != 0.f);                   // expect: W64-MASK32, W64-BALLOT-NARROW
    const unsigned before = hit & ((1u << lane) - 1u);                         // expect: W64-BALLOT-NARROW
    if (v != 0.f) {
      cCol[out + __popc(before)] = c;                                          // expect: W64-BALLOT-NARROW
      cVal[out + __popc(before)] = v;                                          // expect: W64-BALLOT-NARROW
      acc[c] = 0.f;
    }
    out += __popc(hit);                                                        // expect: W64-BALLOT-NARROW
  }
}

// Validation: every row of C must have strictly increasing columns. Each lane checks
// a contiguous share of the row; lanes past the end get empty ranges.
__global__ void rowsSorted(const int* __restrict__ cPtr, const int* __restrict__ cCol,
                           int* __restrict__ bad, int rows) {
  const int lane = threadIdx.x % warpSize;
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (row >= rows) return;
  const int beg = cPtr[row], len = cPtr[row + 1] - beg;
  const int share = (len + 31) / 32, first = lane * share;                     // quiet: W64-LANE-MATH
  const int last = min(len - 1, first + share);
  bool ok = true;
  for (int i = first; i < last; ++i) ok = ok && cCol[beg + i] < cCol[beg + i + 1];
  if (!__all_sync(FULL_MASK, ok) && lane == 0) atomicAdd(bad, 1);              // expect: W64-MASK32
}

}  // namespace spgemm

namespace rope {

constexpr int kHeadDim = 128;
constexpr int kHalf = kHeadDim / 2;

// One warp per (token, head): rotate q and k in place (rotate-half layout).
__global__ void rotate(half* __restrict__ q, half* __restrict__ k, const float* __restrict__ invFreq,
                       const int* __restrict__ pos, int tokens, int heads) {
  const int lane = threadIdx.x % warpSize;                                     // quiet: W64-LANE-MATH
  const int item = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (item >= tokens * heads) return;
  const float p = static_cast<float>(pos[item / heads]);
  half* qh = q + static_cast<size_t>(item) * kHeadDim;
  half* kh = k + static_cast<size_t>(item) * kHeadDim;
#pragma unroll
  for (int i = 0; i < kHalf / 32; ++i) {                                       // expect: W64-LANE-MATH
    const int d = i * 32 + lane;                                               // expect: W64-LANE-MATH
    float s, c;
    __sincosf(p * invFreq[d], &s, &c);
    const float q0 = __half2float(qh[d]), q1 = __half2float(qh[d + kHalf]);
    const float k0 = __half2float(kh[d]), k1 = __half2float(kh[d + kHalf]);
    qh[d] = __float2half(q0 * c - q1 * s);
    qh[d + kHalf] = __float2half(q1 * c + q0 * s);
    kh[d] = __float2half(k0 * c - k1 * s);
    kh[d + kHalf] = __float2half(k1 * c + k0 * s);
  }
}

// Paged KV-cache append: one warp per token copies its K and V rows (heads * kHeadDim
// halves) into the slot the page table gives; 16-byte vectors, a contiguous share per lane.
__global__ void appendKv(const half* __restrict__ k, const half* __restrict__ v,
                         half* __restrict__ kCache, half* __restrict__ vCache,
                         const int* __restrict__ slotOf, int* __restrict__ filled,
                         int tokens, int heads) {
  const int lane = threadIdx.x & 31;                                           // expect: W64-LANE-MATH
  const int tok = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);         // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (tok >= tokens) return;
  const int slot = slotOf[tok];
  if (slot < 0) return;  // padding token: no cache slot
  const size_t row = static_cast<size_t>(heads) * kHeadDim;
  const int vecs = static_cast<int>(row / 8);
  const int4* ks = reinterpret_cast<const int4*>(k + tok * row);
  const int4* vs = reinterpret_cast<const int4*>(v + tok * row);
  int4* kd = reinterpret_cast<int4*>(kCache + slot * row);
  int4* vd = reinterpret_cast<int4*>(vCache + slot * row);
  const int share = (vecs + 31) / 32, first = lane * share;                    // expect: W64-LANE-MATH
  const int last = min(vecs, first + share);
  for (int i = first; i < last; ++i) {
    kd[i] = ks[i];
    vd[i] = vs[i];
  }
  __syncwarp(FULL_MASK);                                                       // expect: W64-MASK32
  if (lane == 0) atomicAdd(filled, 1);
}

}  // namespace rope

void spgemmNumeric(const int* aPtr, const int* aCol, const float* aVal, const int* bPtr,
                   const int* bCol, const float* bVal, float* work, long long* flops,
                   int rows, int ncols, cudaStream_t s) {
  const int warpsPerBlock = 8;
  const int grid = (rows + warpsPerBlock - 1) / warpsPerBlock;
  spgemm::rowFlops<<<grid, warpsPerBlock * 32, 0, s>>>(aPtr, aCol, bPtr, flops, rows);   // note: W64-BLOCK-SIZE
  spgemm::rowMergeDense<<<grid, warpsPerBlock * 32, 0, s>>>(aPtr, aCol, aVal, bPtr, bCol, bVal,   // quiet: W64-BLOCK-SIZE
                                                          work, rows, ncols);
}
