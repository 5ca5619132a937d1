// Tuning round 14. Cause 4: thread indices used as data.
// Domains: triangle counting (a vertex bitmap, bit-packed adjacency rows of a
// dense core and their 32x32 bit-block transpose, a warp-per-edge intersection
// with ballots) and suffix array construction by prefix doubling (bucket heads
// as a bitmap, ranks by popcount of the words, a bank-padded Blelloch scan of
// the word counts).
// Labels were written from docs/checks only; the tool was never run on this file.
// Ambiguous calls:
// - Bit positions and words of a bitmap taken from a thread index, and rows and
//   columns of rows of 32 (`r = t / 32, c = t % 32` as `bit[c][r]`, `r * 33 + c`,
//   `(r << 5) + c`), in kernels with no warp call: quiet. So are the 32-row
//   tiles built from them (`blockIdx.y * 32 + r`) and bank padding
//   (CONFLICT_FREE_OFFSET, `(n) >> LOG_NUM_BANKS`).
// - `__popc` of bitmap words read from memory, and the partial word
//   `0xffffffffu >> (31 - bit)`: no lane masks (quiet BALLOT-NARROW, MASK32).
// - tc_group_offsets writes one slot per group of 32 vertices from the group's
//   first thread (`(v & 31) == 0 ... [v >> 5]`): not a bitmap, the pages' "groups
//   of 32 threads that never act as a warp" in a kernel without warp work: a note.
// - The one kernel that does warp work (tc_warp_per_edge) carries the positives;
//   its `hits & (1u << lane)` is a lane bit on a ballot (BALLOT-NARROW).
#include <cuda_runtime.h>
#include <cstdint>

#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

// ----------------------------------------------------- triangle counting ----

// Vertices of degree >= 2 (the only ones that can close a triangle), as a bitmap.
__global__ void tc_active_bitmap(const int* __restrict__ rowptr, int n, unsigned* __restrict__ active) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n && rowptr[v + 1] - rowptr[v] >= 2) atomicOr(&active[v >> 5], 1u << (v & 31));   // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
}

// Sampling index for the CSR rows: the first thread of every 32 vertices records its row start.
__global__ void tc_group_offsets(const int* __restrict__ rowptr, int n, int* __restrict__ groupStart) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n && (v & 31) == 0) groupStart[v >> 5] = rowptr[v];                      // note: W64-LANE-MATH
}

// Dense core: row u of the adjacency as `words` 32-bit words. Block (32 x 32 bits)
// transpose with 1024 threads, one bit each.
__global__ void tc_transpose_bitblocks(const unsigned* __restrict__ rows, unsigned* __restrict__ cols, int words) {
  __shared__ unsigned char bit[32][33];                                             // quiet: W64-WARP-COUNT
  const int t = threadIdx.x;
  const int r = t / 32, c = t % 32;                                                 // quiet: W64-LANE-MATH
  const unsigned w = rows[(blockIdx.y * 32 + r) * words + blockIdx.x];              // quiet: W64-LANE-MATH
  bit[c][r] = (w >> c) & 1u;
  __syncthreads();
  if (t < 32) {
    unsigned packed = 0;
    for (int k = 0; k < 32; ++k) packed |= static_cast<unsigned>(bit[t][k]) << k;
    cols[(blockIdx.x * 32 + t) * words + blockIdx.y] = packed;                     // quiet: W64-LANE-MATH
  }
}

// Same transpose staged through a padded 1-D tile, rows of 33.
__global__ void tc_transpose_bitblocks_1d(const unsigned* __restrict__ rows, unsigned char* __restrict__ dense, int words) {
  __shared__ unsigned char tile[32 * 33];
  const int t = threadIdx.x;
  const int r = t >> 5, c = t & 31;                                                 // quiet: W64-LANE-MATH
  tile[r * 33 + c] = (rows[(blockIdx.y * 32 + r) * words + blockIdx.x] >> c) & 1u;  // quiet: W64-LANE-MATH
  __syncthreads();
  dense[(blockIdx.x * 32 + r) * (32 * gridDim.y) + (blockIdx.y << 5) + c] = tile[c * 33 + r];   // quiet: W64-LANE-MATH
}

// Triangles through edge (u, v) of the dense core: popcount of the row intersection.
__global__ void tc_dense_rows(const unsigned* __restrict__ rows, const int2* __restrict__ edges, int nedges, int words,
                             unsigned long long* __restrict__ total) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= nedges) return;
  const unsigned* ru = rows + static_cast<size_t>(edges[e].x) * words;
  const unsigned* rv = rows + static_cast<size_t>(edges[e].y) * words;
  unsigned c = 0;
  for (int w = 0; w < words; ++w) c += __popc(ru[w] & rv[w]);                      // quiet: W64-BALLOT-NARROW
  atomicAdd(total, static_cast<unsigned long long>(c));
}

__device__ __forceinline__ bool contains(const int* __restrict__ a, int lo, int hi, int key) {
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (a[mid] < key) lo = mid + 1; else hi = mid;
  }
  return lo < hi + 1 && a[lo] == key;
}

// Sparse part: one warp per edge, the lanes probe u's neighbours in v's list.
__global__ void tc_warp_per_edge(const int* __restrict__ rowptr, const int* __restrict__ colidx,
                                 const int2* __restrict__ edges, int nedges, unsigned char* __restrict__ closing,
                                 unsigned long long* __restrict__ total) {
  const int lane = threadIdx.x & 31;                                                // expect: W64-LANE-MATH
  const int e = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;                       // expect: W64-LANE-MATH
  if (e >= nedges) return;
  const int u = edges[e].x, v = edges[e].y;
  const int ub = rowptr[u], ue = rowptr[u + 1], vb = rowptr[v], ve = rowptr[v + 1];
  unsigned count = 0;
  for (int i0 = ub, i = ub + lane; i0 < ue; i0 += 32, i += 32) {                    // expect: W64-LANE-MATH
    const bool hit = i < ue && contains(colidx, vb, ve - 1, colidx[i]);
    const unsigned hits = __ballot_sync(0xffffffffu, hit);                          // expect: W64-BALLOT-NARROW, W64-MASK32
    count += __popc(hits);                                                          // expect: W64-BALLOT-NARROW
    if (hits & (1u << lane)) closing[i] = 1;                                        // expect: W64-BALLOT-NARROW
  }
  if (lane == 0) atomicAdd(total, static_cast<unsigned long long>(count));
}

// ------------------------------------------------------------ suffix array ----

// After sorting by (rank[sa[i]], rank[sa[i] + k]): bucket heads as a bitmap.
__global__ void sa_mark_heads(const int* __restrict__ sa, const int* __restrict__ rank, int n, int k,
                              unsigned* __restrict__ headBits) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int s = sa[i];
  const int r1 = rank[s], r2 = s + k < n ? rank[s + k] : -1;
  bool head = i == 0;
  if (!head) {
    const int p = sa[i - 1];
    head = rank[p] != r1 || (p + k < n ? rank[p + k] : -1) != r2;
  }
  if (head) atomicOr(&headBits[i / 32], 1u << (i % 32));                            // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
}

__global__ void sa_word_counts(const unsigned* __restrict__ headBits, int nwords, unsigned* __restrict__ wordCount) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w < nwords) wordCount[w] = __popc(headBits[w]);                              // quiet: W64-BALLOT-NARROW
}

// Exclusive scan of the word counts, 2 * blockDim.x words per block (GPU Gems 3, 39.2.3).
__global__ void sa_scan_words(const unsigned* __restrict__ wordCount, unsigned* __restrict__ wordPrefix,
                              unsigned* __restrict__ blockSum, int nwords) {
  extern __shared__ unsigned temp[];
  const int thid = threadIdx.x, n = 2 * blockDim.x, base = blockIdx.x * n;
  const int ai = thid, bi = thid + blockDim.x;
  const int bankOffsetA = CONFLICT_FREE_OFFSET(ai), bankOffsetB = CONFLICT_FREE_OFFSET(bi);   // quiet: W64-LANE-MATH, W64-WARP-COUNT
  temp[ai + bankOffsetA] = base + ai < nwords ? wordCount[base + ai] : 0u;
  temp[bi + bankOffsetB] = base + bi < nwords ? wordCount[base + bi] : 0u;
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a); b += CONFLICT_FREE_OFFSET(b);                   // quiet: W64-LANE-MATH, W64-WARP-COUNT
      temp[b] += temp[a];
    }
    offset *= 2;
  }
  if (thid == 0) {
    blockSum[blockIdx.x] = temp[n - 1 + CONFLICT_FREE_OFFSET(n - 1)];              // quiet: W64-WARP-COUNT
    temp[n - 1 + CONFLICT_FREE_OFFSET(n - 1)] = 0;
  }
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a); b += CONFLICT_FREE_OFFSET(b);
      const unsigned x = temp[a];
      temp[a] = temp[b];
      temp[b] += x;
    }
  }
  __syncthreads();
  if (base + ai < nwords) wordPrefix[base + ai] = temp[ai + bankOffsetA];
  if (base + bi < nwords) wordPrefix[base + bi] = temp[bi + bankOffsetB];
}

// New rank of suffix sa[i]: heads at or before i (blockSum already added into wordPrefix).
__global__ void sa_rank_from_heads(const int* __restrict__ sa, const unsigned* __restrict__ headBits,
                                   const unsigned* __restrict__ wordPrefix, int n, int* __restrict__ rank) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned word = headBits[i >> 5];                                           // quiet: W64-LANE-MATH
  const unsigned upto = word & (0xffffffffu >> (31 - (i & 31)));                  // quiet: W64-LANE-MATH, W64-MASK32, W64-BALLOT-NARROW
  rank[sa[i]] = static_cast<int>(wordPrefix[i >> 5] + __popc(upto)) - 1;           // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
}

void count_triangles(const int* rowptr, const int* colidx, const int2* edges, int nedges, unsigned char* closing,
                     unsigned long long* total, cudaStream_t s) {
  tc_warp_per_edge<<<(nedges + 7) / 8, 256, 0, s>>>(rowptr, colidx, edges, nedges, closing, total);
}
