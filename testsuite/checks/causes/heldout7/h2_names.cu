// Held out, round 7. Cause 2: recognition by value, not by name or syntax.
// Ambiguous calls (labelled as a demanding GPU engineer would expect):
// - The unit reads the whole warp (a ballot in rowTopK), so it is no
//   consistent 32-lane grouping: every finding here is a warning (expect).
// - A 32 held by a constant whose name says nothing of warps (kEveryone,
//   Sweep::kWidth) is labelled at its definition, where the check pages put
//   the finding (the line to change), and also at each use the check would
//   report there: a use folded into its definition counts at its own line
//   as a related location, with the id the check gives at the use.
// - segMax<float, 32>: the loop start SEG / 2 is a template parameter whose
//   value comes from the instantiation; labelled at the loop, where the start
//   is written (the SHFL page: "the message names the instantiation").
// - laneOf / atLastLane: a lambda and a helper whose parameters every call
//   passes a thread index or a lane; labelled where the 31 is written.
// - The scan bound is written `d <= 16` and stepped `d += d` (the SHFL page's
//   "or d <= 16"), and its mask is spelled `uint32_t(-1)`.
// - kEdge = 32 is a tile edge in a kernel that neither shuffles nor calls or
//   is called by anything that does (quiet).
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdint>

namespace sel {

constexpr unsigned kEveryone = 0xffffffffu;                           // expect: W64-MASK32

struct Sweep {
  static constexpr int kWidth = 32;                                   // expect: W64-LANE-MATH
  static constexpr int kRowsPerBlock = 4;
};

template <typename T, int SEG>
__device__ __forceinline__ T segMax(T v) {
  for (int o = SEG / 2; o > 0; o >>= 1)                               // expect: W64-SHFL-OFFSET
    v = fmaxf(v, __shfl_xor_sync(kEveryone, v, o));                   // expect: W64-MASK32
  return v;
}

// Top-k of short rows (n <= 32) by repeated arg-max: each round the warp finds
// its largest remaining score and the lane that holds it retires it.
template <class Cfg>
__global__ void rowTopK(const float* __restrict__ score, int* __restrict__ outIdx,
                        float* __restrict__ outVal, int rows, int n, int k) {
  const int lane = threadIdx.x % Cfg::kWidth;                         // expect: W64-LANE-MATH
  const int row = blockIdx.x * Cfg::kRowsPerBlock + threadIdx.x / Cfg::kWidth;   // expect: W64-LANE-MATH
  if (row >= rows) return;
  float mine = lane < n ? score[static_cast<size_t>(row) * n + lane] : -FLT_MAX;
  for (int r = 0; r < k; ++r) {
    const float top = segMax<float, 32>(mine);
    auto owners = __ballot_sync(kEveryone, mine == top);              // expect: W64-MASK32
    const int src = __ffs(owners) - 1;                                // expect: W64-BALLOT-NARROW
    if (lane == src) {
      outIdx[row * k + r] = src;
      outVal[row * k + r] = top;
      mine = -FLT_MAX;
    }
  }
}

// Helpers whose parameters are lanes by every call.
struct LaneOps {
  static __device__ __forceinline__ bool atLastLane(int l, int d) { return l + d > 31; }   // expect: W64-LANE-MATH
};

// Local offsets of kept elements (stream compaction, warp part): inclusive
// scan of the keep flags, the last lane adds the warp's count to a total.
__global__ void keepOffsets(const uint8_t* __restrict__ keep, int* __restrict__ pos,
                            int* __restrict__ total, int n) {
  auto laneOf = [](unsigned t) { return t & 31u; };                   // expect: W64-LANE-MATH
  const int lane = static_cast<int>(laneOf(threadIdx.x));
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int f = (gid < n && keep[gid]) ? 1 : 0;
  int x = f;
  for (int d = 1; d <= 16; d += d) {                                  // expect: W64-SHFL-OFFSET
    const int y = __shfl_up_sync(uint32_t(-1), x, d);                 // expect: W64-MASK32
    if (lane >= d) x += y;
  }
  if (f) pos[gid] = x - 1;
  if (LaneOps::atLastLane(lane, 1)) atomicAdd(total, x);
}

constexpr int kEdge = 32;

// Out-of-place transpose through a padded tile (no warp-level work).
__global__ void transposeTile(const float* __restrict__ a, float* __restrict__ b, int h, int w) {
  __shared__ float tile[kEdge][kEdge + 1];                           // quiet: W64-WARP-COUNT
  const int x = blockIdx.x * kEdge + threadIdx.x;                     // quiet: W64-LANE-MATH
  const int y0 = blockIdx.y * kEdge;
  for (int j = threadIdx.y; j < kEdge; j += blockDim.y)
    if (x < w && y0 + j < h) tile[j][threadIdx.x] = a[static_cast<size_t>(y0 + j) * w + x];
  __syncthreads();
  const int tx = blockIdx.y * kEdge + threadIdx.x;
  for (int j = threadIdx.y; j < kEdge; j += blockDim.y) {
    const int ty = blockIdx.x * kEdge + j;
    if (tx < h && ty < w) b[static_cast<size_t>(ty) * h + tx] = tile[threadIdx.x][j];
  }
}

}  // namespace sel

void launchTopK(const float* s, int* idx, float* val, int rows, int n, int k, cudaStream_t st) {
  const int blocks = (rows + sel::Sweep::kRowsPerBlock - 1) / sel::Sweep::kRowsPerBlock;
  sel::rowTopK<sel::Sweep><<<blocks, 128, 0, st>>>(s, idx, val, rows, n, k);
}
