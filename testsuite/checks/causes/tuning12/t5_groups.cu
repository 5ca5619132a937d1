// Tuning, round 12. Cause 5: consistent 32-lane groups, right at 64 lanes as
// written (notes at most).
// Domains: sparse convolution on point clouds with neighbour lists (gather
// convolution, neighbour max-pooling, channel statistics); stream ordering by
// a per-lane merge path with epoch numbering (group scan + block scan).
// Ambiguous calls (labelled as a demanding GPU compiler engineer would expect):
// - The unit never reads warpSize, takes no ballot, vote, match, reduce or
//   activemask, passes no width, and every shuffle reads an offset in [0, 32)
//   (xor from 16, up by 1..16 guarded by the group lane, up by 1): consistent
//   32-lane groups. Lane and group ids by 32, per-group slots, group counts,
//   the loops from 16 / to 32, launch shapes and the masks are notes.
// - No shuffle broadcasts from a fixed lane (not even lane 0): at HIP's
//   default width that would read the other half, so the group totals come
//   from `lane == 31` into shared slots instead.
// - GROUP (a neutral name) is labelled at its definition with the id of its
//   first use (LANE-MATH) and at each use. `groupsPerBlock * GROUP` is a
//   constant 256-thread block for a kernel that divides by GROUP itself:
//   quiet. `32 * groupsPerBlock` (runtime) is a launch shape: note, at the 32.
// - neighbourMaxPool makes no warp call: its lane math is a note either way.
// - The second-level scan runs inside `if (threadIdx.x < 32)`; its helper's
//   loop is already labelled where the helper is written.
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdint>

#define GROUP 32                                                               // note: W64-LANE-MATH

namespace pc {

__device__ __forceinline__ float groupSum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);   // note: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

// Submanifold sparse convolution with precomputed neighbour lists (K offsets, -1 = empty):
// one group per (output point, output channel); lanes stride over (offset, input channel).
__global__ void sparseConvGather(const float* __restrict__ feat, const int* __restrict__ nbr,
                                 const float* __restrict__ weight, const float* __restrict__ bias,
                                 float* __restrict__ out, int points, int K, int cin, int cout) {
  const int lane = threadIdx.x & (GROUP - 1);                                  // note: W64-LANE-MATH
  const int g = (blockIdx.x * blockDim.x + threadIdx.x) / GROUP;               // note: W64-LANE-MATH
  if (g >= points * cout) return;
  const int p = g / cout, co = g % cout;
  float acc = 0.f;
  for (int e = lane; e < K * cin; e += GROUP) {                                // note: W64-LANE-MATH
    const int k = e / cin, ci = e % cin;
    const int q = nbr[p * K + k];
    if (q >= 0) acc += feat[static_cast<size_t>(q) * cin + ci] * weight[(static_cast<size_t>(k) * cin + ci) * cout + co];
  }
  acc = groupSum(acc);
  if (lane == 0) out[static_cast<size_t>(p) * cout + co] = acc + bias[co];
}

// Neighbour max-pooling: one group per point, lanes over channels, odd channel tails.
__global__ void neighbourMaxPool(const float* __restrict__ feat, const int* __restrict__ nbr,
                                 float* __restrict__ out, int points, int K, int C) {
  const int lane = threadIdx.x & 31;                                           // note: W64-LANE-MATH
  const int p = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);           // note: W64-WARP-COUNT, W64-LANE-MATH
  if (p >= points) return;
  for (int j = 0; j < (C + 31) / 32; ++j) {                                    // note: W64-LANE-MATH
    const int c = j * 32 + lane;                                               // note: W64-LANE-MATH
    if (c >= C) break;
    float m = -FLT_MAX;
    for (int k = 0; k < K; ++k) {
      const int q = nbr[p * K + k];
      if (q >= 0) m = fmaxf(m, feat[static_cast<size_t>(q) * C + c]);
    }
    out[static_cast<size_t>(p) * C + c] = m;
  }
}

// Per-channel mean of the output features (batch-norm statistics): one block per channel.
__global__ void channelMean(const float* __restrict__ out, float* __restrict__ mean, int points, int cout) {
  __shared__ float part[32];                                                   // note: W64-WARP-COUNT
  const int co = blockIdx.x;
  const int lane = threadIdx.x & 31;                                           // note: W64-LANE-MATH
  const int grp = threadIdx.x >> 5;                                            // note: W64-LANE-MATH
  float s = 0.f;
  for (int p = threadIdx.x; p < points; p += blockDim.x) s += out[static_cast<size_t>(p) * cout + co];
  s = groupSum(s);
  if (lane == 0) part[grp] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    float t = threadIdx.x < (blockDim.x >> 5) ? part[threadIdx.x] : 0.f;      // note: W64-WARP-COUNT
    t = groupSum(t);
    if (threadIdx.x == 0) mean[co] = t / points;
  }
}

}  // namespace pc

namespace ms {

// Merge path: how many elements of a are among the first d of merge(a, b) (ties: a first).
__device__ int mergePath(const uint64_t* a, int na, const uint64_t* b, int nb, int d) {
  int lo = max(0, d - nb), hi = min(d, na);
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (a[mid] <= b[d - 1 - mid]) lo = mid + 1; else hi = mid;
  }
  return lo;
}

__device__ uint64_t elementAt(const uint64_t* a, int na, const uint64_t* b, int nb, int d) {
  const int i = mergePath(a, na, b, nb, d), j = d - i;
  return (j >= nb || (i < na && a[i] <= b[j])) ? a[i] : b[j];
}

// Inclusive scan inside a 32-lane group.
__device__ __forceinline__ int groupScan(int x, int lane) {
  for (int d = 1; d < 32; d <<= 1) {                                           // note: W64-SHFL-OFFSET
    const int y = __shfl_up_sync(0xffffffffu, x, d);                           // note: W64-MASK32
    if (lane >= d) x += y;
  }
  return x;
}

// Merge two sorted timestamp streams and number the epochs inside each block (an epoch
// starts where the gap to the previous event exceeds `gap`). One output per thread.
__global__ void mergeEpochs(const uint64_t* __restrict__ a, int na, const uint64_t* __restrict__ b, int nb,
                            uint64_t* __restrict__ merged, int* __restrict__ epoch,
                            int* __restrict__ blockEpochs, uint64_t gap) {
  __shared__ int groupTotal[32];                                               // note: W64-WARP-COUNT
  const int lane = threadIdx.x % 32;                                           // note: W64-LANE-MATH
  const int grp = threadIdx.x / 32;                                            // note: W64-LANE-MATH
  const int d = blockIdx.x * blockDim.x + threadIdx.x;
  const int n = na + nb;
  const uint64_t t = d < n ? elementAt(a, na, b, nb, d) : ~0ull;
  if (d < n) merged[d] = t;
  uint64_t prev = __shfl_up_sync(0xffffffffu, t, 1);                           // note: W64-MASK32
  if (lane == 0 && d > 0 && d < n) prev = elementAt(a, na, b, nb, d - 1);
  const int start = (d < n && (d == 0 || t - prev > gap)) ? 1 : 0;
  const int incl = groupScan(start, lane);
  if (lane == 31) groupTotal[grp] = incl;                                      // note: W64-LANE-MATH
  __syncthreads();
  if (threadIdx.x < 32) {
    const int ng = (blockDim.x + 31) / 32;                                     // note: W64-WARP-COUNT
    const int gt = threadIdx.x < ng ? groupTotal[threadIdx.x] : 0;
    const int gi = groupScan(gt, threadIdx.x);
    groupTotal[threadIdx.x] = gi - gt;
    if (threadIdx.x == ng - 1) blockEpochs[blockIdx.x] = gi;
  }
  __syncthreads();
  if (d < n) epoch[d] = groupTotal[grp] + incl - 1;
}

}  // namespace ms

void sparseConvLayer(const float* dFeat, const int* dNbr, const float* dW, const float* dBias,
                     float* dOut, float* dMean, float* dPool, int points, int K, int cin, int cout,
                     int groupsPerBlock, cudaStream_t s) {
  const int threads = 32 * groupsPerBlock;                                     // note: W64-BLOCK-SIZE
  const int groups = points * cout;
  pc::sparseConvGather<<<(groups + groupsPerBlock - 1) / groupsPerBlock, threads, 0, s>>>(
      dFeat, dNbr, dW, dBias, dOut, points, K, cin, cout);
  pc::channelMean<<<cout, 256, 0, s>>>(dOut, dMean, points, cout);
  const int poolGroups = 8;
  pc::neighbourMaxPool<<<(points + poolGroups - 1) / poolGroups, poolGroups * GROUP, 0, s>>>(   // quiet: W64-BLOCK-SIZE
      dFeat, dNbr, dPool, points, K, cin);
}

void orderStreams(const uint64_t* dA, int na, const uint64_t* dB, int nb, uint64_t* dMerged,
                  int* dEpoch, int* dBlockEpochs, uint64_t gap, cudaStream_t s) {
  const int n = na + nb;
  ms::mergeEpochs<<<(n + 95) / 96, 96, 0, s>>>(dA, na, dB, nb, dMerged, dEpoch, dBlockEpochs, gap);   // note: W64-BLOCK-SIZE
}
