// Tuning, round 11. Cause 2: recognition by value, not by name or syntax.
// Domains: Smith-Waterman sequence alignment, Jacobi solver, batched LU
// factorisation, cellular automata, segmented reduction (suffix sums).
// Ambiguous calls (labelled as a demanding GPU engineer reading the check
// pages would expect):
// - kSweepAll is a full mask `0xFFFFFFFFu` under a name without "mask":
//   reported at its definition, and every *_sync call passing it is labelled
//   (a related location of that finding).
// - AlignCfg::kRows (32) is read through the template parameter of an
//   explicitly instantiated kernel; its first use is lane math, so the member
//   is labelled W64-LANE-MATH and each use with the id the check gives there.
//   `rLen + C::kRows - 1` (the skew of the diagonal sweep) is no pattern of
//   the check pages and stays unlabelled.
// - swStripe's final max walks `int off = 16; while (off > 0)`: the start and
//   the loop share one line so the label holds wherever the 16 is reported.
// - kLanesPerRow is a template parameter whose default is 32 (a name with
//   "lane"): its definition is the template line (LANE-MATH, first use is lane
//   math); the kernel is instantiated with the default.
// - bandMaxAbs keeps `width` at its default 32 in every call: the default and
//   its `width / 2` loop share one line.
// - luBatched's lambda argMaxAbs is called with 32 at both calls: the loop
//   start `span / 2` is reported where it is used (inside the lambda).
// - teamSum<32> takes the width as a template argument written at the call;
//   the loop start `LANES / 2` is labelled at the loop in the template.
// - caStepRows numbers lanes by warpSize and drops the right neighbour with
//   `lane + 1 > 31` (expect); `leftW >> 31` and `rightW << 31` are bit 31 of
//   a 32-bit cell word (quiet), and __popc of a cell word is data (quiet).
// - segSuffix's `for (int d = 1, span = 32; d < span; d <<= 1)` declares the
//   bound beside the counter (expect) and `lane + d <= 31` tests a 32-lane end.
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdint>
#include <cstdio>

constexpr unsigned kSweepAll = 0xFFFFFFFFu;                                // expect: W64-MASK32

// ------------------------------------------------------------ Smith-Waterman
struct AlignCfg {
  static constexpr int kThreads = 128;
  static constexpr int kRows = 32;   // query rows per stripe              // expect: W64-LANE-MATH
  static constexpr int kMaxRef = 2048;
};

struct Score { int match, mismatch, gapOpen, gapExtend; };

// One warp aligns the query against one reference: lane i owns query row
// s0 + i of the current stripe and sweeps the anti-diagonals.
template <class C>
__global__ void swStripe(const char* __restrict__ query, int qLen, const char* __restrict__ refs,
                         const int* __restrict__ refOff, int numRefs, Score sc, int* __restrict__ carry,
                         int* __restrict__ best) {
  const int lane = threadIdx.x % C::kRows;                                 // expect: W64-LANE-MATH
  const int pair = blockIdx.x * (C::kThreads / C::kRows) + threadIdx.x / C::kRows;   // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (pair >= numRefs) return;
  const char* ref = refs + refOff[pair];
  const int rLen = min(refOff[pair + 1] - refOff[pair], C::kMaxRef);
  int* carryH = carry + static_cast<size_t>(pair) * 2 * C::kMaxRef;
  int* carryF = carryH + C::kMaxRef;
  int bestScore = 0;
  for (int s0 = 0; s0 < qLen; s0 += C::kRows) {                            // expect: W64-LANE-MATH
    const int qi = s0 + lane;
    const char q = qi < qLen ? query[qi] : 0;
    int hPrev = 0, ePrev = 0, fPrev = 0, diag = 0;
    for (int t = 0; t < rLen + C::kRows - 1; ++t) {
      int upH = __shfl_up_sync(kSweepAll, hPrev, 1);                       // expect: W64-MASK32
      int upF = __shfl_up_sync(kSweepAll, fPrev, 1);                       // expect: W64-MASK32
      const int j = t - lane;
      const bool inCell = j >= 0 && j < rLen && qi < qLen;
      if (lane == 0) {
        upH = (s0 > 0 && j >= 0 && j < rLen) ? carryH[j] : 0;
        upF = (s0 > 0 && j >= 0 && j < rLen) ? carryF[j] : -(1 << 20);
      }
      if (inCell) {
        const int e = max(ePrev - sc.gapExtend, hPrev - sc.gapOpen);
        const int f = max(upF - sc.gapExtend, upH - sc.gapOpen);
        const int h = max(0, max(diag + (q == ref[j] ? sc.match : sc.mismatch), max(e, f)));
        bestScore = max(bestScore, h);
        hPrev = h; ePrev = e; fPrev = f;
        if (lane == C::kRows - 1) { carryH[j] = h; carryF[j] = f; }        // expect: W64-LANE-MATH
      }
      diag = upH;
    }
  }
  int off = 16; while (off > 0) {                                          // expect: W64-SHFL-OFFSET
    bestScore = max(bestScore, __shfl_xor_sync(kSweepAll, bestScore, off));   // expect: W64-MASK32
    off >>= 1;
  }
  if (lane == 0) best[pair] = bestScore;
}
template __global__ void swStripe<AlignCfg>(const char*, int, const char*, const int*, int, Score, int*, int*);

// ------------------------------------------------------------------ Jacobi
// Max-norm over a band of lanes; every caller keeps the default width.
__device__ __forceinline__ float bandMaxAbs(float v, int width = 32) { for (int o = width / 2; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(kSweepAll, v, o)); return v; }   // expect: W64-SHFL-OFFSET, W64-MASK32

// One sweep of the 5-point Poisson stencil, a warp per interior row.
template <typename T, int kLanesPerRow = 32>                               // expect: W64-LANE-MATH
__global__ void jacobiRowSweep(const T* __restrict__ u, T* __restrict__ uNew, const T* __restrict__ f,
                               int nx, int ny, T h2, float* __restrict__ rowResidual) {
  const int lane = threadIdx.x % kLanesPerRow;                             // expect: W64-LANE-MATH
  const int row = 1 + blockIdx.x * (blockDim.x / kLanesPerRow) + threadIdx.x / kLanesPerRow;   // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (row >= ny - 1) return;
  float r = 0.f;
  for (int col = 1 + lane; col < nx - 1; col += kLanesPerRow) {            // expect: W64-LANE-MATH
    const size_t k = static_cast<size_t>(row) * nx + col;
    const T v = (u[k - 1] + u[k + 1] + u[k - nx] + u[k + nx] - h2 * f[k]) * T(0.25);
    uNew[k] = v;
    r = fmaxf(r, fabsf(static_cast<float>(v - u[k])));
  }
  r = bandMaxAbs(r);
  if (lane == 0) rowResidual[row] = r;
}
template __global__ void jacobiRowSweep<float>(const float*, float*, const float*, int, int, float, float*);

// ---------------------------------------------------------------- batched LU
// In-place LU with partial pivoting, one warp per n x n matrix (n <= 32).
__global__ void luBatched(float* __restrict__ A, int* __restrict__ piv, int n, int batch) {
  const int lane = threadIdx.x % warpSize;
  const int mat = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (mat >= batch) return;
  float* M = A + static_cast<size_t>(mat) * n * n;
  auto argMaxAbs = [](float v, int idx, int span) {
    for (int o = span / 2; o > 0; o >>= 1) {                               // expect: W64-SHFL-OFFSET
      const float ov = __shfl_xor_sync(kSweepAll, v, o);                   // expect: W64-MASK32
      const int oi = __shfl_xor_sync(kSweepAll, idx, o);                   // expect: W64-MASK32
      if (ov > v || (ov == v && oi < idx)) { v = ov; idx = oi; }
    }
    return idx;
  };
  int singular = 0;
  for (int k = 0; k < n; ++k) {
    const float a = (lane >= k && lane < n) ? fabsf(M[lane * n + k]) : -1.f;
    const int p = argMaxAbs(a, lane, 32);
    if (lane == 0) piv[static_cast<size_t>(mat) * n + k] = p;
    if (p != k && lane < n) {
      const float t = M[k * n + lane];
      M[k * n + lane] = M[p * n + lane];
      M[p * n + lane] = t;
    }
    __syncwarp();
    const float pivot = M[k * n + k];
    if (pivot == 0.f) { singular = 1; continue; }
    if (lane > k && lane < n) {
      const float l = M[lane * n + k] / pivot;
      M[lane * n + k] = l;
      for (int j = k + 1; j < n; ++j) M[lane * n + j] -= l * M[k * n + j];
    }
    __syncwarp();
  }
  const int colMaxRow = argMaxAbs(lane < n ? fabsf(M[lane * n + n - 1]) : -1.f, lane, 32);
  if (lane == 0 && (singular || colMaxRow < 0)) piv[static_cast<size_t>(mat) * n] = -1;
}

// ------------------------------------------------------- cellular automaton
template <int LANES>
__device__ __forceinline__ int teamSum(int v) {
  for (int o = LANES / 2; o > 0; o >>= 1) v += __shfl_xor_sync(kSweepAll, v, o);   // expect: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

// Elementary CA, a row of warpSize 32-bit words per warp, dead cells past the ends.
__global__ void caStepRows(const uint32_t* __restrict__ cur, uint32_t* __restrict__ nxt, int* __restrict__ pop,
                           int rows, int steps, uint8_t rule) {
  const int lane = threadIdx.x % warpSize;
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (row >= rows) return;
  uint32_t w = cur[static_cast<size_t>(row) * warpSize + lane];
  for (int s = 0; s < steps; ++s) {
    uint32_t leftW = __shfl_up_sync(kSweepAll, w, 1);                      // expect: W64-MASK32
    uint32_t rightW = __shfl_down_sync(kSweepAll, w, 1);                   // expect: W64-MASK32
    if (lane == 0) leftW = 0;
    if (lane + 1 > 31) rightW = 0;                                         // expect: W64-LANE-MATH
    const uint32_t l = (w << 1) | (leftW >> 31);                           // quiet: W64-LANE-MATH
    const uint32_t r = (w >> 1) | (rightW << 31);                          // quiet: W64-LANE-MATH
    uint32_t out = 0;
#pragma unroll
    for (int p = 0; p < 8; ++p)
      if ((rule >> p) & 1) out |= ((p & 4) ? l : ~l) & ((p & 2) ? w : ~w) & ((p & 1) ? r : ~r);
    w = out;
  }
  nxt[static_cast<size_t>(row) * warpSize + lane] = w;
  const int live = teamSum<32>(__popc(w));                                 // quiet: W64-BALLOT-NARROW
  if (lane == 0) pop[row] = live;
}

// ---------------------------------------------------- segmented suffix sums
// Right-to-left sums inside segments; tail flags mark a segment's last element.
__device__ float segSuffix(float v, bool tail, int lane) {
  for (int d = 1, span = 32; d < span; d <<= 1) {                          // expect: W64-SHFL-OFFSET
    const float nv = __shfl_down_sync(kSweepAll, v, d);                    // expect: W64-MASK32
    const int nt = __shfl_down_sync(kSweepAll, static_cast<int>(tail), d); // expect: W64-MASK32
    if (lane + d <= 31 && !tail) v += nv;                                  // expect: W64-LANE-MATH
    tail = tail || nt;
  }
  return v;
}

__global__ void segSuffixSums(const float* __restrict__ in, const uint8_t* __restrict__ tails,
                              float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = i < n ? in[i] : 0.f;
  const bool t = i < n ? tails[i] != 0 : true;
  const float s = segSuffix(v, t, threadIdx.x % warpSize);
  if (i < n) out[i] = s;
}

// ------------------------------------------------------------------ host
int runAlign(const char* q, int qLen, const char* refs, const int* refOff, int numRefs, int* carry, int* best) {
  const Score sc{2, -1, 3, 1};
  const int grid = (numRefs + 3) / 4;
  swStripe<AlignCfg><<<grid, AlignCfg::kThreads>>>(q, qLen, refs, refOff, numRefs, sc, carry, best);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
