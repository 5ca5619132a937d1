// Held out, round 8. Cause 1: lane strides and per-lane splits.
// Ambiguous calls (labelled as a demanding GPU engineer would expect):
// - laneOf() is a helper every kernel calls with threadIdx.x: its `t & 31` is
//   the lane (expect, at the helper's line); the call sites carry no 32 and
//   are left unlabelled.
// - spmvWarpRow numbers its lanes and rows by warpSize (quiet) but steps its
//   nonzeros by 32 from `rowPtr[row] + lane`: a lane stride that starts at
//   an offset, not at the lane itself (expect).
// - attnScores: the per-lane split `i < kHeadDim / 32` and its `i * 32 + lane`
//   are written on one line so that either place of the finding satisfies
//   the label. kHeadDim (128) is not a warp constant.
// - compactSegments: the contiguous share `chunk = (segLen + 31) / 32` and
//   `lane * chunk` are on one line (expect), the lane being one by 32.
// - rowLayerNorm: a lane by warpSize inside a generic lambda that steps a
//   32-column tile (`c0 += 32`, `c0 + lane`): the tile step is the lane
//   stride (expect); the final loop steps by warpSize (quiet).
// - transposeTiles: kTile = 32 steps rows by kRows in a function with no
//   warp call and no shuffling caller: a tile size (quiet at the constant).
// - rowArgmax<kPerLane>: `lane + j * 32` with a lane by warpSize (expect).
// Convention pass (round 8): labels were added where the documented rules
// put a finding that the first labelling left out: W64-MASK32 at every call
// that passes the full mask constant to a *_sync intrinsic (reported once at
// the constant's definition, each call listed as a related location, which
// the scorer counts at the call's own line). A line that carries both a
// finding and a hard negative has two trailing label comments
// (`// expect: ... // quiet: ...`). No existing label was changed.
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdint>

constexpr unsigned kAllLanes = 0xffffffffu;                              // expect: W64-MASK32
constexpr int kHeadDim = 128;

__device__ __forceinline__ int laneOf(int t) { return t & 31; }          // expect: W64-LANE-MATH

__device__ __forceinline__ float allLanesSum(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(kAllLanes, v, o);   // expect: W64-MASK32 // quiet: W64-SHFL-OFFSET
  return v;
}

// CSR SpMV, vector kernel: one warp per row.
__global__ void spmvWarpRow(const int* __restrict__ rowPtr, const int* __restrict__ colIdx,
                            const float* __restrict__ vals, const float* __restrict__ x,
                            float* __restrict__ y, int rows) {
  const int lane = threadIdx.x % warpSize;                               // quiet: W64-LANE-MATH
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (row >= rows) return;
  const int end = rowPtr[row + 1];
  float sum = 0.f;
  for (int j = rowPtr[row] + lane; j < end; j += 32)                     // expect: W64-LANE-MATH
    sum += vals[j] * __ldg(&x[colIdx[j]]);
  sum = allLanesSum(sum);
  if (lane == 0) y[row] = sum;
}

// Attention scores: one warp scores one key against the query.
__global__ void attnScores(const float* __restrict__ q, const float* __restrict__ keys,
                           float* __restrict__ scores, int nKeys, float scale) {
  const int lane = laneOf(threadIdx.x);
  const int key = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (key >= nKeys) return;
  const float* kr = keys + static_cast<size_t>(key) * kHeadDim;
  float acc = 0.f;
#pragma unroll
  for (int i = 0; i < kHeadDim / 32; ++i) acc += q[i * 32 + lane] * kr[i * 32 + lane];   // expect: W64-LANE-MATH
  acc = allLanesSum(acc);
  if (lane == 0) scores[key] = acc * scale;
}

// Per-segment stream compaction: each lane filters a contiguous chunk of its
// warp's segment, an exclusive scan over the lanes gives the write offsets.
__global__ void compactSegments(const float* __restrict__ in, float* __restrict__ out,
                                int* __restrict__ counts, int segLen, float thresh) {
  const int lane = laneOf(threadIdx.x);
  const int seg = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;          // expect: W64-LANE-MATH
  const int chunk = (segLen + 31) / 32, lo = min(segLen, lane * chunk), hi = min(segLen, lo + chunk);   // expect: W64-LANE-MATH
  const float* src = in + static_cast<size_t>(seg) * segLen;
  float* dst = out + static_cast<size_t>(seg) * segLen;
  int mine = 0;
  for (int i = lo; i < hi; ++i) mine += src[i] > thresh;
  int incl = mine;
  for (int d = 1; d < 32; d <<= 1) {                                     // expect: W64-SHFL-OFFSET
    const int up = __shfl_up_sync(kAllLanes, incl, d);                     // expect: W64-MASK32
    if (lane >= d) incl += up;
  }
  int pos = incl - mine;
  for (int i = lo; i < hi; ++i)
    if (src[i] > thresh) dst[pos++] = src[i];
  if (lane == 31) counts[seg] = incl;                                    // expect: W64-LANE-MATH
}

// Layer norm, one warp per row.
__global__ void rowLayerNorm(const float* __restrict__ x, float* __restrict__ y,
                             const float* __restrict__ gamma, int rows, int cols, float eps) {
  const int lane = threadIdx.x % warpSize;
  const int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= rows) return;
  const float* xr = x + static_cast<size_t>(row) * cols;
  auto rowReduce = [&](auto f) {
    float s = 0.f;
    for (int c0 = 0; c0 < cols; c0 += 32) if (c0 + lane < cols) s += f(xr[c0 + lane]);   // expect: W64-LANE-MATH
    return allLanesSum(s);
  };
  const float mean = rowReduce([](float v) { return v; }) / cols;
  const float var = rowReduce([mean](float v) { return (v - mean) * (v - mean); }) / cols;
  const float inv = rsqrtf(var + eps);
  float* yr = y + static_cast<size_t>(row) * cols;
  for (int c = lane; c < cols; c += warpSize) yr[c] = (xr[c] - mean) * inv * gamma[c];   // quiet: W64-LANE-MATH
}

// Out-of-place transpose through a padded shared tile (no warp calls).
constexpr int kTile = 32;                                                // quiet: W64-LANE-MATH
constexpr int kRows = 8;

__global__ void transposeTiles(const float* __restrict__ in, float* __restrict__ out, int w, int h) {
  __shared__ float tile[kTile][kTile + 1];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows)
    if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[static_cast<size_t>(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows)
    if (x < h && y + j < w) out[static_cast<size_t>(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Greedy decoding: argmax of each row, kPerLane logits held per lane.
template <int kPerLane>
__global__ void rowArgmax(const float* __restrict__ logits, int* __restrict__ best, int rows, int cols) {
  const int lane = threadIdx.x % warpSize;
  const int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= rows) return;
  const float* lr = logits + static_cast<size_t>(row) * cols;
  float bv = -FLT_MAX;
  int bi = 0;
#pragma unroll
  for (int j = 0; j < kPerLane; ++j) {
    const int c = lane + j * 32;                                         // expect: W64-LANE-MATH
    if (c < cols && lr[c] > bv) { bv = lr[c]; bi = c; }
  }
  for (int o = warpSize / 2; o > 0; o /= 2) {
    const float ov = __shfl_down_sync(kAllLanes, bv, o);                   // expect: W64-MASK32
    const int oi = __shfl_down_sync(kAllLanes, bi, o);                     // expect: W64-MASK32
    if (ov > bv || (ov == bv && oi < bi)) { bv = ov; bi = oi; }
  }
  if (lane == 0) best[row] = bi;
}

template __global__ void rowArgmax<4>(const float*, int*, int, int);
