// Tuning round 9. Cause 2: recognition by value, not by name or syntax.
// Decode-side kernels (softmax over a row, a sampling scan, a fused bias-GELU
// with a row norm, a tile transpose) whose 32s hide behind names without
// "warp", enums, struct members, template defaults, lambdas, helpers,
// while loops and locals.
// Ambiguous calls and why they are labelled as they are:
// - Named constants of any name (enum `kStripe`, `Decode::kTeam`) count by
//   value because the code around them shuffles; each is reported at its
//   definition with every use a related location, so the definition and each
//   use line carry the label of the use's own check. Each name's first use
//   is lane math, so the definition's id is LANE-MATH by either documented
//   rule (README "first use moved to the definition", LANE-MATH page "a
//   definition of the warp size is reported as LANE-MATH").
// - `kAll` (a full 32-bit mask under a name without "mask") is reported at
//   its definition and listed at each call: label both. `0xffffffffull` is a
//   64-bit constant covering lanes 0-31 only (expect); `kEvery = ~0ull` quiet.
// - Template parameter `LANES` (no default, instantiated with 32): the
//   SHFL-OFFSET page reads the start from the instantiations and names the
//   instantiation in the message; labelled at the loop. stripeSum's default
//   `kSpan = 32` and `foldTeam`'s `int width = 32` are written on one line
//   with their use, so either placement lands on the labelled line; the
//   same holds for the local `const int span = 32` of rowSums.
// - The lambda `laneOf` and the helper `teamOf` get thread indices from
//   every call (LANE-MATH in their bodies); `bucketOf(key)` gets only data
//   (quiet). `TileShape::kCols = 32` sizes a transpose tile in a kernel with
//   no shuffle anywhere near it (quiet).
// - `lane + d <= 31` is the last-lane test `lane + d > 31` written the other
//   way round (expect LANE-MATH).
// - `cg::tiled_partition<32>` is SHFL-OFFSET's cooperative-groups width 32
//   (expect), the one place the tile's width is chosen: the tile's own
//   `blockDim.x / tile.size()` and `tile.size() / 2` follow it (quiet);
//   `tiled_partition<8>` is a sub-group (quiet).
#include <cuda_runtime.h>
// Keep cooperative_groups.h off libcu++ (the project builds without CCCL paths).
#define _CG_LIMIT_INCLUDED_DEPENDENCIES
#include <cooperative_groups.h>
#include <cstdint>
#include <cmath>

namespace cg = cooperative_groups;

enum RowShape : int {
  kStripe = 32,                                                               // expect: W64-LANE-MATH
  kVecWidth = 4,
};

struct Decode {
  static constexpr int kThreads = 256;
  static constexpr int kTeam = 32;                                            // expect: W64-LANE-MATH
};

struct TileShape {
  static constexpr int kCols = 32;                                            // quiet: W64-LANE-MATH
  static constexpr int kRows = 8;
};

constexpr unsigned kAll = 0xffffffffu;                                        // expect: W64-MASK32
constexpr unsigned long long kEvery = ~0ull;                                  // quiet: W64-MASK32

__device__ __forceinline__ int teamOf(int t) { return t >> 5; }               // expect: W64-LANE-MATH
__device__ __forceinline__ int bucketOf(int key) { return key >> 5; }         // quiet: W64-LANE-MATH

__device__ float foldTeam(float v, int width = 32) { for (int o = width / 2; o > 0; o /= 2) v += __shfl_xor_sync(kAll, v, o); return v; }   // expect: W64-SHFL-OFFSET, W64-MASK32

template <int LANES>
__device__ float laneMax(float v) {
  for (int o = LANES / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(kAll, v, o));   // expect: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

template <typename T, int kSpan = 32> __device__ T stripeSum(const T* p, int n, int lane) { T s = T(0); for (int i = lane; i < n; i += kSpan) s += p[i]; return s; }   // expect: W64-LANE-MATH

// Row softmax, Decode::kThreads threads per block, one team per row.
template <class C>
__global__ void __launch_bounds__(C::kThreads) rowSoftmax(const float* __restrict__ in,
                                                          float* __restrict__ out, int rows, int n) {
  const int lane = threadIdx.x % C::kTeam;                                    // expect: W64-LANE-MATH
  const int row = blockIdx.x * (C::kThreads / C::kTeam) + teamOf(threadIdx.x);   // expect: W64-WARP-COUNT
  if (row >= rows) return;
  const float* r = in + static_cast<size_t>(row) * n;
  float m = -INFINITY;
  for (int i = lane; i < n; i += kStripe) m = fmaxf(m, r[i]);                 // expect: W64-LANE-MATH
  m = laneMax<32>(m);
  float s = 0.f;
  for (int i = lane; i < n; i += C::kTeam) s += __expf(r[i] - m);             // expect: W64-LANE-MATH
  for (int o = C::kTeam / 2; o > 0; o >>= 1) s += __shfl_xor_sync(kAll, s, o);    // expect: W64-SHFL-OFFSET, W64-MASK32
  for (int i = lane; i < n; i += warpSize) out[static_cast<size_t>(row) * n + i] = __expf(r[i] - m) / s;   // quiet: W64-LANE-MATH
}
template __global__ void rowSoftmax<Decode>(const float*, float*, int, int);

// Top-p: each row's sorted probabilities, scanned in stripes; the first
// index whose running sum reaches p is the cutoff.
__global__ void topPStripes(const float* __restrict__ sorted, int* __restrict__ cutoff,
                            int rows, int n, float p) {
  auto laneOf = [](unsigned t) { return t & 31u; };                           // expect: W64-LANE-MATH
  const unsigned lane = laneOf(threadIdx.x);
  const int row = blockIdx.x * 4 + teamOf(threadIdx.x);
  if (row >= rows) return;
  const float* r = sorted + static_cast<size_t>(row) * n;
  float carry = 0.f;
  for (int base = 0; base < n; base += kStripe) {                             // expect: W64-LANE-MATH
    const int i = base + static_cast<int>(lane);
    float x = i < n ? r[i] : 0.f;
    const float total = foldTeam(x);
    for (int d = 1; d < kStripe; d <<= 1) {                                   // expect: W64-SHFL-OFFSET
      const float y = __shfl_up_sync(0xffffffffull, x, d);                    // expect: W64-MASK32
      if (lane >= static_cast<unsigned>(d)) x += y;
    }
    const auto hits = __ballot_sync(kEvery, i < n && carry + x >= p);         // quiet: W64-BALLOT-NARROW, W64-MASK32
    if (hits) {
      if (lane == 0) cutoff[row] = base + __ffsll(static_cast<long long>(hits)) - 1;
      return;
    }
    carry += total;
  }
  if (lane == 0) cutoff[row] = n - 1;
}

// Suffix max used by the speculative-decoding verifier: lane keeps the max of
// itself and the lanes after it; lanes past the end keep their own value.
__global__ void suffixMax(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;                                    // quiet: W64-LANE-MATH
  float v = gid < n ? in[gid] : -INFINITY;
  int d = 1;
  while (d < warpSize) {                                                      // quiet: W64-SHFL-OFFSET
    const float o = __shfl_down_sync(kEvery, v, d);                           // quiet: W64-MASK32
    if (lane + d <= 31) v = fmaxf(v, o);                                      // expect: W64-LANE-MATH
    d <<= 1;
  }
  if (gid < n) out[gid] = v;
}

// Fused bias + GELU, then a per-row L2 norm through cooperative groups.
__global__ void biasGeluNorm(float* __restrict__ x, const float* __restrict__ bias,
                             float* __restrict__ norms, int rows, int n) {
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);              // expect: W64-SHFL-OFFSET
  const int row = blockIdx.x * (blockDim.x / tile.size()) + tile.meta_group_rank();   // quiet: W64-WARP-COUNT
  if (row >= rows) return;
  float* r = x + static_cast<size_t>(row) * n;
  float ss = 0.f;
  for (int i = tile.thread_rank(); i < n; i += tile.size()) {
    const float u = r[i] + bias[i];
    const float g = 0.5f * u * (1.f + erff(u * 0.70710678f));
    r[i] = g;
    ss += g * g;
  }
  for (int o = tile.size() / 2; o > 0; o /= 2) ss += tile.shfl_down(ss, o);  // quiet: W64-SHFL-OFFSET
  if (tile.thread_rank() == 0) norms[row] = sqrtf(ss);
}

// Group-wise int8 quantisation scales, 8 consecutive values per group.
__global__ void octetScales(const float* __restrict__ x, float* __restrict__ scales, int n) {
  cg::thread_block_tile<8> oct = cg::tiled_partition<8>(cg::this_thread_block());   // quiet: W64-SHFL-OFFSET
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = i < n ? fabsf(x[i]) : 0.f;
  for (int o = oct.size() / 2; o > 0; o /= 2) a = fmaxf(a, oct.shfl_xor(a, o));
  if (oct.thread_rank() == 0 && i < n) scales[i / 8] = a / 127.f;
}

// Per-row sums, one warp (a block of 32 threads) per row, through the
// stripe helper.
__global__ void rowSums(const float* __restrict__ x, float* __restrict__ out, int n) {
  const float* r = x + static_cast<size_t>(blockIdx.x) * n;
  float s = stripeSum(r, n, static_cast<int>(threadIdx.x));
  const int span = 32; for (int o = span / 2; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);   // expect: W64-SHFL-OFFSET, W64-MASK32
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// Transpose through a padded tile, no shuffle: the 32 is a tile width.
__global__ void transposeTiles(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  __shared__ float tile[TileShape::kCols][TileShape::kCols + 1];
  const int c = threadIdx.x % TileShape::kCols;                               // quiet: W64-LANE-MATH
  const int r0 = threadIdx.x / TileShape::kCols;                              // quiet: W64-LANE-MATH
  const int bx = blockIdx.x * TileShape::kCols, by = blockIdx.y * TileShape::kCols;
  for (int r = r0; r < TileShape::kCols; r += TileShape::kRows)
    if (by + r < rows && bx + c < cols) tile[r][c] = in[static_cast<size_t>(by + r) * cols + bx + c];
  __syncthreads();
  for (int r = r0; r < TileShape::kCols; r += TileShape::kRows)
    if (bx + r < cols && by + c < rows) out[static_cast<size_t>(bx + r) * rows + by + c] = tile[c][r];
}

// Token-id bucketing for a vocab histogram: the shift is a bucket of ids.
__global__ void vocabBuckets(const int* __restrict__ ids, unsigned* __restrict__ counts, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&counts[bucketOf(max(ids[i], 0))], 1u);
}
