// Held out, round 12. Cause 1: lane strides and per-lane splits.
// Domains: sparse lower-triangular solve by level sets (and its sync-free variant),
// Gaussian-process regression with an RBF kernel (Gram matrix, length-scale gradient,
// predictive mean), halo-exchange packing for a 3-D stencil.
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - sptrsvLevel and gpPredictMean number their lanes by warpSize (quiet), but step over
//   them by a literal 32: the README's "lanes of two kinds" says strides and per-lane
//   offsets by 32 around a wavefront lane (`k * 32 + lane`, `lane + 32`) still assume 32
//   lanes, so the stride lines and `lane + 32` are LANE-MATH.
// - Tiles stepped by 32 with the lane added on the same line (`x0 += 32) { x = x0 + lane`)
//   carry one label; the step and the sum are one stride.
// - The per-lane split through a variable, `chunks = (d + 31) / 32`, is labelled where the
//   32 is (the share counted for 32 lanes) and again at `c * 32 + lane` (the stride).
//   The contiguous share `per = (ny + 31) / 32, y0 = lane * per` sits on one line.
// - rbfGram and rbfGradRow work in consistent 32-lane groups in their own parts of the
//   call graph (no vote, no warpSize): their findings may come as notes, which `expect`
//   accepts (the other kernels vote, reduce or read warpSize).
// - `blockIdx.x & 31` spreads atomics over 32 counters: blockIdx is no thread index
//   (quiet); the host's `32 * sizeof(int)` never reaches a launch (quiet BLOCK-SIZE).
// - Lanes by warpSize and loops from `warpSize / 2` or `warpSize >> 1` are quiet.
#include <cuda_runtime.h>
#include <cstdint>
#include <cmath>

// ---------------------------------------------------------------------------------------
// Level-set SpTRSV, L x = b, CSR with the diagonal stored last in each row. Every row of a
// level depends only on rows of earlier levels; one warp solves one row of the level.
__global__ void sptrsvLevel(const int* __restrict__ rowPtr, const int* __restrict__ colIdx,
                            const float* __restrict__ val, const int* __restrict__ levelRows,
                            int levelBegin, int levelEnd, const float* __restrict__ b,
                            float* __restrict__ x) {
  const int lane = threadIdx.x % warpSize;                                           // quiet: W64-LANE-MATH
  const int r = levelBegin + (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (r >= levelEnd) return;
  const int row = levelRows[r];
  const int first = rowPtr[row], diagPos = rowPtr[row + 1] - 1;
  float s = 0.f;
  for (int j = first + lane; j < diagPos; j += 32) s += val[j] * x[colIdx[j]];       // expect: W64-LANE-MATH
  for (int o = warpSize / 2; o > 0; o >>= 1)                                         // quiet: W64-SHFL-OFFSET
    s += __shfl_xor_sync(0xffffffff, s, o);                                          // expect: W64-MASK32
  if (lane == 0) x[row] = (b[row] - s) / val[diagPos];
}

// Sync-free SpTRSV: one warp per row over the whole matrix, spinning on the solved flags
// of the columns it reads. Written with 32-lane warps throughout.
__global__ void sptrsvSyncFree(const int* __restrict__ rowPtr, const int* __restrict__ colIdx,
                               const float* __restrict__ val, int n, const float* __restrict__ b,
                               volatile float* x, volatile int* solved) {
  const int lane = threadIdx.x & 31;                                                 // expect: W64-LANE-MATH
  const int row = blockIdx.x * (blockDim.x / 32) + (threadIdx.x >> 5);              // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (row >= n) return;
  const int first = rowPtr[row], diagPos = rowPtr[row + 1] - 1;
  float s = 0.f;
  for (int j = first + lane; j < diagPos; j += 32) {                                 // expect: W64-LANE-MATH
    const int c = colIdx[j];
    while (solved[c] == 0) { }
    s += val[j] * x[c];
  }
  if (__any_sync(0xffffffff, s != 0.f)) {                                            // expect: W64-MASK32
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);       // expect: W64-SHFL-OFFSET, W64-MASK32
  }
  if (lane == 0) {
    x[row] = (b[row] - s) / val[diagPos];
    __threadfence();
    solved[row] = 1;
  }
}

// ---------------------------------------------------------------------------------------
// Gaussian-process regression, RBF kernel K(a, b) = s2 * exp(-g * |a - b|^2).
// Gram matrix (upper triangle mirrored), one warp per entry, D features split over lanes.
template <int D>
__global__ void rbfGram(const float* __restrict__ X, int n, float g, float s2, float noise,
                        float* __restrict__ K) {
  const int lane = threadIdx.x & 31;                                                 // expect: W64-LANE-MATH
  const long long e = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;   // expect: W64-LANE-MATH
  if (e >= static_cast<long long>(n) * n) return;
  const int i = static_cast<int>(e / n), j = static_cast<int>(e % n);
  if (j < i) return;
  const float* a = X + static_cast<size_t>(i) * D;
  const float* c = X + static_cast<size_t>(j) * D;
  float d2 = 0.f;
#pragma unroll
  for (int k = 0; k < D / 32; ++k) { const float t = a[k * 32 + lane] - c[k * 32 + lane]; d2 += t * t; }   // expect: W64-LANE-MATH
  for (int o = 16; o > 0; o >>= 1) d2 += __shfl_xor_sync(0xffffffff, d2, o);       // expect: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) {
    const float kij = s2 * __expf(-g * d2) + (i == j ? noise : 0.f);
    K[static_cast<size_t>(i) * n + j] = kij;
    K[static_cast<size_t>(j) * n + i] = kij;
  }
}

// d log p / d g for the RBF length scale: sum_ij W_ij * K_ij * (-|x_i - x_j|^2), W = alpha alpha^T
// - K^-1 given densely. One warp per row i; the feature loop is split per lane through a
// chunk count.
__global__ void rbfGradRow(const float* __restrict__ X, int n, int d, const float* __restrict__ K,
                           const float* __restrict__ W, float* __restrict__ gradRow) {
  const int lane = threadIdx.x % 32;                                                 // expect: W64-LANE-MATH
  const int i = (blockIdx.x * blockDim.x + threadIdx.x) / 32;                        // expect: W64-LANE-MATH
  if (i >= n) return;
  const int chunks = (d + 31) / 32;                                                  // expect: W64-LANE-MATH
  float acc = 0.f;
  for (int j = 0; j < n; ++j) {
    float d2 = 0.f;
    for (int c = 0; c < chunks; ++c) {
      const int k = c * 32 + lane;                                                   // expect: W64-LANE-MATH
      if (k < d) { const float t = X[static_cast<size_t>(i) * d + k] - X[static_cast<size_t>(j) * d + k]; d2 += t * t; }
    }
    acc -= W[static_cast<size_t>(i) * n + j] * K[static_cast<size_t>(i) * n + j] * d2;
  }
  for (int o = 16; o > 0; o /= 2) acc += __shfl_down_sync(0xffffffff, acc, o);     // expect: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) gradRow[i] = acc;
}

// Predictive mean m(x*) = sum_j K(x*, x_j) alpha_j with |a - b|^2 = |a|^2 + |b|^2 - 2 a.b:
// one wavefront per 64-feature test point, two features per lane for its norm; the
// training points are walked in tiles of 32 with one point per lane.
__global__ void gpPredictMean(const float* __restrict__ Xs, int m, const float* __restrict__ X,
                              const float* __restrict__ xNorm2, int n, const float* __restrict__ alpha,
                              float g, float s2, float* __restrict__ mean) {
  constexpr int kDim = 64;
  const int lane = threadIdx.x % warpSize;
  const int t = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (t >= m) return;
  const float* xs = Xs + static_cast<size_t>(t) * kDim;
  const float q0 = xs[lane], q1 = xs[lane + 32];                                     // expect: W64-LANE-MATH
  float qq = q0 * q0 + q1 * q1;
  for (int o = warpSize >> 1; o > 0; o >>= 1)                                        // quiet: W64-SHFL-OFFSET
    qq += __shfl_xor_sync(0xffffffff, qq, o);                                        // expect: W64-MASK32
  float acc = 0.f;
  for (int base = 0; base < n; base += 32) { const int j = base + lane;             // expect: W64-LANE-MATH
    if (j >= n) continue;
    const float* xj = X + static_cast<size_t>(j) * kDim;
    float dot = 0.f;
    for (int k = 0; k < kDim; ++k) dot += xs[k] * xj[k];
    acc += s2 * __expf(-g * fmaxf(qq + xNorm2[j] - 2.f * dot, 0.f)) * alpha[j];
  }
  for (int o = warpSize >> 1; o > 0; o >>= 1)                                        // quiet: W64-SHFL-OFFSET
    acc += __shfl_down_sync(0xffffffff, acc, o);                                     // expect: W64-MASK32
  if (lane == 0) mean[t] = acc;
}

// ---------------------------------------------------------------------------------------
// Halo exchange for a 3-D stencil on an (nx, ny, nz) box with halo width h, x fastest.
// z-faces: rows of nx contiguous cells; one warp per (layer, y) row. Non-finite cells are
// counted on the way (32 counters, spread by block).
__global__ void packZFaces(const double* __restrict__ u, int nx, int ny, int nz, int h,
                           double* __restrict__ sendLo, double* __restrict__ sendHi,
                           int* __restrict__ badCells) {
  const int lane = threadIdx.x & 31;                                                 // expect: W64-LANE-MATH
  const int line = (blockIdx.x * blockDim.x + threadIdx.x) / 32;                     // expect: W64-LANE-MATH
  if (line >= ny * h) return;
  const int y = line % ny, layer = line / ny;
  const size_t plane = static_cast<size_t>(nx) * ny;
  const double* lo = u + (h + layer) * plane + static_cast<size_t>(y) * nx;
  const double* hi = u + (nz - 2 * h + layer) * plane + static_cast<size_t>(y) * nx;
  double* outLo = sendLo + static_cast<size_t>(line) * nx;
  double* outHi = sendHi + static_cast<size_t>(line) * nx;
  int bad = 0;
  for (int x0 = 0; x0 < nx; x0 += 32) { const int x = x0 + lane;                    // expect: W64-LANE-MATH
    const bool in = x < nx;
    const double a = in ? lo[x] : 0.0, c = in ? hi[x] : 0.0;
    if (in) { outLo[x] = a; outHi[x] = c; }
    const unsigned nf = __ballot_sync(0xffffffff, in && !(isfinite(a) && isfinite(c)));   // expect: W64-MASK32, W64-BALLOT-NARROW
    bad += __popc(nf);                                                               // expect: W64-BALLOT-NARROW
  }
  if (lane == 0 && bad) atomicAdd(&badCells[blockIdx.x & 31], bad);                  // quiet: W64-LANE-MATH
}

// x-faces: h cells per (y, z) line. One warp per z-slab; each lane packs a contiguous run
// of the slab's lines so that its writes stay together. The slab's largest magnitude is
// kept for the compressed exchange (non-negative floats order like their bits).
__global__ void packXFaces(const float* __restrict__ u, int nx, int ny, int nz, int h,
                           float* __restrict__ sendLo, float* __restrict__ sendHi,
                           float* __restrict__ slabMax) {
  const int lane = threadIdx.x & 31;                                                 // expect: W64-LANE-MATH
  const int z = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);                // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (z >= nz) return;
  const int per = (ny + 31) / 32, y0 = lane * per;                                   // expect: W64-LANE-MATH
  unsigned amax = 0u;
  for (int y = y0; y < min(ny, y0 + per); ++y) {
    const float* line = u + (static_cast<size_t>(z) * ny + y) * nx;
    float* dLo = sendLo + (static_cast<size_t>(z) * ny + y) * h;
    float* dHi = sendHi + (static_cast<size_t>(z) * ny + y) * h;
    for (int k = 0; k < h; ++k) {
      dLo[k] = line[h + k];
      dHi[k] = line[nx - 2 * h + k];
      amax = max(amax, max(__float_as_uint(fabsf(dLo[k])), __float_as_uint(fabsf(dHi[k]))));
    }
  }
  amax = __reduce_max_sync(0xffffffff, amax);                                        // expect: W64-MASK32
  if (lane == 0) slabMax[z] = __uint_as_float(amax);
}

// ---------------------------------------------------------------------------------------
void solveLevels(const int* rowPtr, const int* colIdx, const float* val, const int* levelPtrHost,
                 int numLevels, const int* levelRows, const float* b, float* x, cudaStream_t st) {
  for (int l = 0; l < numLevels; ++l) {
    const int rows = levelPtrHost[l + 1] - levelPtrHost[l];
    sptrsvLevel<<<(rows + 7) / 8, 256, 0, st>>>(rowPtr, colIdx, val, levelRows, levelPtrHost[l],
                                                levelPtrHost[l + 1], b, x);
  }
}

int exchangeFaces(const double* u, int nx, int ny, int nz, int h, double* sendLo, double* sendHi,
                  cudaStream_t st) {
  int* bad = nullptr;
  cudaMalloc(&bad, 32 * sizeof(int));                                               // quiet: W64-BLOCK-SIZE
  cudaMemsetAsync(bad, 0, 32 * sizeof(int), st);
  const int lines = ny * h;
  packZFaces<<<(lines + 7) / 8, 256, 0, st>>>(u, nx, ny, nz, h, sendLo, sendHi, bad);
  int host[32];
  cudaMemcpyAsync(host, bad, sizeof(host), cudaMemcpyDeviceToHost, st);
  cudaStreamSynchronize(st);
  cudaFree(bad);
  int total = 0;
  for (int i = 0; i < 32; ++i) total += host[i];
  return total;
}

template __global__ void rbfGram<64>(const float*, int, float, float, float, float*);
template __global__ void rbfGram<128>(const float*, int, float, float, float, float*);
