// Tuning round 9. Cause 4: a thread index used as data. Mostly hard
// negatives (graph colouring bitmaps, radix digit counts, a flat-index tile
// transpose, a bank-padded Blelloch scan, a 2D stencil over rows of 32),
// with one stream-compaction kernel whose 32s are real.
// Ambiguous calls and why they are labelled as they are:
// - wordOf / bitOf are helpers with no warp call, called from kernels with no
//   warp call, with a vertex index: the word and bit of a 32-bit bitmap
//   (quiet LANE-MATH); `1u << (i & 31u)` is a bitmap bit, not a lane bit of a
//   ballot (quiet BALLOT-NARROW).
// - digitCounts: 32 radix buckets (kBuckets = 1 << 5, no warp name, no
//   shuffle in the function): `local[kBuckets]` is a per-block bucket array,
//   not per-warp slots (quiet WARP-COUNT); the digit is taken from a key.
// - transposeFlat: `threadIdx.x >> 5` / `& 31` are the row and column of a
//   32 x 32 tile loaded by a flat block of 256 threads, used as
//   `tile[r * 33 + c]` in padded rows; `tile[32 * 33]` is not per-lane
//   storage (no warpSize in the function): quiet.
// - PAD(i) = i + (i >> 5) is bank-conflict padding, an index plus its own
//   thirty-second (quiet at the macro and at its uses).
// - jacobiRows (no warp call): `(r << 5) + c` with `c = t & 31` is a row of
//   32 columns, `c == 31` its last column and `at +- 32` the rows above and
//   below (quiet); `blockIdx.x % 32` is not a thread index (quiet).
// - compactPositive does take a ballot: its lane by 32, the 32-bit ballot
//   word, `__popc` on it and the `1u << lane` prefix mask are real, and its
//   full masks are MASK32 (expect).
#include <cuda_runtime.h>
#include <cstdint>

#define PAD(i) ((i) + ((i) >> 5))                                             // quiet: W64-LANE-MATH

constexpr int kRadixBits = 5;
constexpr int kBuckets = 1 << kRadixBits;

__device__ __forceinline__ uint32_t wordOf(uint32_t i) { return i >> 5; }     // quiet: W64-LANE-MATH
__device__ __forceinline__ uint32_t bitOf(uint32_t i) { return 1u << (i & 31u); }   // quiet: W64-LANE-MATH, W64-BALLOT-NARROW

// Jones-Plassmann colouring step: a vertex joins the independent set when its
// random weight beats every uncoloured neighbour's.
__global__ void selectIndependent(const int* __restrict__ rowPtr, const int* __restrict__ adj,
                                  const uint32_t* __restrict__ weight, const int* __restrict__ color,
                                  uint32_t* __restrict__ inSet, int nv) {
  const uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= static_cast<uint32_t>(nv) || color[v] >= 0) return;
  for (int e = rowPtr[v]; e < rowPtr[v + 1]; ++e) {
    const int u = adj[e];
    if (color[u] < 0 && (weight[u] > weight[v] || (weight[u] == weight[v] && static_cast<uint32_t>(u) > v))) return;
  }
  atomicOr(&inSet[wordOf(v)], bitOf(v));
}

// Colour the selected vertices with the smallest colour no neighbour holds.
__global__ void assignColors(const int* __restrict__ rowPtr, const int* __restrict__ adj,
                             const uint32_t* __restrict__ inSet, int* __restrict__ color, int nv) {
  const uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= static_cast<uint32_t>(nv)) return;
  if ((inSet[v / 32] & (1u << (v % 32))) == 0) return;                        // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
  uint32_t used[4] = {0u, 0u, 0u, 0u};
  for (int e = rowPtr[v]; e < rowPtr[v + 1]; ++e) {
    const int c = color[adj[e]];
    if (c >= 0 && c < 128) used[c >> 5] |= 1u << (c & 31);
  }
  int c = 0;
  while (c < 128 && (used[c >> 5] >> (c & 31) & 1u)) ++c;
  color[v] = c;
}

// Radix sort pass: per-block counts of one 5-bit digit.
__global__ void digitCounts(const uint32_t* __restrict__ keys, uint32_t* __restrict__ counts,
                            int n, int shift) {
  __shared__ uint32_t local[kBuckets];                                        // quiet: W64-WARP-COUNT
  if (threadIdx.x < kBuckets) local[threadIdx.x] = 0u;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[(keys[i] >> shift) & (kBuckets - 1)], 1u);
  __syncthreads();
  if (threadIdx.x < kBuckets) counts[threadIdx.x * gridDim.x + blockIdx.x] = local[threadIdx.x];
}

// 32 x 32 transpose, a flat block of 256 threads: 8 rows per pass.
__global__ void transposeFlat(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  __shared__ float tile[32 * 33];                                             // quiet: W64-WARP-COUNT
  const int r = threadIdx.x >> 5, c = threadIdx.x & 31;                       // quiet: W64-LANE-MATH
  const int bx = blockIdx.x * 32, by = blockIdx.y * 32;
  for (int rr = r; rr < 32; rr += 8)
    if (by + rr < rows && bx + c < cols) tile[rr * 33 + c] = in[static_cast<size_t>(by + rr) * cols + bx + c];
  __syncthreads();
  for (int rr = r; rr < 32; rr += 8)
    if (bx + rr < cols && by + c < rows) out[static_cast<size_t>(bx + rr) * rows + by + c] = tile[c * 33 + rr];
}

// Work-efficient exclusive scan of 2 * blockDim.x elements, bank-padded.
__global__ void blellochPadded(const float* __restrict__ in, float* __restrict__ out, int n) {
  extern __shared__ float buf[];
  const int t = threadIdx.x, m = 2 * blockDim.x;
  const int a = t, b = t + blockDim.x;
  buf[PAD(a)] = a < n ? in[a] : 0.f;                                          // quiet: W64-LANE-MATH
  buf[PAD(b)] = b < n ? in[b] : 0.f;                                          // quiet: W64-LANE-MATH
  int off = 1;
  for (int d = m >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) { const int i = off * (2 * t + 1) - 1, j = off * (2 * t + 2) - 1; buf[PAD(j)] += buf[PAD(i)]; }
    off <<= 1;
  }
  if (t == 0) buf[PAD(m - 1)] = 0.f;
  for (int d = 1; d < m; d <<= 1) {
    off >>= 1;
    __syncthreads();
    if (t < d) {
      const int i = off * (2 * t + 1) - 1, j = off * (2 * t + 2) - 1;
      const float x = buf[PAD(i)];
      buf[PAD(i)] = buf[PAD(j)];
      buf[PAD(j)] += x;
    }
  }
  __syncthreads();
  if (a < n) out[a] = buf[PAD(a)];
  if (b < n) out[b] = buf[PAD(b)];
}

// Weighted Jacobi sweep over a grid stored in rows of 32 columns, eight
// rows per block of 256 threads, with a per-block relaxation weight.
__global__ void jacobiRows(const float* __restrict__ u, float* __restrict__ v,
                           const float* __restrict__ omega, int nrows) {
  const int t = threadIdx.x;
  const int r = blockIdx.x * 8 + (t >> 5), c = t & 31;                        // quiet: W64-LANE-MATH
  if (r == 0 || r >= nrows - 1 || c == 0 || c == 31) return;                  // quiet: W64-LANE-MATH
  const int at = (r << 5) + c;                                                // quiet: W64-LANE-MATH
  const float w = omega[blockIdx.x % 32];                                     // quiet: W64-LANE-MATH
  v[at] = (1.f - w) * u[at] + w * 0.25f * (u[at - 1] + u[at + 1] + u[at - 32] + u[at + 32]);   // quiet: W64-LANE-MATH
}

// Stream compaction of positive values, warp-aggregated.
__global__ void compactPositive(const float* __restrict__ in, float* __restrict__ out,
                                int* __restrict__ count, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool keep = i < n && in[i] > 0.f;
  const unsigned lane = threadIdx.x % 32u;                                    // expect: W64-LANE-MATH
  const unsigned votes = __ballot_sync(0xffffffffu, keep);                    // expect: W64-BALLOT-NARROW, W64-MASK32
  int base = 0;
  if (lane == 0 && votes != 0u) base = atomicAdd(count, __popc(votes));       // expect: W64-BALLOT-NARROW
  base = __shfl_sync(0xffffffffu, base, 0);                                   // expect: W64-MASK32
  if (keep) out[base + __popc(votes & ((1u << lane) - 1u))] = in[i];          // expect: W64-BALLOT-NARROW
}
