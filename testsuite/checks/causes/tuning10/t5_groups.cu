// Tuning round 10. Cause 5: consistent 32-lane groups, right at 64 lanes as
// written (notes at most).
// A GRU cell (one 32-thread group per hidden unit), a sequence-loss block
// reduction with one slot per group, a group-wise inclusive scan for
// run-length offsets, a hidden-state transpose and their launchers.
// Why the unit counts as consistent 32-lane groups: every shuffle is at the
// default width and reads an offset in [0, 32) (xor from a loop 16..1, up
// from a loop 1..16) or lane 0; nothing takes a ballot, vote, activemask or
// match, and nothing reads warpSize. So every 32 of the grouping is a note:
// the lane and group ids, the lane strides, the group counts, the per-group
// slots, the loop starts and bounds, the 32-bit masks (they go through the
// group-mask shim) and the launch shapes.
// Ambiguous calls:
// - THREADS_PER_WARP is reported at its definition as LANE-MATH (its first
//   use); all its uses are notes, so the definition is a note too.
// - the 32 x 33 transpose tile indexed by threadIdx.y/x is a tile, and
//   dim3(32, 8) a 256-thread block (quiet). The broadcast from lane 0 is the
//   group's leader (not a fixed lane inside a group, which would make the
//   unit an explicit-groups unit).
// - groupScanOffsets returns early only for whole groups (`gid` beyond the
//   last full group), so the mask stays exact per group.
#include <cuda_runtime.h>

#define THREADS_PER_WARP 32                                                 // note: W64-LANE-MATH

__device__ __forceinline__ float groupSum(float v) {
  for (int o = 16; o > 0; o >>= 1)                                          // note: W64-SHFL-OFFSET
    v += __shfl_xor_sync(0xffffffffu, v, o);                                // note: W64-MASK32
  return v;
}

__device__ __forceinline__ float sigmoidf(float x) { return 1.f / (1.f + __expf(-x)); }

// ---------------------------------------------------------------------------
// GRU cell: gates z, r, n of hidden unit `unit` from x (inDim) and h (hidDim).
__global__ void gruCell(const float* __restrict__ Wx, const float* __restrict__ Wh,
                        const float* __restrict__ bx, const float* __restrict__ bh,
                        const float* __restrict__ x, const float* __restrict__ hPrev,
                        float* __restrict__ hNext, int inDim, int hidDim) {
  const int lane = threadIdx.x % THREADS_PER_WARP;                          // note: W64-LANE-MATH
  const int unit = blockIdx.x * (blockDim.x / THREADS_PER_WARP) + threadIdx.x / THREADS_PER_WARP;   // note: W64-WARP-COUNT, W64-LANE-MATH
  if (unit >= hidDim) return;
  float xz = 0.f, xr = 0.f, xn = 0.f;
  for (int k = lane; k < inDim; k += 32) {                                  // note: W64-LANE-MATH
    const float xv = x[k];
    xz += Wx[(static_cast<size_t>(0) * hidDim + unit) * inDim + k] * xv;
    xr += Wx[(static_cast<size_t>(1) * hidDim + unit) * inDim + k] * xv;
    xn += Wx[(static_cast<size_t>(2) * hidDim + unit) * inDim + k] * xv;
  }
  float hz = 0.f, hr = 0.f, hn = 0.f;
  for (int k = lane; k < hidDim; k += THREADS_PER_WARP) {                   // note: W64-LANE-MATH
    const float hv = hPrev[k];
    hz += Wh[(static_cast<size_t>(0) * hidDim + unit) * hidDim + k] * hv;
    hr += Wh[(static_cast<size_t>(1) * hidDim + unit) * hidDim + k] * hv;
    hn += Wh[(static_cast<size_t>(2) * hidDim + unit) * hidDim + k] * hv;
  }
  xz = groupSum(xz); xr = groupSum(xr); xn = groupSum(xn);
  hz = groupSum(hz); hr = groupSum(hr); hn = groupSum(hn);
  if (lane == 0) {
    const float z = sigmoidf(xz + bx[unit] + hz + bh[unit]);
    const float r = sigmoidf(xr + bx[hidDim + unit] + hr + bh[hidDim + unit]);
    const float nn = tanhf(xn + bx[2 * hidDim + unit] + r * (hn + bh[2 * hidDim + unit]));
    hNext[unit] = (1.f - z) * nn + z * hPrev[unit];
  }
}

// ---------------------------------------------------------------------------
// Negative log-likelihood of the targets, one partial sum per block.
__global__ void sequenceLoss(const float* __restrict__ logp, const int* __restrict__ target,
                             float* __restrict__ blockLoss, int n, int vocab) {
  __shared__ float slot[32];                                                // note: W64-WARP-COUNT
  const int tid = threadIdx.x;
  const int lane = tid & 31;                                                // note: W64-LANE-MATH
  const int group = tid >> 5;                                               // note: W64-LANE-MATH
  const int i = blockIdx.x * blockDim.x + tid;
  float v = i < n ? -logp[static_cast<size_t>(i) * vocab + target[i]] : 0.f;
  v = groupSum(v);
  if (lane == 0) slot[group] = v;
  __syncthreads();
  if (group == 0) {
    const int nGroups = blockDim.x / 32;                                    // note: W64-WARP-COUNT
    v = lane < nGroups ? slot[lane] : 0.f;
    v = groupSum(v);
    if (lane == 0) blockLoss[blockIdx.x] = v;
  }
}

// ---------------------------------------------------------------------------
// Run-length encoding: inclusive scan of run-start flags within each group,
// group totals for the next pass. Launched over whole groups only.
__global__ void groupScanOffsets(const int* __restrict__ flags, int* __restrict__ offs,
                                 int* __restrict__ groupTotals, int* __restrict__ groupOpens,
                                 int nPadded) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= nPadded) return;
  const int lane = gid & 31;                                                // note: W64-LANE-MATH
  const int f = flags[gid];
  int v = f;
  for (int d = 1; d < 32; d <<= 1) {                                        // note: W64-SHFL-OFFSET
    const int up = __shfl_up_sync(~0u, v, d);                               // note: W64-MASK32
    if (lane >= d) v += up;
  }
  offs[gid] = v - f;
  const int opens = __shfl_sync(0xffffffff, f, 0);                          // note: W64-MASK32
  const int g = gid >> 5;                                                   // note: W64-LANE-MATH
  if (lane == 31) {                                                         // note: W64-LANE-MATH
    groupTotals[g] = v;
    groupOpens[g] = opens;
  }
}

// ---------------------------------------------------------------------------
// Hidden-state transpose for the next time step's batched GEMM.
__global__ void transposeHidden(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  __shared__ float tile[32][33];                                            // quiet: W64-WARP-COUNT
  const int x = blockIdx.x * 32 + threadIdx.x;
  for (int j = threadIdx.y; j < 32; j += 8) {
    const int y = blockIdx.y * 32 + j;
    if (x < cols && y < rows) tile[j][threadIdx.x] = in[static_cast<size_t>(y) * cols + x];
  }
  __syncthreads();
  const int ox = blockIdx.y * 32 + threadIdx.x;
  for (int j = threadIdx.y; j < 32; j += 8) {
    const int oy = blockIdx.x * 32 + j;
    if (ox < rows && oy < cols) out[static_cast<size_t>(oy) * rows + ox] = tile[threadIdx.x][j];
  }
}

// ---------------------------------------------------------------------------
// Launchers.
void launchGru(const float* Wx, const float* Wh, const float* bx, const float* bh, const float* x,
               const float* h, float* hn, int inDim, int hidDim, int groupsPerBlock, cudaStream_t st) {
  const int threads = groupsPerBlock * 32;                                  // note: W64-BLOCK-SIZE
  const int blocks = (hidDim + groupsPerBlock - 1) / groupsPerBlock;
  gruCell<<<blocks, threads, 0, st>>>(Wx, Wh, bx, bh, x, h, hn, inDim, hidDim);
}

void launchLossAndScan(const float* logp, const int* target, float* blockLoss, int n, int vocab,
                       const int* flags, int* offs, int* totals, int* opens, int nPadded,
                       const float* hIn, float* hOut, int rows, int cols) {
  sequenceLoss<<<(n + 95) / 96, 96>>>(logp, target, blockLoss, n, vocab);  // note: W64-BLOCK-SIZE
  groupScanOffsets<<<(nPadded + 255) / 256, 256>>>(flags, offs, totals, opens, nPadded);
  transposeHidden<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 8)>>>(hIn, hOut, rows, cols);   // quiet: W64-BLOCK-SIZE
}
