// Tuning, round 12. Cause 2: recognition by value, not by name or syntax.
// Domains: mixture-of-experts top-2 gating, dispatch slots, expert load;
// beam search decoding (log-softmax, best token, finished ranks, beam pick).
// Ambiguous calls (labelled as a demanding GPU compiler engineer would expect):
// - kEveryone, a full mask named without "mask": labelled at its definition
//   and at every call that passes it.
// - Top2Cfg::kSpan (32, a neutral member name): LANE-MATH at its definition
//   (first use `threadIdx.x % Cfg::kSpan`); each use in top2Gate<Top2Cfg> gets
//   its own id (`kThreads / kSpan` warp count, `kExperts / kSpan` per-lane
//   split, `j * kSpan + lane` stride, `kSpan / 2` loop start).
// - EXPERT_TILE says "tile" but masks a lane where the code shuffles and
//   matches: LANE-MATH at definition and use; kTail = 31 likewise.
// - `int kLanes = 32` (defaulted template parameter, lane name): LANE-MATH at
//   the default, SHFL-OFFSET at its loop. rowMax<32>: labelled at the loop in
//   the template, not at the call that writes the 32.
// - A lambda and a helper parameter every call passes 32, and a local that
//   keeps 32 (`width`): labelled where used, not at calls or declaration.
// - kNumExperts = 32 sizes a shared histogram indexed by expert ids (data), no
//   warp calls: quiet. The 4-lane tile and its ballot: a sub-group, quiet.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cfloat>
namespace cg = cooperative_groups;
constexpr unsigned kEveryone = 0xffffffffu;                                    // expect: W64-MASK32
#define EXPERT_TILE 32                                                         // expect: W64-LANE-MATH
struct Top2Cfg {
  static constexpr int kExperts = 64;
  static constexpr int kSpan = 32;                                             // expect: W64-LANE-MATH
  static constexpr int kThreads = 128;
};

namespace moe {
constexpr int kNumExperts = 32;
__device__ __forceinline__ bool better(float a, int ia, float b, int ib) { return a > b || (a == b && ia < ib); }

// Top-2 gating: Cfg::kSpan lanes per token, Cfg::kExperts logits per token.
template <typename Cfg>
__global__ void top2Gate(const float* __restrict__ logits, int2* __restrict__ choice,
                         float2* __restrict__ weight, int tokens) {
  const int lane = threadIdx.x % Cfg::kSpan;                                   // expect: W64-LANE-MATH
  const int tok = blockIdx.x * (Cfg::kThreads / Cfg::kSpan) + threadIdx.x / Cfg::kSpan;  // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (tok >= tokens) return;
  const float* row = logits + static_cast<size_t>(tok) * Cfg::kExperts;
  float b1 = -FLT_MAX, b2 = -FLT_MAX;
  int i1 = Cfg::kExperts, i2 = Cfg::kExperts;
#pragma unroll
  for (int j = 0; j < Cfg::kExperts / Cfg::kSpan; ++j) {                      // expect: W64-LANE-MATH
    const int e = j * Cfg::kSpan + lane;                                       // expect: W64-LANE-MATH
    const float x = row[e];
    if (better(x, e, b1, i1)) { b2 = b1; i2 = i1; b1 = x; i1 = e; }
    else if (better(x, e, b2, i2)) { b2 = x; i2 = e; }
  }
  for (int o = Cfg::kSpan / 2; o > 0; o >>= 1) {                               // expect: W64-SHFL-OFFSET
    const float ob1 = __shfl_xor_sync(kEveryone, b1, o);                       // expect: W64-MASK32
    const float ob2 = __shfl_xor_sync(kEveryone, b2, o);                       // expect: W64-MASK32
    const int oi1 = __shfl_xor_sync(kEveryone, i1, o);                         // expect: W64-MASK32
    const int oi2 = __shfl_xor_sync(kEveryone, i2, o);                         // expect: W64-MASK32
    if (better(b1, i1, ob1, oi1)) { if (better(ob1, oi1, b2, i2)) { b2 = ob1; i2 = oi1; } }
    else { if (better(b1, i1, ob2, oi2)) { b2 = b1; i2 = i1; } else { b2 = ob2; i2 = oi2; } b1 = ob1; i1 = oi1; }
  }
  if (lane != 0) return;
  choice[tok] = make_int2(i1, i2);
  weight[tok] = make_float2(1.f / (1.f + __expf(b2 - b1)), 1.f / (1.f + __expf(b1 - b2)));
}

// Dispatch: tokens of a warp routed to the same expert take consecutive slots.
__global__ void dispatchSlots(const int2* __restrict__ choice, int* __restrict__ load,
                              int* __restrict__ slot, int tokens) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & (EXPERT_TILE - 1);                            // expect: W64-LANE-MATH
  const bool live = t < tokens;
  const int expert = live ? choice[t].x : -1;
  const unsigned peers = __match_any_sync(kEveryone, expert);                  // expect: W64-MASK32, W64-BALLOT-NARROW
  const int leader = __ffs(peers) - 1;                                         // expect: W64-BALLOT-NARROW
  int base = 0;
  if (live && lane == leader) base = atomicAdd(&load[expert], __popc(peers));  // expect: W64-BALLOT-NARROW
  base = __shfl_sync(kEveryone, base, leader);                                 // expect: W64-MASK32
  if (live) slot[t] = base + __popc(peers & ((1u << lane) - 1u));              // expect: W64-BALLOT-NARROW
}

// Per-block expert load of both choices in shared memory: 32 experts, no warp-level work.
__global__ void expertLoad(const int2* __restrict__ choice, int* __restrict__ load, int tokens) {
  __shared__ int hist[kNumExperts];                                            // quiet: W64-WARP-COUNT
  if (threadIdx.x < kNumExperts) hist[threadIdx.x] = 0;                        // quiet: W64-LANE-MATH
  __syncthreads();
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < tokens; t += blockDim.x * gridDim.x) {
    const int2 c = choice[t];
    atomicAdd(&hist[c.x % kNumExperts], 1);                                    // quiet: W64-LANE-MATH
    atomicAdd(&hist[c.y % kNumExperts], 1);
  }
  __syncthreads();
  if (threadIdx.x < kNumExperts) atomicAdd(&load[threadIdx.x], hist[threadIdx.x]);
}

template <typename T, int kLanes = 32>                                         // expect: W64-LANE-MATH
__device__ __forceinline__ T groupSum(T v) {
  for (int o = kLanes / 2; o > 0; o >>= 1) v += __shfl_down_sync(kEveryone, v, o);  // expect: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

// Auxiliary load-balancing loss: sum over tokens of the top-1 gate weight, one atomic per warp.
__global__ void auxLoss(const float2* __restrict__ weight, float* __restrict__ loss, int tokens) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float w = t < tokens ? weight[t].x : 0.f;
  const float s = groupSum(w);
  if (threadIdx.x % warpSize == 0) atomicAdd(loss, s);                          // quiet: W64-LANE-MATH
}
template __global__ void top2Gate<Top2Cfg>(const float*, int2*, float2*, int);
}  // namespace moe

namespace beam {
constexpr int kTail = 31;                                                      // expect: W64-LANE-MATH
__device__ __forceinline__ int laneOf(int t, int span) { return t % span; }    // expect: W64-LANE-MATH
template <int W>
__device__ __forceinline__ float rowMax(float v) {
  for (int o = W / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(kEveryone, v, o));  // expect: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

// Log-softmax of each beam row in place, one warp per row.
__global__ void logSoftmaxRows(float* __restrict__ logits, int rows, int vocab) {
  const int lane = threadIdx.x % warpSize;
  const int r = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (r >= rows) return;
  float* row = logits + static_cast<size_t>(r) * vocab;
  float m = -FLT_MAX;
  for (int v = lane; v < vocab; v += warpSize) m = fmaxf(m, row[v]);           // quiet: W64-LANE-MATH
  m = rowMax<32>(m);
  float s = 0.f;
  for (int v = lane; v < vocab; v += warpSize) s += __expf(row[v] - m);
  const int width = 32;
  for (int d = width / 2; d > 0; d >>= 1) {                                    // expect: W64-SHFL-OFFSET
    const float o = __shfl_down_sync(kEveryone, s, d);                         // expect: W64-MASK32
    if (lane + d < 32) s += o;                                                 // expect: W64-LANE-MATH
  }
  s = __shfl_sync(kEveryone, s, 0);                                            // expect: W64-MASK32
  const float lse = m + __logf(s);
  for (int v = lane; v < vocab; v += warpSize) row[v] -= lse;
}

// One warp per beam: best next token (score + log-prob).
__global__ void bestToken(const float* __restrict__ logp, const float* __restrict__ score,
                          int* __restrict__ token, float* __restrict__ next, int beams, int vocab) {
  auto warpArgMax = [](float& v, int& i, int width) {
    for (int o = width / 2; o > 0; o >>= 1) {                                  // expect: W64-SHFL-OFFSET
      const float ov = __shfl_xor_sync(kEveryone, v, o);                       // expect: W64-MASK32
      const int oi = __shfl_xor_sync(kEveryone, i, o);                         // expect: W64-MASK32
      if (ov > v || (ov == v && oi < i)) { v = ov; i = oi; }
    }
  };
  const int lane = threadIdx.x % warpSize;
  const int b = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (b >= beams) return;
  const float* row = logp + static_cast<size_t>(b) * vocab;
  float best = -FLT_MAX; int idx = vocab;
  for (int v = lane; v < vocab; v += warpSize) if (row[v] > best) { best = row[v]; idx = v; }
  warpArgMax(best, idx, 32);
  if (lane == 0) { token[b] = idx; next[b] = score[b] + best; }
}

// Rank of each finished hypothesis among the beams of its batch entry (beams <= 32).
__global__ void finishedRank(const int* __restrict__ token, int* __restrict__ rank,
                             int* __restrict__ done, int batch, int beams, int eos) {
  const int lane = laneOf(threadIdx.x, 32);
  const int entry = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (entry >= batch) return;
  const bool fin = lane < beams && token[entry * beams + lane] == eos;
  int x = fin ? 1 : 0;
  for (int d = 1, lim = 32; d < lim; d <<= 1) {                                // expect: W64-SHFL-OFFSET
    const int y = __shfl_up_sync(kEveryone, x, d);                             // expect: W64-MASK32
    if (lane >= d) x += y;
  }
  if (lane < beams) rank[entry * beams + lane] = fin ? x - 1 : -1;
  if (lane == kTail) done[entry] = x;                                          // expect: W64-LANE-MATH
}

// Four beams per batch entry: a tile of 32 scans each beam's row, a 4-lane tile picks the beam.
__global__ void pickBeam(const float* __restrict__ logp, const float* __restrict__ score,
                         int* __restrict__ pick, int vocab) {
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);               // expect: W64-SHFL-OFFSET
  cg::thread_block_tile<4> quad = cg::tiled_partition<4>(tile);                // quiet: W64-SHFL-OFFSET
  __shared__ float best[4];
  const int b = tile.meta_group_rank();
  const int entry = blockIdx.x;  // one batch entry per block of 128 threads
  const float* row = logp + (static_cast<size_t>(entry) * 4 + b) * vocab;
  float m = -FLT_MAX;
  for (int v = tile.thread_rank(); v < vocab; v += tile.size()) m = fmaxf(m, row[v]);  // quiet: W64-LANE-MATH
  m = cg::reduce(tile, m, cg::greater<float>());
  if (tile.thread_rank() == 0) best[b] = m + score[entry * 4 + b];
  cta.sync();
  if (b == 0 && quad.meta_group_rank() == 0) {
    const float x = best[quad.thread_rank()];
    const float top = cg::reduce(quad, x, cg::greater<float>());
    const unsigned winners = quad.ballot(x == top);                            // quiet: W64-BALLOT-NARROW
    if (quad.thread_rank() == 0) pick[entry] = __ffs(winners) - 1;             // quiet: W64-BALLOT-NARROW
  }
}
}  // namespace beam
