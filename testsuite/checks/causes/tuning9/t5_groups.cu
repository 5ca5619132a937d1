// Tuning round 9. Cause 5: consistent 32-lane groups, right at 64 lanes as
// written (notes at most).
// A layer norm with one 32-thread team per row, a block reduction with one
// shared slot per team, and MoE expert offsets from team scans.
// Why this unit works in consistent 32-lane groups (README, "Consistent
// 32-lane groups"): every shuffle is of the default width and reads an
// offset in [0, 32) (an xor loop from 16, an up-scan to 16) and no shuffle
// broadcasts from a fixed lane; nothing reads the whole warp (no ballot, vote,
// activemask, match or reduce) and nothing reads warpSize. No shuffle
// broadcasts from a fixed lane in 1..31, so this is not the explicit-group
// case, where the lane math would be quiet instead.
// Ambiguous calls and why they are labelled as they are:
// - ROW_TEAM (32, no warp in the name) is used by shuffling code, so it
//   counts by value: its definition is a note (first use is lane math) and
//   each use is labelled with its own check as a note, the launch
//   `3 * ROW_TEAM` included (BLOCK-SIZE: 96 threads, a shape built from the
//   team size for a kernel that shuffles).
// - `partial[32]`, `blockDim.x >> 5`, lanes `& 31`, group ids `>> 5`, strides
//   and tiles stepped by 32: notes. Full masks: notes (dropped before HIP
//   6.2, group masks from 6.2). `threads = 32 * teams` on the host: a note.
// - expertOffsets' block of 128 is a literal, not built from 32s (quiet).
#include <cuda_runtime.h>

#define ROW_TEAM 32                                                           // note: W64-LANE-MATH

template <typename T>
__device__ __forceinline__ T teamSum(T v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);  // note: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

// Inclusive scan over a team of 32 lanes.
__device__ __forceinline__ int teamScan(int x, int lane) {
  for (int d = 1; d < 32; d <<= 1) {                                         // note: W64-SHFL-OFFSET
    const int y = __shfl_up_sync(0xffffffffu, x, d);                          // note: W64-MASK32
    if (lane >= d) x += y;
  }
  return x;
}

// LayerNorm, one team per row; blockDim.x is a multiple of ROW_TEAM.
__global__ void layerNormTeams(const float* __restrict__ x, const float* __restrict__ gamma,
                               const float* __restrict__ beta, float* __restrict__ y,
                               int rows, int dim, float eps) {
  const int lane = threadIdx.x % ROW_TEAM;                                    // note: W64-LANE-MATH
  const int row = blockIdx.x * (blockDim.x / ROW_TEAM) + threadIdx.x / ROW_TEAM;   // note: W64-LANE-MATH, W64-WARP-COUNT
  if (row >= rows) return;
  const float* xr = x + static_cast<size_t>(row) * dim;
  float s = 0.f, ss = 0.f;
  for (int j = lane; j < dim; j += ROW_TEAM) { const float v = xr[j]; s += v; ss += v * v; }   // note: W64-LANE-MATH
  const float mean = teamSum(s) / dim;
  const float rstd = rsqrtf(fmaxf(teamSum(ss) / dim - mean * mean, 0.f) + eps);
  int j = lane;
  while (j < dim) {
    y[static_cast<size_t>(row) * dim + j] = (xr[j] - mean) * rstd * gamma[j] + beta[j];
    j += ROW_TEAM;                                                            // note: W64-LANE-MATH
  }
}

// Sum of squares of a vector: teams reduce, one shared slot per team, then
// the first team reduces the slots.
__global__ void sumSquares(const float* __restrict__ x, float* __restrict__ out, int n) {
  __shared__ float partial[32];                                               // note: W64-WARP-COUNT
  const int lane = threadIdx.x & 31;                                          // note: W64-LANE-MATH
  const int team = threadIdx.x >> 5;                                          // note: W64-LANE-MATH
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += x[i] * x[i];
  v = teamSum(v);
  if (lane == 0) partial[team] = v;
  __syncthreads();
  if (team == 0) {
    v = lane < static_cast<int>(blockDim.x >> 5) ? partial[lane] : 0.f;       // note: W64-WARP-COUNT
    v = teamSum(v);
    if (lane == 0) atomicAdd(out, v);
  }
}

// MoE routing: exclusive offsets of each expert's token count, per batch,
// 32 experts at a time; four batches per block.
__global__ void expertOffsets(const int* __restrict__ counts, int* __restrict__ offsets,
                              int experts, int batches) {
  const int lane = threadIdx.x & 31;                                          // note: W64-LANE-MATH
  const int b = blockIdx.x * 4 + (threadIdx.x >> 5);                          // note: W64-LANE-MATH
  if (b >= batches) return;
  int carry = 0;
  for (int e0 = 0; e0 < experts; e0 += 32) {                                 // note: W64-LANE-MATH
    const int e = e0 + lane;
    const int c = e < experts ? counts[b * experts + e] : 0;
    const int inc = teamScan(c, lane);
    if (e < experts) offsets[b * experts + e] = carry + inc - c;
    carry += teamSum(c);
  }
}

void launchNorms(const float* x, const float* g, const float* b, float* y, float* acc,
                 const int* counts, int* offsets, int rows, int dim, int n, int experts,
                 int batches, int teams, cudaStream_t s) {
  layerNormTeams<<<(rows + 2) / 3, 3 * ROW_TEAM, 0, s>>>(x, g, b, y, rows, dim, 1e-5f);   // note: W64-BLOCK-SIZE
  const int threads = 32 * teams;                                             // note: W64-BLOCK-SIZE
  sumSquares<<<(n + threads - 1) / threads, threads, 0, s>>>(x, acc, n);
  expertOffsets<<<(batches + 3) / 4, 128, 0, s>>>(counts, offsets, experts, batches);   // quiet: W64-BLOCK-SIZE
}
