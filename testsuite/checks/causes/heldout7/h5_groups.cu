// Held out, round 7. Cause 5: consistent 32-lane groups, right at 64 lanes as
// written: notes at most.
// The unit shuffles only at the default width by offsets below 32 (xor
// butterflies, a down-tree read by lane 0 of each group, an up-scan guarded by
// `lane >= d`), takes no ballot, vote, activemask, match or reduce, broadcasts
// from no lane, and never reads warpSize. On a 64-lane wavefront each half runs
// one group that the ids by 32 number, so every 32 below is a note.
// Ambiguous calls:
// - TEAM (a name that says nothing of warps) is labelled note at its
//   definition and at each use, since a use folded into its definition counts
//   at its own line.
// - `(t & 31) == 0 ... slot[t >> 5]` holds two lane-math findings of one id on
//   one line: one label.
// - Launch shapes: the 96-thread block (not a multiple of 64) and the host
//   product `32 * teams` are W64-BLOCK-SIZE notes (the README: in consistent
//   groups BLOCK-SIZE reports as notes).
// - The loop `o < 32` doubling an xor offset is a butterfly written upwards:
//   SHFL-OFFSET, as a note here.
#include <cuda_runtime.h>
#include <math_constants.h>

#define TEAM 32                                                         // note: W64-LANE-MATH

namespace grp {

__device__ __forceinline__ float teamSum(float v) {
  for (int o = 16; o > 0; o >>= 1)                                      // note: W64-SHFL-OFFSET
    v += __shfl_down_sync(0xffffffffu, v, o);                           // note: W64-MASK32
  return v;
}

__device__ __forceinline__ float teamMax(float v) {
  for (int o = 1; o < 32; o <<= 1)                                      // note: W64-SHFL-OFFSET
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));                   // note: W64-MASK32
  return v;
}

}  // namespace grp

// Log-sum-exp of each row (cross-entropy's normaliser): one team per row.
__global__ void rowLogSumExp(const float* __restrict__ logits, float* __restrict__ lse,
                             int rows, int cols) {
  const int lane = threadIdx.x % TEAM;                                  // note: W64-LANE-MATH
  const int teamsPerBlock = blockDim.x / TEAM;                          // note: W64-WARP-COUNT
  const int row = blockIdx.x * teamsPerBlock + threadIdx.x / TEAM;      // note: W64-LANE-MATH
  if (row >= rows) return;
  const float* x = logits + static_cast<size_t>(row) * cols;
  float m = -CUDART_INF_F, s = 0.f;  // online: running max and scaled sum per lane
  for (int c = lane; c < cols; c += 32) {                               // note: W64-LANE-MATH
    const float xv = x[c], nm = fmaxf(m, xv);
    s = s * __expf(m - nm) + __expf(xv - nm);
    m = nm;
  }
  const float gm = grp::teamMax(m);
  s = grp::teamSum(s * __expf(m - gm));
  if (lane == 0) lse[row] = gm + __logf(s);
}

// Sum of squares over the grid: team trees, one slot per team, a final tree
// by the first team of the block.
__global__ void sumSquares(const float* __restrict__ v, float* __restrict__ out, int n) {
  __shared__ float slot[32];                                            // note: W64-WARP-COUNT
  const int t = threadIdx.x;
  float acc = 0.f;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) acc += v[i] * v[i];
  acc = grp::teamSum(acc);
  if ((t & 31) == 0) slot[t >> 5] = acc;                                // note: W64-LANE-MATH
  __syncthreads();
  if (t < 32) {
    acc = t < (blockDim.x >> 5) ? slot[t] : 0.f;                        // note: W64-WARP-COUNT
    acc = grp::teamSum(acc);
    if (t == 0) atomicAdd(out, acc);
  }
}

// Stream compaction, team part: inclusive scan of keep flags, each element's
// slot within its team, and one count per team.
__global__ void teamCompact(const int* __restrict__ keep, int* __restrict__ slotInTeam,
                            int* __restrict__ teamCount, int n) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = g & 31;                                              // note: W64-LANE-MATH
  const int f = (g < n && keep[g]) ? 1 : 0;
  int incl = f;
  for (int d = 1; d < 32; d <<= 1) {                                    // note: W64-SHFL-OFFSET
    const int y = __shfl_up_sync(0xffffffffu, incl, d);                 // note: W64-MASK32
    if (lane >= d) incl += y;                                           // quiet: W64-LANE-MATH
  }
  if (f) slotInTeam[g] = incl - 1;
  if (lane == 31) teamCount[g >> 5] = incl;                             // note: W64-LANE-MATH
}

void launchLoss(const float* logits, float* lse, const int* keep, int* slots, int* counts,
                float* ss, int rows, int cols, int n, int teams, cudaStream_t st) {
  const int threads = 32 * teams;                                       // note: W64-BLOCK-SIZE
  rowLogSumExp<<<(rows + teams - 1) / teams, threads, 0, st>>>(logits, lse, rows, cols);
  sumSquares<<<(n + 255) / 256, 256, 0, st>>>(logits, ss, n);
  teamCompact<<<(n + 95) / 96, 96, 0, st>>>(keep, slots, counts, n);    // note: W64-BLOCK-SIZE
}
