// Tuning, round 11. Cause 5: consistent 32-lane groups, right at 64 lanes as
// written (notes at most).
// Domains: bitonic sort, segmented reduction, batch-norm backward, Jacobi
// solver, cellular automata.
// The unit works in consistent 32-lane groups by the check pages' rule: every
// shuffle is of the default width and reads an offset in [0, 32) (constants
// 1, loop counters from 16 down, a helper parameter every call passes 16);
// nothing reads the whole warp (no ballot, vote, activemask, match, reduce);
// nothing reads warpSize. So lane math, group counts, per-group slots, loop
// starts, launch shapes and the masks are notes.
// Ambiguous calls (labelled as a demanding GPU engineer reading the check
// pages would expect):
// - bitonicBlockSort's `for (int j = 16; j > 0; j >>= 1)` (with `continue`
//   while j >= k) is the shuffle half of a bitonic network, not a reduction;
//   it has the shape of a loop from 16 and is labelled a note. The
//   shared-memory loop's `j >= 32` compares a step, not a thread (quiet).
// - kTeam (32, a name without "warp") is first used as lane math, so its
//   definition is labelled W64-LANE-MATH; its uses carry their own ids.
// - jacobiRows runs in dim3(32, 4) blocks; its `col += 32` from threadIdx.x
//   is a lane stride (note), and the block (128 threads, built from 32s) is
//   right for groups (quiet).
// - groupMax's `first` is 16 at its only call: the loop start is a note where
//   it is used.
// - segSumGroups is launched with `segsPerBlock * 32` threads (256, a constant
//   of whole wavefronts in a kernel that divides by 32 itself: quiet), caGroups
//   with 96 threads (a note), bnBackwardReduce with `32 * teams` (a note).
#include <cuda_runtime.h>
#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <cstdio>

#define GROUP_MASK 0xffffffffu                                            // note: W64-MASK32

// ---------------------------------------------------------- bitonic sort
// Block-wide bitonic sort of blockDim.x keys (a power of two, <= 1024). Steps
// whose partner lies in another 32-thread group go through shared memory; the
// rest are xor shuffles inside the group.
__global__ void bitonicBlockSort(float* __restrict__ keys, int n) {
  extern __shared__ float s[];
  const int tid = threadIdx.x;
  const int gi = blockIdx.x * blockDim.x + tid;
  float key = gi < n ? keys[gi] : FLT_MAX;
  for (int k = 2; k <= static_cast<int>(blockDim.x); k <<= 1) {
    const bool asc = (tid & k) == 0;
    for (int j = k >> 1; j >= 32; j >>= 1) {                              // quiet: W64-LANE-MATH
      s[tid] = key;
      __syncthreads();
      const float other = s[tid ^ j];
      __syncthreads();
      key = (((tid & j) == 0) == asc) ? fminf(key, other) : fmaxf(key, other);
    }
#pragma unroll
    for (int j = 16; j > 0; j >>= 1) {                                    // note: W64-SHFL-OFFSET
      if (j >= k) continue;
      const float other = __shfl_xor_sync(GROUP_MASK, key, j);            // note: W64-MASK32
      key = (((tid & j) == 0) == asc) ? fminf(key, other) : fmaxf(key, other);
    }
  }
  if (gi < n) keys[gi] = key;
}

// ------------------------------------------------------ segmented reduction
// CSR row sums: one 32-thread group per segment, its leader writes.
__global__ void segSumGroups(const float* __restrict__ vals, const int* __restrict__ segStart,
                             float* __restrict__ out, int numSegs) {
  const int lane = threadIdx.x & 31;                                      // note: W64-LANE-MATH
  const int seg = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;           // note: W64-LANE-MATH
  if (seg >= numSegs) return;
  float s = 0.f;
  for (int i = segStart[seg] + lane; i < segStart[seg + 1]; i += 32) s += vals[i];   // note: W64-LANE-MATH
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);         // note: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) out[seg] = s;
}

// ----------------------------------------------------------- batch norm bwd
// Per-channel sums of dy and dy * xhat. Teams of kTeam threads reduce, one
// slot per team, team 0 finishes.
constexpr int kTeam = 32;                                                 // note: W64-LANE-MATH

__global__ void bnBackwardReduce(const float* __restrict__ dy, const float* __restrict__ x,
                                 const float* __restrict__ mean, const float* __restrict__ invStd,
                                 float* __restrict__ sumDy, float* __restrict__ sumDyXhat, int N, int C, int HW) {
  const int lane = threadIdx.x % kTeam;                                   // note: W64-LANE-MATH
  const int team = threadIdx.x / kTeam;                                   // note: W64-LANE-MATH
  const int teams = blockDim.x / kTeam;                                   // note: W64-WARP-COUNT
  __shared__ float slotDy[kTeam], slotDyx[kTeam];                         // note: W64-WARP-COUNT
  const int c = blockIdx.x, count = N * HW;
  const float m = mean[c], is = invStd[c];
  float a = 0.f, b = 0.f;
  for (int i = threadIdx.x; i < count; i += blockDim.x) {
    const size_t at = (static_cast<size_t>(i / HW) * C + c) * HW + i % HW;
    a += dy[at];
    b += dy[at] * (x[at] - m) * is;
  }
  for (int o = kTeam / 2; o > 0; o >>= 1) {                               // note: W64-SHFL-OFFSET
    a += __shfl_xor_sync(GROUP_MASK, a, o);                               // note: W64-MASK32
    b += __shfl_xor_sync(GROUP_MASK, b, o);                               // note: W64-MASK32
  }
  if (lane == 0) { slotDy[team] = a; slotDyx[team] = b; }
  __syncthreads();
  if (team == 0) {
    a = lane < teams ? slotDy[lane] : 0.f;
    b = lane < teams ? slotDyx[lane] : 0.f;
    for (int o = 16; o > 0; o >>= 1) {                                    // note: W64-SHFL-OFFSET
      a += __shfl_xor_sync(GROUP_MASK, a, o);                             // note: W64-MASK32
      b += __shfl_xor_sync(GROUP_MASK, b, o);                             // note: W64-MASK32
    }
    if (lane == 0) { sumDy[c] = a; sumDyXhat[c] = b; }
  }
}

// ------------------------------------------------------------------ Jacobi
__device__ __forceinline__ float groupMax(float v, int first) {
  for (int o = first; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(GROUP_MASK, v, o));   // note: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

// One Jacobi sweep, blocks of (32, 4): threadIdx.y picks an interior row and
// the 32 threads of the row stride over its columns.
__global__ void jacobiRows(const float* __restrict__ u, float* __restrict__ un, const float* __restrict__ f,
                           int nx, int ny, float h2, float* __restrict__ resid) {
  const int row = 1 + blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= ny - 1) return;
  float r = 0.f;
  for (int col = 1 + threadIdx.x; col < nx - 1; col += 32) {              // note: W64-LANE-MATH
    const size_t k = static_cast<size_t>(row) * nx + col;
    const float v = 0.25f * (u[k - 1] + u[k + 1] + u[k - nx] + u[k + nx] - h2 * f[k]);
    un[k] = v;
    r = fmaxf(r, fabsf(v - u[k]));
  }
  r = groupMax(r, 16);
  if (threadIdx.x == 0) atomicMax(reinterpret_cast<int*>(resid), __float_as_int(r));
}

// ------------------------------------------------------- cellular automaton
// Elementary CA; a 32-thread group owns 32 consecutive words of a row (1024
// cells), and the end words of a group read their outer neighbours from memory.
__global__ void caGroups(const uint32_t* __restrict__ cur, uint32_t* __restrict__ nxt, int wordsPerRow,
                         int chunksPerRow, int rows, uint8_t rule) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = gid & 31;                                              // note: W64-LANE-MATH
  const int chunk = gid >> 5;                                             // note: W64-LANE-MATH
  const int row = chunk / chunksPerRow;
  const int word = (chunk % chunksPerRow) * 32 + lane;                    // note: W64-LANE-MATH
  if (row >= rows) return;
  const uint32_t* r = cur + static_cast<size_t>(row) * wordsPerRow;
  const uint32_t w = word < wordsPerRow ? r[word] : 0u;
  uint32_t left = __shfl_up_sync(GROUP_MASK, w, 1);                       // note: W64-MASK32
  uint32_t right = __shfl_down_sync(GROUP_MASK, w, 1);                    // note: W64-MASK32
  if (lane == 0) left = word > 0 ? r[word - 1] : 0u;
  if (lane == 31) right = word + 1 < wordsPerRow ? r[word + 1] : 0u;      // note: W64-LANE-MATH
  const uint32_t l = (w << 1) | (left >> 31), rr = (w >> 1) | (right << 31);
  uint32_t out = 0;
#pragma unroll
  for (int p = 0; p < 8; ++p)
    if ((rule >> p) & 1) out |= ((p & 4) ? l : ~l) & ((p & 2) ? w : ~w) & ((p & 1) ? rr : ~rr);
  if (word < wordsPerRow) nxt[static_cast<size_t>(row) * wordsPerRow + word] = out;
}

// ------------------------------------------------------------------ host
void runGroups(float* keys, int n, const float* vals, const int* segStart, float* segSums, int numSegs,
               const float* dy, const float* x, const float* mean, const float* invStd, float* sDy, float* sDyx,
               int N, int C, int HW, const uint32_t* cur, uint32_t* nxt, int wordsPerRow, int rows) {
  bitonicBlockSort<<<(n + 511) / 512, 512, 512 * sizeof(float)>>>(keys, n);
  const int segsPerBlock = 8;
  segSumGroups<<<(numSegs + segsPerBlock - 1) / segsPerBlock, segsPerBlock * 32>>>(vals, segStart, segSums, numSegs);   // quiet: W64-BLOCK-SIZE
  const int teams = std::min(16, std::max(2, N * HW / 2048));
  const int threads = 32 * teams;                                          // note: W64-BLOCK-SIZE
  bnBackwardReduce<<<C, threads>>>(dy, x, mean, invStd, sDy, sDyx, N, C, HW);
  const int chunksPerRow = (wordsPerRow + 31) / 32;                        // quiet: W64-BLOCK-SIZE
  const int groupsTotal = rows * chunksPerRow;
  caGroups<<<(groupsTotal + 2) / 3, 96>>>(cur, nxt, wordsPerRow, chunksPerRow, rows, 30);   // note: W64-BLOCK-SIZE
}

void runJacobi(const float* u, float* un, const float* f, int nx, int ny, float h2, float* resid) {
  dim3 block(32, 4);                                                       // quiet: W64-BLOCK-SIZE
  dim3 grid((ny - 2 + block.y - 1) / block.y);
  jacobiRows<<<grid, block>>>(u, un, f, nx, ny, h2, resid);
}
