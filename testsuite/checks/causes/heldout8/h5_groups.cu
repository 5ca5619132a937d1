// Held out, round 8. Cause 5: consistent 32-lane groups, right at 64 lanes as
// written (notes at most).
// The unit shuffles only by offsets and lanes in [0, 32) at the default width
// (loops from 16 down, a scan doubling to 16, a half-team xor from 8), reads
// no whole warp (no ballot, vote, activemask, match) and never reads
// warpSize: every team of 32 is numbered by 32, so a 64-lane wavefront runs
// two independent teams.
// Ambiguous calls (labelled as a demanding GPU engineer would expect):
// - TEAM (32) is first used as `threadIdx.x % TEAM`: its uses fold into the
//   definition, labelled once as a LANE-MATH note; uses unlabelled.
// - kTeamAll, a full mask under a name without "mask": a MASK32 note at its
//   definition (the mask is dropped, or a group mask, in such a unit).
// - teamSums[32] holds one slot per team indexed by a team id by 32: the
//   W64-WARP-COUNT per-warp array, a note.
// - pairDot: `lane < 16` on a lane numbered by TEAM selects a half of the
//   team's own design (quiet); its xor loop from 8 stays within a half (quiet).
// - Host: `32 * teams` threads for a kernel that numbers its teams by 32 is a
//   BLOCK-SIZE note; the per-team buffer counted `(n + 31) / 32` for a kernel
//   that divides by 32 itself, and the constant block `4 * 32`, stay quiet.
// Convention pass (round 8): note labels were added at every use of the
// group-size macro (lane and team ids, the last-lane test, team counts),
// which fold into the definition's note as related locations counted at
// their own lines, and W64-MASK32 notes at every call that passes the full
// mask constant (in a unit working in consistent 32-lane groups the mask goes
// through the group-mask shim, which W64-MASK32 reports as a note). This
// supersedes the "uses unlabelled" remark above. Reading taken where the docs
// are ambiguous: the first use is labelled like the others (every use becomes
// a related location). A line that carries both a finding and a hard
// negative has two trailing label comments (`// note: ... // quiet: ...`).
#include <cuda_runtime.h>

#define TEAM 32                                                           // note: W64-LANE-MATH
constexpr unsigned kTeamAll = 0xffffffffu;                               // note: W64-MASK32

// Team sum: lane 0 of each 32-lane team ends with the team's total.
__device__ __forceinline__ float teamTotal(float v) {
  for (int o = 16; o; o >>= 1) v += __shfl_down_sync(kTeamAll, v, o);    // note: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

// Gated dot products: one team per row.
__global__ void rowDotTeams(const float* __restrict__ a, const float* __restrict__ b,
                            float* __restrict__ out, int rows, int cols) {
  const int lane = threadIdx.x & 31;                                     // note: W64-LANE-MATH
  const int team = threadIdx.x >> 5;                                     // note: W64-LANE-MATH
  const int row = blockIdx.x * (blockDim.x >> 5) + team;                 // note: W64-WARP-COUNT
  if (row >= rows) return;
  const float* ar = a + static_cast<size_t>(row) * cols;
  const float* br = b + static_cast<size_t>(row) * cols;
  float acc = 0.f;
  for (int c = lane; c < cols; c += 32) acc += ar[c] * (br[c] > 0.f ? br[c] : 0.f);   // note: W64-LANE-MATH
  acc = teamTotal(acc);
  if (lane == 0) out[row] = acc;
}

// Grid-wide mean: team totals, then the first team folds the slots.
__global__ void blockMeanTeams(const float* __restrict__ x, float* __restrict__ mean, int n) {
  __shared__ float teamSums[32];                                         // note: W64-WARP-COUNT
  const int lane = threadIdx.x % TEAM;                                     // note: W64-LANE-MATH
  const int team = threadIdx.x / TEAM;                                     // note: W64-LANE-MATH
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += x[i];
  v = teamTotal(v);
  if (lane == 0) teamSums[team] = v;
  __syncthreads();
  if (team == 0) {
    v = lane < static_cast<int>(blockDim.x / TEAM) ? teamSums[lane] : 0.f;   // note: W64-WARP-COUNT
    v = teamTotal(v);
    if (lane == 0) atomicAdd(mean, v / n);
  }
}

// Inclusive prefix sums of chunks of 32, plus each chunk's total.
__global__ void chunkPrefix(const float* __restrict__ x, float* __restrict__ y,
                            float* __restrict__ chunkTotals, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % TEAM;                                     // note: W64-LANE-MATH
  float v = i < n ? x[i] : 0.f;
  for (int d = 1; d < 32; d <<= 1) {                                     // note: W64-SHFL-OFFSET
    const float up = __shfl_up_sync(kTeamAll, v, d);                       // note: W64-MASK32
    if (lane >= d) v += up;
  }
  if (i < n) y[i] = v;
  if (lane == TEAM - 1 && i - lane < n) chunkTotals[i / TEAM] = v;         // note: W64-LANE-MATH
}

// Rows of 16: each half of a team takes one row.
__global__ void pairDot(const float* __restrict__ a, const float* __restrict__ b,
                        float* __restrict__ out, int rows) {
  const int lane = threadIdx.x % TEAM;                                     // note: W64-LANE-MATH
  const int pair = (blockIdx.x * blockDim.x + threadIdx.x) / TEAM;         // note: W64-LANE-MATH
  const int row = 2 * pair + (lane < 16 ? 0 : 1);                        // quiet: W64-LANE-MATH
  const int col = lane & 15;
  float v = row < rows ? a[row * 16 + col] * b[row * 16 + col] : 0.f;
  for (int o = 8; o; o >>= 1) v += __shfl_xor_sync(kTeamAll, v, o);        // note: W64-MASK32 // quiet: W64-SHFL-OFFSET
  if (col == 0 && row < rows) out[row] = v;
}

void launchRowDot(const float* a, const float* b, float* out, int rows, int cols, int teams,
                  cudaStream_t s) {
  const int threads = 32 * teams;                                        // note: W64-BLOCK-SIZE
  const int blocks = (rows + teams - 1) / teams;
  rowDotTeams<<<blocks, threads, 0, s>>>(a, b, out, rows, cols);
}

float* launchChunkPrefix(const float* dx, float* dy, int n, cudaStream_t s) {
  float* totals = nullptr;
  cudaMalloc(&totals, ((n + 31) / 32) * sizeof(float));                  // quiet: W64-WARP-COUNT
  chunkPrefix<<<(n + 127) / 128, 4 * 32, 0, s>>>(dx, dy, totals, n);     // quiet: W64-BLOCK-SIZE
  return totals;
}
