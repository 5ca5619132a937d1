// Tuning, round 11. Cause 1: lane strides and per-lane splits.
// Domains: embedding bag lookup with pooling, segmented reduction, batch-norm
// forward, im2col convolution.
// Ambiguous calls (labelled as a demanding GPU engineer reading the check
// pages would expect):
// - FULL_MASK is an object-like macro whose name says mask: reported at its
//   definition and at every *_sync call that passes it (each call changes).
// - embeddingBagForward and segMaxStrided number lanes by warpSize but step by
//   32 (`d += 32`, `base += 32` with `i = base + lane`): a lane by warpSize
//   with a 32 stride still assumes 32 lanes (expect at the step).
// - kPerLane = D / 32 in a kernel template is a per-lane split written with a
//   literal 32; the share is labelled where the 32 is written, and each
//   `j * 32 + lane` / `lane + j * 32` is labelled as a stride.
// - segSumChunked: `chunk = (len + 31) / 32` (a lane's contiguous share, lane
//   by 32) is labelled on its own line only; `lane * chunk` has no 32.
// - im2colWarpRows steps a tile of pixels by 32 from `p0 + lane`: a lane
//   stride written as a tile step (expect).
// - batchNormForward's red[2][32] is indexed by a warp id counted with
//   warpSize: 32 slots cover 16 wavefronts (quiet); kTapTile (32) is a tile
//   of filter taps in a kernel that never shuffles (quiet).
// - Host grids `(numBags * 32 + 255) / 256` launch kernels that work per
//   wavefront: a launch shape computed with 32 (a note; `expect` accepts it).
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdint>
#include <cstdio>

#define FULL_MASK 0xffffffffu                                             // expect: W64-MASK32

__device__ __forceinline__ float waveSum(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor_sync(FULL_MASK, v, o);   // expect: W64-MASK32 // quiet: W64-SHFL-OFFSET
  return v;
}

// ------------------------------------------------------------ embedding bag
// mode 0: sum, 1: mean. One warp per bag; lanes walk the embedding row.
__global__ void embeddingBagForward(const float* __restrict__ table, const int64_t* __restrict__ indices,
                                    const int64_t* __restrict__ offsets, float* __restrict__ out,
                                    int numBags, int dim, int mode) {
  const int lane = threadIdx.x % warpSize;
  const int bag = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (bag >= numBags) return;
  const int64_t first = offsets[bag], last = offsets[bag + 1];
  const float scale = (mode == 1 && last > first) ? 1.f / float(last - first) : 1.f;
  for (int d = lane; d < dim; d += 32) {                                  // expect: W64-LANE-MATH
    float acc = 0.f;
    for (int64_t k = first; k < last; ++k) acc += __ldg(&table[indices[k] * dim + d]);
    out[static_cast<int64_t>(bag) * dim + d] = acc * scale;
  }
}

// Max pooling with a compile-time row width: each lane keeps D / 32 columns.
template <int D>
__global__ void embeddingBagMax(const float* __restrict__ table, const int* __restrict__ indices,
                                const int* __restrict__ offsets, float* __restrict__ out,
                                int* __restrict__ argmax, int numBags) {
  constexpr int kPerLane = D / 32;                                        // expect: W64-LANE-MATH
  const int lane = threadIdx.x & 31;                                      // expect: W64-LANE-MATH
  const int bag = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);    // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (bag >= numBags) return;
  float best[kPerLane];
  int who[kPerLane];
#pragma unroll
  for (int j = 0; j < kPerLane; ++j) { best[j] = -FLT_MAX; who[j] = -1; }
  for (int k = offsets[bag]; k < offsets[bag + 1]; ++k) {
    const float* row = table + static_cast<size_t>(indices[k]) * D;
#pragma unroll
    for (int j = 0; j < kPerLane; ++j) {
      const float v = row[j * 32 + lane];                                 // expect: W64-LANE-MATH
      if (v > best[j]) { best[j] = v; who[j] = indices[k]; }
    }
  }
  const bool empty = __all_sync(FULL_MASK, who[0] < 0);                   // expect: W64-MASK32
#pragma unroll
  for (int j = 0; j < kPerLane; ++j) {
    const int col = lane + j * 32;                                        // expect: W64-LANE-MATH
    out[static_cast<size_t>(bag) * D + col] = empty ? 0.f : best[j];
    argmax[static_cast<size_t>(bag) * D + col] = who[j];
  }
}
template __global__ void embeddingBagMax<128>(const float*, const int*, const int*, float*, int*, int);

// ------------------------------------------------------- segmented reduction
// Warp per segment; each lane first sums a contiguous chunk of the segment.
__global__ void segSumChunked(const float* __restrict__ vals, const int* __restrict__ segStart,
                              float* __restrict__ segSum, int numSegs) {
  const int lane = threadIdx.x & 31;                                      // expect: W64-LANE-MATH
  const int seg = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (seg >= numSegs) return;
  const int beg = segStart[seg], len = segStart[seg + 1] - beg;
  const int chunk = (len + 31) / 32;                                      // expect: W64-LANE-MATH
  const int lo = beg + min(len, lane * chunk);
  const int hi = beg + min(len, (lane + 1) * chunk);
  float s = 0.f;
  for (int i = lo; i < hi; ++i) s += vals[i];
  s = waveSum(s);
  if (lane == 0) segSum[seg] = s;
}

// Arg-max per segment; the last, partial stripe leaves the loop early.
__global__ void segMaxStrided(const float* __restrict__ vals, const int* __restrict__ segStart,
                              float* __restrict__ segMax, int* __restrict__ segArg, int numSegs) {
  const int lane = threadIdx.x % warpSize;
  const int seg = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (seg >= numSegs) return;
  const int beg = segStart[seg], end = segStart[seg + 1];
  float best = -FLT_MAX;
  int arg = -1;
  for (int base = beg; base < end; base += 32) {                          // expect: W64-LANE-MATH
    const int i = base + lane;
    const unsigned live = __ballot_sync(FULL_MASK, i < end);              // expect: W64-MASK32, W64-BALLOT-NARROW
    if (i < end && vals[i] > best) { best = vals[i]; arg = i; }
    if (live != FULL_MASK) break;                                         // expect: W64-BALLOT-NARROW
  }
  for (int o = 16; o > 0; o >>= 1) {                                      // expect: W64-SHFL-OFFSET
    const float ob = __shfl_down_sync(FULL_MASK, best, o);                // expect: W64-MASK32
    const int oa = __shfl_down_sync(FULL_MASK, arg, o);                   // expect: W64-MASK32
    if (ob > best || (ob == best && oa >= 0 && (arg < 0 || oa < arg))) { best = ob; arg = oa; }
  }
  if (lane == 0) { segMax[seg] = best; segArg[seg] = arg; }
}

// ----------------------------------------------------------- batch norm
// Block per channel: mean and inverse std over N x HW, then y = g * xhat + b.
__global__ void batchNormForward(const float* __restrict__ x, const float* __restrict__ gamma,
                                 const float* __restrict__ beta, float* __restrict__ y,
                                 float* __restrict__ saveMean, float* __restrict__ saveInvStd,
                                 int N, int C, int HW, float eps) {
  __shared__ float red[2][32];                                            // quiet: W64-WARP-COUNT
  const int c = blockIdx.x;
  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x / warpSize;
  const int nWarps = blockDim.x / warpSize;
  const int count = N * HW;
  float s = 0.f, ss = 0.f;
  for (int i = warp * 32 + lane; i < count; i += nWarps * 32) {           // expect: W64-LANE-MATH
    const int n = i / HW, p = i - n * HW;
    const float v = x[(static_cast<size_t>(n) * C + c) * HW + p];
    s += v;
    ss += v * v;
  }
  s = waveSum(s);
  ss = waveSum(ss);
  if (lane == 0) { red[0][warp] = s; red[1][warp] = ss; }
  __syncthreads();
  if (warp == 0) {
    s = waveSum(lane < nWarps ? red[0][lane] : 0.f);
    ss = waveSum(lane < nWarps ? red[1][lane] : 0.f);
    if (lane == 0) {
      const float m = s / count;
      red[0][0] = m;
      red[1][0] = rsqrtf(fmaxf(ss / count - m * m, 0.f) + eps);
    }
  }
  __syncthreads();
  const float mean = red[0][0], inv = red[1][0];
  if (threadIdx.x == 0) { saveMean[c] = mean; saveInvStd[c] = inv; }
  const float g = gamma[c] * inv, b = beta[c] - mean * g;
  for (int i = threadIdx.x; i < count; i += blockDim.x) {
    const size_t at = (static_cast<size_t>(i / HW) * C + c) * HW + i % HW;
    y[at] = x[at] * g + b;
  }
}

// ---------------------------------------------------------------- im2col
// Row r of the column matrix is (channel, ky, kx); a warp fills one row and
// its lanes walk the output pixels in tiles of 32.
__global__ void im2colWarpRows(const float* __restrict__ img, float* __restrict__ cols, int C, int H, int W,
                               int K, int pad, int stride, int OH, int OW) {
  const int lane = threadIdx.x % warpSize;
  const int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= C * K * K) return;
  const int ch = row / (K * K), ky = (row / K) % K, kx = row % K;
  const int P = OH * OW;
  for (int p0 = 0; p0 < P; p0 += 32) {                                    // expect: W64-LANE-MATH
    const int p = p0 + lane;
    if (p >= P) break;
    const int iy = (p / OW) * stride - pad + ky, ix = (p % OW) * stride - pad + kx;
    const bool in = iy >= 0 && iy < H && ix >= 0 && ix < W;
    cols[static_cast<size_t>(row) * P + p] = in ? img[(static_cast<size_t>(ch) * H + iy) * W + ix] : 0.f;
  }
}

constexpr int kTapTile = 32;  // taps staged per pass                     // quiet: W64-LANE-MATH

// Thread per output pixel; tap offsets are staged in shared memory.
__global__ void im2colTapTiles(const float* __restrict__ img, float* __restrict__ cols, int C, int H, int W,
                               int K, int OW, int P) {
  __shared__ int tapC[kTapTile], tapY[kTapTile], tapX[kTapTile];
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  const int taps = C * K * K;
  for (int t0 = 0; t0 < taps; t0 += kTapTile) {
    for (int t = threadIdx.x; t < kTapTile; t += blockDim.x) {
      const int tap = min(t0 + t, taps - 1);
      tapC[t] = tap / (K * K); tapY[t] = (tap / K) % K; tapX[t] = tap % K;
    }
    __syncthreads();
    if (p < P) {
      for (int t = 0; t < kTapTile && t0 + t < taps; ++t) {
        const int iy = p / OW + tapY[t], ix = p % OW + tapX[t];
        cols[static_cast<size_t>(t0 + t) * P + p] =
            (iy < H && ix < W) ? img[(static_cast<size_t>(tapC[t]) * H + iy) * W + ix] : 0.f;
      }
    }
    __syncthreads();
  }
}

// ------------------------------------------------------------------ host
void launchPooling(const float* table, const int64_t* idx, const int64_t* off, float* out, int numBags,
                   int dim, bool mean, const float* vals, const int* segStart, float* segSum, int numSegs,
                   cudaStream_t st) {
  const int threads = 256;
  const int blocks = (numBags * 32 + threads - 1) / threads;              // expect: W64-BLOCK-SIZE
  embeddingBagForward<<<blocks, threads, 0, st>>>(table, idx, off, out, numBags, dim, mean ? 1 : 0);
  const int segBlocks = (numSegs * 32 + threads - 1) / threads;           // expect: W64-BLOCK-SIZE
  segSumChunked<<<segBlocks, threads, 0, st>>>(vals, segStart, segSum, numSegs);
  if (cudaGetLastError() != cudaSuccess) fprintf(stderr, "pooling launch failed\n");
}
