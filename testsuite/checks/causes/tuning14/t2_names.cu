// Tuning round 14. Cause 2: recognition by value, not by name or syntax.
// Domains: rotary position embeddings (PyTorch-extension-like: a fused
// rotate + per-head RMS norm, an fp8 amax pass dispatched by a switch on a
// runtime group width), Louvain modularity
// (Kokkos-like functor class template run by a generic team kernel).
// Labels were written from docs/checks only; the tool was never run on this file.
// Ambiguous calls:
// - A constant whose name says nothing of warps (xops::kSpan, Cfg::kTeam, the
//   enumerator kSliceThreads, the template default kWidth) is reported at its
//   definition; every use line is labelled with the id its check gives there.
//   Each such constant's first use in the file is lane math, so the definition
//   is labelled LANE-MATH whichever reading of "first use" holds.
// - rotary_amax_kernel<scalar_t, kGroup> is instantiated with 8, 16 and 32 from
//   a switch. The findings of the 32 instantiation are labelled at the template's
//   lines (the pages: "the message names the instantiation"), not at `case 32:`.
// - team_argmax(g, c, 32): a lambda parameter every call gives 32, reported
//   where it is used (`width / 2`), not at the call.
// - `int off = xops::kSpan / 2; while (off > 0)`: written on one line, the start
//   and the loop together.
// - xops::suffix_sum has no caller in the unit (a header helper): its `lane`
//   parameter is a thread index by name, the reversed `32 > lane + d` a finding.
// - slice_of(int x) does no warp work but every call passes threadIdx.x and its
//   caller shuffles: `x >> 5` is lane math (expect, warning or note).
// - The 8/16-wide instantiations are sub-warp groups: no findings. kCachePairs
//   = 32 lives only in a kernel without shuffles (a size of the data): quiet.
// - The host launches use no 32 (items per block passed as a runtime value).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>

namespace xops {

static constexpr int kSpan = 32;                                                    // expect: W64-LANE-MATH
constexpr unsigned kAll = 0xffffffffu;                                              // expect: W64-MASK32
constexpr int kCachePairs = 32;                                                     // quiet: W64-LANE-MATH

template <typename T, int kWidth = 32>                                              // expect: W64-LANE-MATH
__device__ __forceinline__ void width_sum_atomic(T v, T* target) {
  const bool leader = (threadIdx.x % kWidth) == 0;                                  // expect: W64-LANE-MATH
  for (int o = kWidth / 2; o > 0; o >>= 1) v += __shfl_down_sync(kAll, v, o);       // expect: W64-SHFL-OFFSET, W64-MASK32
  if (leader) atomicAdd(target, v);
}

// Suffix sums over the lanes (header helper; callers pass their lane).
__device__ __forceinline__ int suffix_sum(int v, int lane) {
  for (int d = 1; d < warpSize; d <<= 1) {
    const int o = __shfl_down_sync(kAll, v, d);                                     // expect: W64-MASK32
    if (32 > lane + d) v += o;                                                      // expect: W64-LANE-MATH
  }
  return v;
}

}  // namespace xops

// ---------------------------------------------------------------- rotary ----

// cos/sin cache: row p holds kCachePairs cos values then kCachePairs sin values.
__global__ void rope_cache_kernel(float* __restrict__ cache, int max_pos, float base) {
  const int pair = threadIdx.x % xops::kCachePairs;                                 // quiet: W64-LANE-MATH
  const int p = blockIdx.x * (blockDim.x / xops::kCachePairs) + threadIdx.x / xops::kCachePairs;   // quiet: W64-LANE-MATH, W64-WARP-COUNT
  if (p >= max_pos) return;
  const float inv_freq = powf(base, -2.f * pair / (2 * xops::kCachePairs));
  cache[p * 2 * xops::kCachePairs + pair] = cosf(p * inv_freq);
  cache[p * 2 * xops::kCachePairs + xops::kCachePairs + pair] = sinf(p * inv_freq);
}

// NeoX-style rotation of q and the inverse RMS of the rotated head (applied later);
// one span of xops::kSpan threads per (token, head).
template <typename scalar_t>
__global__ void rotary_qknorm_kernel(scalar_t* __restrict__ q, const float* __restrict__ cos_sin,
                                     const int64_t* __restrict__ pos, int items, int num_heads, int rot_dim,
                                     float eps, float* __restrict__ inv_rms) {
  const int lane = threadIdx.x % xops::kSpan, item = (blockIdx.x * blockDim.x + threadIdx.x) / xops::kSpan;   // expect: W64-LANE-MATH
  if (item >= items) return;
  scalar_t* qh = q + static_cast<int64_t>(item) * rot_dim;
  const float* cs = cos_sin + pos[item / num_heads] * rot_dim;
  const int half = rot_dim / 2;
  float ss = 0.f;
  for (int i = lane; i < half; i += xops::kSpan) {                                  // expect: W64-LANE-MATH
    const float x1 = static_cast<float>(qh[i]), x2 = static_cast<float>(qh[i + half]);
    const float c = cs[i], s = cs[i + half];
    const float y1 = x1 * c - x2 * s, y2 = x2 * c + x1 * s;
    qh[i] = static_cast<scalar_t>(y1);
    qh[i + half] = static_cast<scalar_t>(y2);
    ss += y1 * y1 + y2 * y2;
  }
  int off = xops::kSpan / 2; while (off > 0) {                                      // expect: W64-SHFL-OFFSET
    ss += __shfl_xor_sync(xops::kAll, ss, off);                                     // expect: W64-MASK32
    off >>= 1;
  }
  if (lane == 0) inv_rms[item] = rsqrtf(ss / rot_dim + eps);
}

// Rotated amax per head for an fp8 scale; kGroup threads per head.
template <typename scalar_t, int kGroup>
__global__ void rotary_amax_kernel(const scalar_t* __restrict__ q, const float* __restrict__ cos_sin,
                                   int items, int per_block, int rot_dim, float* __restrict__ amax) {
  const int g = threadIdx.x % kGroup, item = blockIdx.x * per_block + threadIdx.x / kGroup;   // expect: W64-LANE-MATH
  if (item >= items) return;
  const scalar_t* qh = q + static_cast<int64_t>(item) * rot_dim;
  float m = 0.f;
  for (int i = g; i < rot_dim / 2; i += kGroup) {                                   // expect: W64-LANE-MATH
    const float a = static_cast<float>(qh[i]), b = static_cast<float>(qh[i + rot_dim / 2]);
    m = fmaxf(m, fmaxf(fabsf(a * cos_sin[i] - b * cos_sin[i + rot_dim / 2]), fabsf(b * cos_sin[i] + a * cos_sin[i + rot_dim / 2])));
  }
  for (int o = kGroup / 2; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(xops::kAll, m, o));   // expect: W64-SHFL-OFFSET, W64-MASK32
  if (g == 0) amax[item] = m;
}

enum class ScalarKind { kFloat, kHalf };

template <typename scalar_t>
void rotary_amax_by_group(const void* q, const float* cs, int items, int rot_dim, int group, float* amax,
                          cudaStream_t stream) {
  const int per_block = 256 / group;                                                // quiet: W64-WARP-COUNT
  const int grid = (items + per_block - 1) / per_block;
  const scalar_t* qt = static_cast<const scalar_t*>(q);
  switch (group) {
    case 8: rotary_amax_kernel<scalar_t, 8><<<grid, 256, 0, stream>>>(qt, cs, items, per_block, rot_dim, amax); break;   // quiet: W64-LANE-MATH, W64-SHFL-OFFSET
    case 16: rotary_amax_kernel<scalar_t, 16><<<grid, 256, 0, stream>>>(qt, cs, items, per_block, rot_dim, amax); break;  // quiet: W64-LANE-MATH, W64-SHFL-OFFSET
    default: rotary_amax_kernel<scalar_t, 32><<<grid, 256, 0, stream>>>(qt, cs, items, per_block, rot_dim, amax); break;
  }
}

void rotary_qknorm(float* q, const float* cs, const int64_t* pos, int tokens, int heads, int rot_dim, float eps,
                   float* inv_rms, cudaStream_t stream) {
  const int items = tokens * heads;
  rotary_qknorm_kernel<float><<<(items + 7) / 8, 256, 0, stream>>>(q, cs, pos, items, heads, rot_dim, eps, inv_rms);
}

void rotary_amax(ScalarKind kind, const void* q, const float* cs, int items, int rot_dim, int group, float* amax,
                 cudaStream_t stream) {
  switch (kind) {
    case ScalarKind::kFloat: rotary_amax_by_group<float>(q, cs, items, rot_dim, group, amax, stream); break;
    case ScalarKind::kHalf: rotary_amax_by_group<__half>(q, cs, items, rot_dim, group, amax, stream); break;
  }
}

// --------------------------------------------------------------- louvain ----

struct LouvainCfg {
  static constexpr int kThreads = 256;
  static constexpr int kTeam = 32;                                                  // expect: W64-LANE-MATH
};

template <class Cfg>
class ModularityGain {
 public:
  const int* rowptr; const int* adj; const float* w; const int* comm;
  const float* commTot; const float* degree; float inv2m; int n;
  int* bestComm; float* bestGain;

  __device__ void operator()(int league) const {
    const int lane = threadIdx.x % Cfg::kTeam, team = threadIdx.x / Cfg::kTeam;    // expect: W64-LANE-MATH
    const int v = league * (Cfg::kThreads / Cfg::kTeam) + team;                     // expect: W64-WARP-COUNT
    if (v >= n) return;
    const int own = comm[v];
    const float kv = degree[v];
    float g = 0.f;
    int c = own;
    for (int e = rowptr[v] + lane; e < rowptr[v + 1]; e += Cfg::kTeam) {            // expect: W64-LANE-MATH
      const int cu = comm[adj[e]];
      const float gain = cu == own ? 0.f : w[e] - commTot[cu] * kv * inv2m;
      if (gain > g) { g = gain; c = cu; }
    }
    // Gains are >= 0, so their bits order as the floats do: pack (gain, ~community).
    auto team_argmax = [](unsigned long long key, int width) {
      for (int o = width / 2; o > 0; o /= 2) {                                      // expect: W64-SHFL-OFFSET
        const unsigned long long other = __shfl_down_sync(xops::kAll, key, o);     // expect: W64-MASK32
        key = other > key ? other : key;
      }
      return key;
    };
    const unsigned long long best =
        team_argmax((static_cast<unsigned long long>(__float_as_uint(g)) << 32) | ~static_cast<unsigned>(c), 32);
    if (lane == 0) { bestComm[v] = static_cast<int>(~static_cast<unsigned>(best)); bestGain[v] = __uint_as_float(best >> 32); }
  }
};

template <class Functor>
__global__ void run_league(Functor f) { f(static_cast<int>(blockIdx.x)); }

enum SliceShape : int { kSliceThreads = 32, kSlicesPerBlock = 8 };                  // expect: W64-LANE-MATH

__device__ __forceinline__ int slice_of(int x) { return x >> 5; }                   // expect: W64-LANE-MATH

// Vertex degrees and community totals (both zeroed before): one slice of threads per vertex.
__global__ void community_totals(const int* __restrict__ rowptr, const float* __restrict__ w,
                                 const int* __restrict__ comm, int n, float* __restrict__ commTot,
                                 float* __restrict__ degree) {
  const int v = blockIdx.x * kSlicesPerBlock + slice_of(threadIdx.x);
  if (v >= n) return;
  float part = 0.f;
  for (int e = rowptr[v] + threadIdx.x % kSliceThreads; e < rowptr[v + 1]; e += kSliceThreads) part += w[e];   // expect: W64-LANE-MATH
  xops::width_sum_atomic(part, &degree[v]);
  xops::width_sum_atomic(part, &commTot[comm[v]]);
}

// Applies the moves with a positive gain and flags the moved vertices in a bitmap.
__global__ void apply_moves(const int* __restrict__ bestComm, const float* __restrict__ bestGain, int n,
                            int* __restrict__ comm, unsigned* __restrict__ movedBits) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || !(bestGain[v] > 0.f)) return;
  comm[v] = bestComm[v];
  atomicOr(&movedBits[v / 32], 1u << (v % 32));                                     // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
}

void louvain_sweep(const int* rowptr, const int* adj, const float* w, int* comm, float* commTot, float* degree,
                   float total_w, int n, int* bestComm, float* bestGain, unsigned* movedBits, cudaStream_t stream) {
  community_totals<<<(n + kSlicesPerBlock - 1) / kSlicesPerBlock, 256, 0, stream>>>(rowptr, w, comm, n, commTot, degree);
  ModularityGain<LouvainCfg> f{rowptr, adj, w, comm, commTot, degree, 1.f / (2.f * total_w), n, bestComm, bestGain};
  run_league<<<(n + 7) / 8, LouvainCfg::kThreads, 0, stream>>>(f);                 // 8 teams per block
  apply_moves<<<(n + 255) / 256, 256, 0, stream>>>(bestComm, bestGain, n, comm, movedBits);
}
