// Held out, round 11. Cause 5: consistent 32-lane groups, right at 64 lanes as written.
// Domains: int8 activation quantisation with one scale per 32 values, L2 normalisation
// of 32-wide embeddings, exact pattern windows over text, block sums, linear-probe
// scores, segmented prefix sums with odd-sized tails.
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - The unit is one of consistent 32-lane groups (README "Consistent 32-lane groups"):
//   every shuffle is default-width with offsets in [0, 32) (xor butterflies from
//   GRP_LANES / 2 and from 16, a shfl_up scan to 32), there is no ballot, vote,
//   activemask, match or reduce, no broadcast at all, and nothing reads warpSize. So
//   LANE-MATH, WARP-COUNT, SHFL-OFFSET and BLOCK-SIZE are notes, and so is MASK32 (the
//   group mask; dropped at HIP 5.2).
// - GRP_LANES says "lanes": LANE-MATH at its definition whichever use comes first; a note,
//   since every use folded into it is a note. Each use line carries the id found there.
//   GRP_ALL is a full mask in an object-like macro: the definition and every call.
// - The grp:: helpers mimic a shared header included by this unit only; grp::lane() and
//   grp::group() return `& (GRP_LANES - 1)` and `/ GRP_LANES` (notes at the helpers).
// - l2NormRows32: `r * 32` on a row id by 32 is `warp * 32` (note); quantGroups32's
//   `scales[i >> 5]` is a global group id (note): both functions call shuffling helpers,
//   so the "data" exemption (functions without warp calls) does not apply.
// - Host: `rowsPerBlock * 32` (a runtime product reaching the block size) and the
//   constant block 96 are BLOCK-SIZE notes; `dim3 block(GRP_LANES * 4)` is a constant
//   whole-wavefront block for a kernel in consistent groups: "the block is right as it
//   is" (quiet).
// - `l == 31 || i == n - 1` closes the odd-sized last group (LANE-MATH note for `== 31`,
//   `i >> 5` on the same line).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>

// ---- grp_reduce.cuh (shared helpers) ----
#define GRP_LANES 32                                                              // note: W64-LANE-MATH
#define GRP_ALL 0xffffffffu                                                       // note: W64-MASK32

namespace grp {
__device__ __forceinline__ float sum(float v) {
  for (int o = GRP_LANES / 2; o > 0; o >>= 1) v += __shfl_xor_sync(GRP_ALL, v, o);   // note: W64-SHFL-OFFSET, W64-MASK32
  return v;
}
__device__ __forceinline__ float amax(float v) {
  for (int o = 16; o; o >>= 1) v = fmaxf(v, __shfl_xor_sync(GRP_ALL, v, o));     // note: W64-SHFL-OFFSET, W64-MASK32
  return v;
}
__device__ __forceinline__ int lane() { return threadIdx.x & (GRP_LANES - 1); }   // note: W64-LANE-MATH
__device__ __forceinline__ int group() { return threadIdx.x / GRP_LANES; }        // note: W64-LANE-MATH
}  // namespace grp
// ---- end grp_reduce.cuh ----

// Activations quantised to int8 with one scale per 32 consecutive values: one group of
// 32 threads per quantisation group; n need not be a multiple of 32 (the tail is padded).
__global__ void quantGroups32(const __half* __restrict__ x, int n, int8_t* __restrict__ q,
                              __half* __restrict__ scales) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = i < n ? __half2float(x[i]) : 0.f;
  const float m = grp::amax(fabsf(v));
  const float s = m > 0.f ? m / 127.f : 1.f;
  if (i < n) q[i] = static_cast<int8_t>(__float2int_rn(v / s));
  if (grp::lane() == 0 && i < n) scales[i >> 5] = __float2half(s);                // note: W64-LANE-MATH
}

// L2 normalisation of embeddings of exactly 32 floats, one lane per element.
__global__ void l2NormRows32(float* __restrict__ e, int rows) {
  const int l = threadIdx.x % 32;                                                 // note: W64-LANE-MATH
  const int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;                // note: W64-WARP-COUNT, W64-LANE-MATH
  if (r >= rows) return;
  float* row = e + static_cast<size_t>(r) * 32;                                   // note: W64-LANE-MATH
  const float v = row[l];
  const float ss = grp::sum(v * v);
  row[l] = v * rsqrtf(fmaxf(ss, 1e-12f));
}

// Exact search for a pattern of m <= 32 bytes: one group per text position, lane k
// compares byte k; the mismatches are summed over the group.
__global__ void matchWindows(const uint8_t* __restrict__ text, int n, const uint8_t* __restrict__ pat,
                             int m, int* __restrict__ hitPos, int* __restrict__ hitCount) {
  const int l = grp::lane();
  const int pos = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);            // note: W64-WARP-COUNT, W64-LANE-MATH
  if (pos + m > n) return;
  const float miss = (l < m && text[pos + l] != pat[l]) ? 1.f : 0.f;
  if (grp::sum(miss) == 0.f && l == 0) hitPos[atomicAdd(hitCount, 1)] = pos;
}

// Block sum: one shared slot per group, then the first group adds the slots.
__global__ void blockSumGroups(const float* __restrict__ in, int n, float* __restrict__ out) {
  __shared__ float part[32];                                                      // note: W64-WARP-COUNT
  const int l = grp::lane(), g = grp::group();
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
  v = grp::sum(v);
  if (l == 0) part[g] = v;
  __syncthreads();
  if (g == 0) {
    v = l < blockDim.x / GRP_LANES ? part[l] : 0.f;                               // note: W64-WARP-COUNT
    v = grp::sum(v);
    if (l == 0) atomicAdd(out, v);
  }
}

// Linear-probe scores: one group per embedding row, y[row] = A[row] . w.
__global__ void probeScores(const float* __restrict__ A, const float* __restrict__ w, int M, int K,
                            float* __restrict__ y) {
  const int l = grp::lane();
  const int row = blockIdx.x * (blockDim.x / GRP_LANES) + grp::group();           // note: W64-WARP-COUNT
  if (row >= M) return;
  float acc = 0.f;
  for (int k = l; k < K; k += GRP_LANES) acc += A[static_cast<size_t>(row) * K + k] * w[k];   // note: W64-LANE-MATH
  acc = grp::sum(acc);
  if (l == 0) y[row] = acc;
}

// Inclusive prefix sums inside each group of 32 consecutive values; the last lane of a
// group (or the last value of an odd-sized tail) writes the group total.
__global__ void groupInclusiveScan(const int* __restrict__ in, int n, int* __restrict__ out,
                                   int* __restrict__ groupTotals) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int l = threadIdx.x & 31;                                                 // note: W64-LANE-MATH
  int v = i < n ? in[i] : 0;
  for (int d = 1; d < 32; d <<= 1) {                                              // note: W64-SHFL-OFFSET
    const int t = __shfl_up_sync(GRP_ALL, v, d);                                  // note: W64-MASK32
    if (l >= d) v += t;
  }
  if (i < n) out[i] = v;
  if (i < n && (l == 31 || i == n - 1)) groupTotals[i >> 5] = v;                  // note: W64-LANE-MATH
}

void quantise(const __half* x, int n, int8_t* q, __half* scales, cudaStream_t st) {
  quantGroups32<<<(n + 255) / 256, 256, 0, st>>>(x, n, q, scales);
}

void normalise(float* e, int rows, int rowsPerBlock, cudaStream_t st) {
  const int threads = rowsPerBlock * 32;                                          // note: W64-BLOCK-SIZE
  l2NormRows32<<<(rows + rowsPerBlock - 1) / rowsPerBlock, threads, 0, st>>>(e, rows);
}

void searchPattern(const uint8_t* text, int n, const uint8_t* pat, int m, int* hitPos, int* hitCount,
                   cudaStream_t st) {
  cudaMemsetAsync(hitCount, 0, sizeof(int), st);
  matchWindows<<<(n + 2) / 3, 96, 0, st>>>(text, n, pat, m, hitPos, hitCount);   // note: W64-BLOCK-SIZE
}

void reduceAndScore(const float* in, int n, float* out, const float* A, const float* w, int M, int K,
                    float* y, const int* vals, int nv, int* pre, int* totals, cudaStream_t st) {
  cudaMemsetAsync(out, 0, sizeof(float), st);
  blockSumGroups<<<120, 256, 0, st>>>(in, n, out);
  const dim3 block(GRP_LANES * 4);                                                // quiet: W64-BLOCK-SIZE
  probeScores<<<(M + 3) / 4, block, 0, st>>>(A, w, M, K, y);
  groupInclusiveScan<<<(nv + 255) / 256, 256, 0, st>>>(vals, nv, pre, totals);
}
