// Held out, round 12. Cause 5: consistent 32-lane groups, right at 64 lanes as written.
// Notes at most.
// Domains: quantized int8 convolution (direct NHWC convolution with dp4a, absmax of the
// accumulators for dynamic requantization, int8 GEMV of the classifier head through
// cooperative-groups tiles), bitonic merge of sorted top-k lists.
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - The unit shuffles only by offsets below 32 at the default width (loops from 16 or
//   kGroup / 2 halving, xor steps of a bitonic merge), or inside cg::tiled_partition<32>
//   tiles with cg::reduce; it takes no ballot, vote, match or __reduce_*_sync, broadcasts
//   from no lane, and never reads warpSize. So it works in consistent 32-lane groups:
//   LANE-MATH, WARP-COUNT, SHFL-OFFSET and BLOCK-SIZE findings are notes.
// - W64-MASK32: the full masks pass through the group-mask shim (HIP >= 6.2) or are
//   dropped (before 6.2); either way the page says a note. GROUP_ALL is labelled at its
//   definition and at every call using it, all notes.
// - kGroup = 32 and kListLen = 32 (neutral names, read in shuffling code) are labelled
//   `note: W64-LANE-MATH` at their definitions (their first uses are lane ids), as the
//   causes README labels group-size constants, and with the id found at each use.
// - absMaxInt32's second stage runs inside `if (threadIdx.x < 32)`: the SHFL-OFFSET page
//   keeps 32-lane reductions there quiet (only 32 threads run them); its mask and the
//   group count `blockDim.x >> 5` are still notes.
// - `pair * kListLen + lane` is a group's first thread plus its lane (LANE-MATH `warp *
//   32`) in a function that shuffles, so no data exemption: a note.
// - `lane < 16` on a lane by 32 keeps the better half of a merged list: quiet.
// - gemvInt8 strides `k += 32` from tile.thread_rank() of a 32-lane tile: a lane by 32,
//   so a note like the tile itself and its `blockDim.x / 32`, `threadIdx.x / 32`.
// - `4 * 32` threads for gemvInt8 is a constant block of whole wavefronts for a kernel
//   in 32-lane groups (quiet); `96` is no multiple of 64 (note); `tasks * kGroup` threads
//   for the shuffling conv2dInt8 is a launch shape computed with 32 (note).
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdint>

namespace cg = cooperative_groups;

#define GROUP_ALL 0xffffffffu                                                        // note: W64-MASK32
constexpr int kGroup = 32;                                                           // note: W64-LANE-MATH
constexpr int kListLen = 32;                                                         // note: W64-LANE-MATH

// ---------------------------------------------------------------------------------------
// Direct int8 convolution, NHWC, C a multiple of 4, stride 1, 'same' padding. One group of
// kGroup threads per (output pixel, output channel); the lanes split the R x S x C/4
// packed filter words and meet in a shuffle reduction. Per-tensor requantization.
__global__ void conv2dInt8(const int8_t* __restrict__ in, const int8_t* __restrict__ w,
                           const int* __restrict__ bias, int N, int H, int W, int C, int K, int R, int S,
                           float scale, int8_t* __restrict__ out) {
  const int lane = threadIdx.x % kGroup;                                             // note: W64-LANE-MATH
  const long long task = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / kGroup;   // note: W64-LANE-MATH
  if (task >= static_cast<long long>(N) * H * W * K) return;
  const int k = static_cast<int>(task % K);
  const long long pix = task / K;
  const int x = static_cast<int>(pix % W), y = static_cast<int>((pix / W) % H);
  const int n = static_cast<int>(pix / (static_cast<long long>(W) * H));
  const int C4 = C / 4, taps = R * S * C4;
  const int* in4 = reinterpret_cast<const int*>(in);
  const int* wk = reinterpret_cast<const int*>(w) + static_cast<size_t>(k) * taps;
  int acc = 0;
  for (int t = lane; t < taps; t += kGroup) {                                        // note: W64-LANE-MATH
    const int c4 = t % C4, rs = t / C4, s = rs % S, r = rs / S;
    const int iy = y + r - R / 2, ix = x + s - S / 2;
    if (iy >= 0 && iy < H && ix >= 0 && ix < W)
      acc = __dp4a(in4[((static_cast<size_t>(n) * H + iy) * W + ix) * C4 + c4], wk[t], acc);
  }
  for (int o = kGroup / 2; o > 0; o >>= 1) acc += __shfl_down_sync(GROUP_ALL, acc, o);   // note: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) {
    const int q = __float2int_rn((acc + bias[k]) * scale);
    out[task] = static_cast<int8_t>(max(-128, min(127, q)));
  }
}

// Absmax of a layer's int32 accumulators for dynamic requantization: grid-stride, groups
// of 32 reduce by shuffles, one shared slot per group, then the first 32 threads finish.
__global__ void absMaxInt32(const int* __restrict__ v, size_t n, unsigned* __restrict__ result) {
  __shared__ unsigned groupMax[32];                                                  // note: W64-WARP-COUNT
  const int lane = threadIdx.x & 31;                                                 // note: W64-LANE-MATH
  const int gid = threadIdx.x >> 5;                                                  // note: W64-LANE-MATH
  unsigned m = 0u;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    m = max(m, static_cast<unsigned>(v[i] < 0 ? -static_cast<long long>(v[i]) : v[i]));
  for (int o = 16; o > 0; o >>= 1) m = max(m, __shfl_xor_sync(GROUP_ALL, m, o));   // note: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) groupMax[gid] = m;
  __syncthreads();
  if (threadIdx.x < 32) {
    m = lane < (blockDim.x >> 5) ? groupMax[lane] : 0u;                              // note: W64-WARP-COUNT
    for (int o = 16; o > 0; o >>= 1)                                                 // quiet: W64-SHFL-OFFSET
      m = max(m, __shfl_xor_sync(GROUP_ALL, m, o));                                  // note: W64-MASK32
    if (lane == 0) atomicMax(result, m);
  }
}

// Int8 GEMV of the classifier head, y[r] = scale_r * sum_k A[r][k] x[k]: one 32-lane tile
// per row, four int8 per lane and step (cols a multiple of 4).
__global__ void gemvInt8(const int8_t* __restrict__ A, const int8_t* __restrict__ x,
                         const float* __restrict__ rowScale, int rows, int cols, float* __restrict__ y) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);                   // note: W64-SHFL-OFFSET
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;                 // note: W64-WARP-COUNT, W64-LANE-MATH
  if (row >= rows) return;
  const int* a4 = reinterpret_cast<const int*>(A + static_cast<size_t>(row) * cols);
  const int* x4 = reinterpret_cast<const int*>(x);
  int acc = 0;
  for (int k = tile.thread_rank(); k < cols / 4; k += 32) acc = __dp4a(a4[k], x4[k], acc);   // note: W64-LANE-MATH
  acc = cg::reduce(tile, acc, cg::plus<int>());
  if (tile.thread_rank() == 0) y[row] = acc * rowScale[row];
}

// ---------------------------------------------------------------------------------------
// Merge of sorted top-32 lists (retrieval shards, beam candidates): list a ascending, list
// b descending, as the producing sort's alternating directions leave them. max(a_i, b_i)
// is a bitonic sequence of the best 32 of the 64; a bitonic merge with steps 16, ..., 1
// sorts it descending. One group of kListLen lanes per pair, one element per lane.
__global__ void mergeTopkLists(const float* __restrict__ ascVal, const int* __restrict__ ascId,
                               const float* __restrict__ descVal, const int* __restrict__ descId, int pairs,
                               bool keepHalf, float* __restrict__ outVal, int* __restrict__ outId) {
  const int lane = threadIdx.x % kListLen;                                           // note: W64-LANE-MATH
  const int pair = (blockIdx.x * blockDim.x + threadIdx.x) / kListLen;               // note: W64-LANE-MATH
  if (pair >= pairs) return;
  const size_t at = static_cast<size_t>(pair) * kListLen + lane;                     // note: W64-LANE-MATH
  const float a = ascVal[at], b = descVal[at];
  float v = a >= b ? a : b;
  int id = a >= b ? ascId[at] : descId[at];
  for (int j = 16; j > 0; j >>= 1) {                                                 // note: W64-SHFL-OFFSET
    const float ov = __shfl_xor_sync(GROUP_ALL, v, j);                               // note: W64-MASK32
    const int oid = __shfl_xor_sync(GROUP_ALL, id, j);                               // note: W64-MASK32
    const bool upper = (lane & j) != 0;
    if (upper ? (ov < v) : (ov > v)) { v = ov; id = oid; }
  }
  if (!keepHalf) {
    outVal[at] = v;
    outId[at] = id;
  } else if (lane < 16) {                                                            // quiet: W64-LANE-MATH
    outVal[static_cast<size_t>(pair) * 16 + lane] = v;
    outId[static_cast<size_t>(pair) * 16 + lane] = id;
  }
}

// ---------------------------------------------------------------------------------------
void convLayer(const int8_t* in, const int8_t* w, const int* bias, int N, int H, int W, int C, int K, int R,
               int S, float scale, int8_t* out, cudaStream_t st) {
  const long long tasks = static_cast<long long>(N) * H * W * K;
  const long long threads = tasks * kGroup;                                          // note: W64-BLOCK-SIZE
  conv2dInt8<<<static_cast<unsigned>((threads + 255) / 256), 256, 0, st>>>(in, w, bias, N, H, W, C, K, R, S,
                                                                             scale, out);
}

void headAndMerge(const int* acc32, size_t n, unsigned* absMax, const int8_t* A, const int8_t* x,
                  const float* rowScale, int rows, int cols, float* y, const float* ascVal, const int* ascId,
                  const float* descVal, const int* descId, int pairs, float* outVal, int* outId,
                  cudaStream_t st) {
  absMaxInt32<<<120, 256, 0, st>>>(acc32, n, absMax);
  gemvInt8<<<(rows + 3) / 4, 4 * 32, 0, st>>>(A, x, rowScale, rows, cols, y);      // quiet: W64-BLOCK-SIZE
  mergeTopkLists<<<(pairs + 2) / 3, 96, 0, st>>>(ascVal, ascId, descVal, descId, pairs, false, outVal,   // note: W64-BLOCK-SIZE
                                                 outId);
}
