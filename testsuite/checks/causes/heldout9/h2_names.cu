// Held out, round 9. Cause 2: recognition by value, not by name or syntax.
// Domains: BFS frontier expansion, k-means assignment, Monte Carlo option pricing.
// Ambiguous calls (labelled from the check pages, never checked with the tool):
// - kEveryone is an enumerator holding the full 32-bit mask under a name
//   without "mask": W64-MASK32 at its definition and at every *_sync call that
//   passes it (the calls are related locations of the definition).
// - FrontierCfg::kGroup = 32 is a template member read by bfsExpand<FrontierCfg>:
//   LANE-MATH at the member, and at each use the id the check gives there
//   (LANE-MATH for lane, slot and stride, WARP-COUNT for kThreads / kGroup).
// - kLastLane = 31 (a lane name), kHalfSpan = 16 and kStride = 32 (names that
//   say nothing) are read in shuffling kernels: reported at the definition,
//   each use labelled at its own line. kHalfSpan's only use is a loop start,
//   so its definition carries SHFL-OFFSET.
// - spanSum(v, width): every call passes 32 and the body halves it. The pages
//   say a passed value is reported at the calls; the loop that reads it is
//   labelled too (both places carry SHFL-OFFSET). foldLanes<W>: the same for a
//   template argument written at the call (`foldLanes<32>`).
// - laneMin<Lanes = 32>: the default and the loop that halves it share a line.
// - kmeansAssign's lambda captures `span`, a local kept at 32: the local and
//   the loop are both labelled.
// - `32 - lane > d` is `lane + d < 32` rearranged (expect).
// - The while loop's offset starts from a local 16 declared on the loop's line.
// - kBatch = 32 counts paths per thread in a shuffling kernel and never meets
//   a thread index (quiet). The LCG state is seeded from the thread index and
//   shifted by 8 (not a lane shape; unlabelled).
// - kmeansInertia: cg::tiled_partition<32> is W64-SHFL-OFFSET; its shuffles
//   from tile.size() / 2 are quiet; kBlockThreads / 32 slots are warp counts.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cfloat>
#include <cstdint>

namespace cg = cooperative_groups;

enum LaneSet : unsigned { kEveryone = 0xffffffffu };                           // expect: W64-MASK32
constexpr int kLastLane = 31;                                                  // expect: W64-LANE-MATH
constexpr int kHalfSpan = 16;                                                  // expect: W64-SHFL-OFFSET
constexpr int kStride = 32;                                                    // expect: W64-LANE-MATH
constexpr int kBatch = 32;                                                     // quiet: W64-LANE-MATH, W64-SHFL-OFFSET
constexpr int kBlockThreads = 256;

struct FrontierCfg {
  static constexpr int kThreads = 256;
  static constexpr int kGroup = 32;                                            // expect: W64-LANE-MATH
};

// Down-sweep over `width` lanes; lane 0 ends with the total.
__device__ __forceinline__ float spanSum(float v, int width) {
  for (int o = width / 2; o > 0; o >>= 1) v += __shfl_down_sync(kEveryone, v, o);   // expect: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

template <int W>
__device__ __forceinline__ int foldLanes(int v) {
  for (int o = W >> 1; o > 0; o >>= 1) v += __shfl_xor_sync(kEveryone, v, o);       // expect: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

template <int Lanes = 32> __device__ __forceinline__ float laneMin(float v) { for (int o = Lanes / 2; o > 0; o >>= 1) v = fminf(v, __shfl_xor_sync(kEveryone, v, o)); return v; }   // expect: W64-SHFL-OFFSET, W64-MASK32

// Top-down BFS step: one group of Cfg::kGroup threads expands one frontier vertex.
template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads)
bfsExpand(const int* __restrict__ rowPtr, const int* __restrict__ colIdx,
          const int* __restrict__ frontier, int frontierSize, int* __restrict__ level,
          int depth, int* __restrict__ next, int* __restrict__ nextSize) {
  const int lane = threadIdx.x % Cfg::kGroup;                                  // expect: W64-LANE-MATH
  const int slot = threadIdx.x / Cfg::kGroup;                                  // expect: W64-LANE-MATH
  const int groups = Cfg::kThreads / Cfg::kGroup;                              // expect: W64-WARP-COUNT
  for (int f = blockIdx.x * groups + slot; f < frontierSize; f += gridDim.x * groups) {
    const int v = frontier[f];
    const int beg = rowPtr[v], end = rowPtr[v + 1];
    for (int e0 = beg; e0 < end; e0 += Cfg::kGroup) {                          // expect: W64-LANE-MATH
      const int e = e0 + lane;
      int nb = -1;
      if (e < end) {
        nb = colIdx[e];
        if (atomicCAS(&level[nb], -1, depth + 1) != -1) nb = -1;
      }
      const unsigned claimed = __ballot_sync(kEveryone, nb >= 0);              // expect: W64-MASK32, W64-BALLOT-NARROW
      if (!claimed) continue;
      int pos = 0;
      if (lane == 0) pos = atomicAdd(nextSize, __popc(claimed));               // expect: W64-BALLOT-NARROW
      pos = __shfl_sync(kEveryone, pos, 0);                                    // expect: W64-MASK32
      if (nb >= 0) next[pos + __popc(claimed & ((1u << lane) - 1))] = nb;      // expect: W64-BALLOT-NARROW
    }
  }
}

// Frontier load balancing: a warp takes consecutive frontier vertices, one per
// lane, and computes each vertex's exclusive suffix of degrees (the scatter
// runs in reverse), the warp's total degree and its largest degree.
__global__ void bfsFrontierDegrees(const int* __restrict__ rowPtr, const int* __restrict__ frontier,
                                   int frontierSize, int* __restrict__ suffix,
                                   int* __restrict__ warpTotal, int* __restrict__ warpMax) {
  const int lane = threadIdx.x % warpSize;                                     // quiet: W64-LANE-MATH
  const int f = blockIdx.x * blockDim.x + threadIdx.x;
  const int gw = f / warpSize;
  const int v = f < frontierSize ? frontier[f] : -1;
  const int deg = v >= 0 ? rowPtr[v + 1] - rowPtr[v] : 0;
  int suf = deg;
  for (int d = 1; d < 32; d <<= 1) {                                           // expect: W64-SHFL-OFFSET
    const int t = __shfl_down_sync(kEveryone, suf, d);                         // expect: W64-MASK32
    if (32 - lane > d) suf += t;                                               // expect: W64-LANE-MATH
  }
  int total = deg;
  int step = 16; while (step > 0) { total += __shfl_xor_sync(kEveryone, total, step); step >>= 1; }   // expect: W64-SHFL-OFFSET, W64-MASK32
  int mx = deg;
  for (int o = kHalfSpan; o > 0; o >>= 1) mx = max(mx, __shfl_xor_sync(kEveryone, mx, o));   // expect: W64-SHFL-OFFSET, W64-MASK32
  if (f < frontierSize) suffix[f] = suf - deg;
  if (lane == 0) { warpTotal[gw] = total; warpMax[gw] = mx; }
}

// k-means assignment: one warp per point, lanes stride over the dimensions.
__global__ void kmeansAssign(const float* __restrict__ pts, const float* __restrict__ cent, int n,
                             int k, int dims, int* __restrict__ assign, float* __restrict__ dist2) {
  const int lane = threadIdx.x & kLastLane;                                    // expect: W64-LANE-MATH
  const int p = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (p >= n) return;
  const float* x = pts + static_cast<size_t>(p) * dims;
  const int span = 32;                                                         // expect: W64-SHFL-OFFSET
  auto allSum = [span](float v) {
    for (int o = span / 2; o > 0; o >>= 1) v += __shfl_xor_sync(kEveryone, v, o);   // expect: W64-SHFL-OFFSET, W64-MASK32
    return v;
  };
  float best = FLT_MAX;
  int bestC = 0;
  for (int c = 0; c < k; ++c) {
    const float* m = cent + static_cast<size_t>(c) * dims;
    float d2 = 0.f;
    for (int d = lane; d < dims; d += kStride) { const float t = x[d] - m[d]; d2 = fmaf(t, t, d2); }   // expect: W64-LANE-MATH
    d2 = allSum(d2);
    if (d2 < best) { best = d2; bestC = c; }
  }
  if (lane == kLastLane) { assign[p] = bestC; dist2[p] = best; }               // expect: W64-LANE-MATH
}

// Inertia (sum of squared distances) of an assignment.
__global__ void __launch_bounds__(kBlockThreads)
kmeansInertia(const float* __restrict__ dist2, int n, float* __restrict__ total) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);                                  // expect: W64-SHFL-OFFSET
  __shared__ float tileSums[kBlockThreads / 32];                               // expect: W64-WARP-COUNT
  float v = 0.f;
  for (int i = blockIdx.x * kBlockThreads + threadIdx.x; i < n; i += gridDim.x * kBlockThreads) v += dist2[i];
  for (int o = tile.size() / 2; o > 0; o >>= 1) v += tile.shfl_down(v, o);     // quiet: W64-SHFL-OFFSET
  if (tile.thread_rank() == 0) tileSums[tile.meta_group_rank()] = v;
  block.sync();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int i = 0; i < kBlockThreads / 32; ++i) t += tileSums[i];             // expect: W64-WARP-COUNT
    atomicAdd(total, t);
  }
}

// European call by Monte Carlo: a warp prices one option; each lane draws
// kBatch antithetic pairs. Outputs the discounted mean's sums, the in-the-money
// count and the smallest lane payoff (a sanity check).
__global__ void mcEuropeanCall(const float* __restrict__ spot, const float* __restrict__ strike,
                               int numOptions, float rate, float vol, float T, uint32_t seed,
                               float* __restrict__ sum, float* __restrict__ sumSq,
                               int* __restrict__ itm, float* __restrict__ minPay) {
  const int lane = threadIdx.x % warpSize;                                     // quiet: W64-LANE-MATH
  const int opt = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (opt >= numOptions) return;
  const float s0 = spot[opt], k = strike[opt];
  const float drift = (rate - 0.5f * vol * vol) * T, diff = vol * sqrtf(T);
  uint32_t s = seed ^ ((blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u);
  float acc = 0.f, acc2 = 0.f, lo = FLT_MAX;
  int hits = 0;
  for (int p = 0; p < kBatch; ++p) {                                           // quiet: W64-LANE-MATH, W64-SHFL-OFFSET
    s = s * 1664525u + 1013904223u; const float u1 = (s >> 8) * (1.f / 16777216.f) + 1e-7f;
    s = s * 1664525u + 1013904223u; const float u2 = (s >> 8) * (1.f / 16777216.f);
    const float z = sqrtf(-2.f * logf(u1)) * cospif(2.f * u2);
    const float pay = 0.5f * (fmaxf(s0 * expf(drift + diff * z) - k, 0.f) + fmaxf(s0 * expf(drift - diff * z) - k, 0.f));
    acc += pay; acc2 += pay * pay; lo = fminf(lo, pay); hits += pay > 0.f;
  }
  acc = spanSum(acc, 32);                                                      // expect: W64-SHFL-OFFSET
  acc2 = spanSum(acc2, 32);                                                    // expect: W64-SHFL-OFFSET
  hits = foldLanes<32>(hits);                                                  // expect: W64-SHFL-OFFSET
  lo = laneMin(lo);
  if (lane == 0) {
    const float disc = expf(-rate * T);
    sum[opt] = disc * acc; sumSq[opt] = disc * disc * acc2; itm[opt] = hits; minPay[opt] = lo;
  }
}

void bfsStep(const int* rowPtr, const int* colIdx, const int* frontier, int frontierSize, int* level,
             int depth, int* next, int* nextSize, cudaStream_t stream) {
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  const int blocks = frontierSize < 8 * sms ? (frontierSize + 7) / 8 : 4 * sms;  // grid-stride loop covers the rest
  bfsExpand<FrontierCfg><<<blocks, FrontierCfg::kThreads, 0, stream>>>(rowPtr, colIdx, frontier, frontierSize,
                                                                      level, depth, next, nextSize);
}
