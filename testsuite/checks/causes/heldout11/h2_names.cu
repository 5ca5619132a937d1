// Held out, round 11. Cause 2: recognition by value, not by name or syntax.
// Domains: parallel failureless Aho-Corasick (PFAC) multi-pattern search, offsets of
// per-document hit counts, attention scores against an int4 KV cache, DBSCAN core points.
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - PfacShape's enumerators kTextSpan = 32 and kSpanShift = 5 say nothing about warps;
//   read in pfacMatch (which ballots and shuffles) they count by value. Each is reported
//   at its definition with the id of its first use, LANE-MATH for both (the lane and the
//   group id come before the block's group count), and every use line carries the id
//   found there: WARP-COUNT for `blockDim.x >> kSpanShift`, BLOCK-SIZE for the host's
//   `numSegs * kTextSpan` grid (pfacMatch shuffles).
// - kNbrBatch = 32 is read by dbscanCore (ballots, shuffles through a lambda) and by
//   dbscanClearSlots, which does no warp-level work and calls nothing that does: the
//   latter's `i * kNbrBatch` is quiet. Its first use is `threadIdx.x & (kNbrBatch - 1)`.
// - kEvery is the full mask under a name without "mask": definition and every call.
//   kDeadState = ~0u is a trie sentinel compared with a state, never a lane mask (quiet).
// - KvCfg::kRowLanes is a template member read by KvDot<KvCfg>::run, a class template's
//   member function: LANE-MATH at the member, and the id found at each use.
// - partSuffix<Parts = 32>: a template default of a neutral name. The causes README
//   (tuning14) says the pages put such a default at its uses, so only the loop that
//   reads it is labelled, not the `template` line. foldN<float, 32> (a template
//   argument) and the helper foldSum(c, 32) / lambda minOver(v, 32): "a value passed
//   at the calls [is reported] where it is used", so the loops are labelled and the
//   call lines are not.
// - `32 > lane + d` is the mirror of `lane + d < 32` (LANE-MATH); `lane` is a helper
//   parameter every call passes a lane by 32.
// - The `while` offset is a local kept at 16 on one line with its loop (SHFL-OFFSET).
// - countsToOffsets runs on one warp: `<<<1, 32>>>` is a constant block that is no
//   multiple of 64 (BLOCK-SIZE).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cfloat>
#include <cstdint>

enum PfacShape : int {
  kTextSpan = 32,                                                                 // expect: W64-LANE-MATH
  kSpanShift = 5,                                                                 // expect: W64-LANE-MATH
};
constexpr unsigned kEvery = 0xffffffffu;                                          // expect: W64-MASK32
constexpr uint32_t kDeadState = ~0u;                                              // quiet: W64-MASK32
constexpr int kNbrBatch = 32;                                                     // expect: W64-LANE-MATH

struct KvCfg {
  static constexpr int kThreads = 128;
  static constexpr int kRowLanes = 32;                                            // expect: W64-LANE-MATH
  static constexpr int kHeadDim = 128;
};

// PFAC: every text position starts its own walk of the failureless trie. One group of
// kTextSpan threads per text segment, one start position per lane. trie[s * 256 + c] is
// the next state (kDeadState when the walk fails); outPat[s] >= 0 marks a match.
__global__ void pfacMatch(const uint8_t* __restrict__ text, int n, int segLen,
                          const uint32_t* __restrict__ trie, const int* __restrict__ outPat,
                          int2* __restrict__ hits, int* __restrict__ hitCount, int maxHits,
                          int* __restrict__ longest) {
  const int lane = threadIdx.x % kTextSpan;                                       // expect: W64-LANE-MATH
  const int grp = threadIdx.x >> kSpanShift;                                      // expect: W64-LANE-MATH
  const int seg = blockIdx.x * (blockDim.x >> kSpanShift) + grp;                  // expect: W64-WARP-COUNT
  const int begin = seg * segLen;
  if (begin >= n) return;
  const int end = min(n, begin + segLen);
  int best = 0;
  for (int base = begin; base < end; base += kTextSpan) { const int pos = base + lane;   // expect: W64-LANE-MATH
    int pat = -1, len = 0;
    if (pos < end) {
      uint32_t s = 0;
      for (int q = pos; q < n; ++q) {
        s = trie[s * 256u + text[q]];
        if (s == kDeadState) break;                                               // quiet: W64-BALLOT-NARROW
        if (outPat[s] >= 0) { pat = outPat[s]; len = q - pos + 1; }
      }
    }
    best = max(best, len);
    const unsigned found = __ballot_sync(kEvery, pat >= 0);                       // expect: W64-MASK32, W64-BALLOT-NARROW
    if (found == 0u) continue;
    int slot = 0;
    if (lane == 0) slot = atomicAdd(hitCount, __popc(found));                     // expect: W64-BALLOT-NARROW
    slot = __shfl_sync(kEvery, slot, 0) + __popc(found & ((1u << lane) - 1));     // expect: W64-MASK32, W64-BALLOT-NARROW
    if (pat >= 0 && slot < maxHits) hits[slot] = make_int2(pos, pat);
  }
  unsigned off = 16u; while (off != 0u) { best = max(best, __shfl_xor_sync(kEvery, best, off)); off >>= 1; }   // expect: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) atomicMax(longest, best);
}

// Inclusive suffix sums inside a group; the template default is the group width.
template <int Parts = 32>
__device__ __forceinline__ int partSuffix(int v, int lane) {
  for (int d = 1; d < Parts; d <<= 1) {                                           // expect: W64-SHFL-OFFSET
    const int t = __shfl_down_sync(kEvery, v, d);                                 // expect: W64-MASK32
    if (32 > lane + d) v += t;                                                    // expect: W64-LANE-MATH
  }
  return v;
}

__device__ __forceinline__ int foldSum(int v, int span) {
  for (int o = span / 2; o > 0; o /= 2) v += __shfl_xor_sync(kEvery, v, o);       // expect: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

// Exclusive offsets of per-document hit counts, one warp for the whole array:
// offset = carry + (chunk total - inclusive suffix).
__global__ void countsToOffsets(const int* __restrict__ counts, int n, int* __restrict__ offsets,
                                int* __restrict__ total) {
  const int lane = threadIdx.x & 31;                                              // expect: W64-LANE-MATH
  int carry = 0;
  for (int base = 0; base < n; base += 32) { const int i = base + lane;           // expect: W64-LANE-MATH
    const int c = i < n ? counts[i] : 0;
    const int suffix = partSuffix(c, lane);
    const int chunk = foldSum(c, 32);
    if (i < n) offsets[i] = carry + chunk - suffix;
    carry += chunk;
  }
  if (lane == 0) *total = carry;
}

template <typename T, int N>
__device__ __forceinline__ T foldN(T v) {
  for (int o = N / 2; o > 0; o >>= 1) v += __shfl_xor_sync(kEvery, v, o);        // expect: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

// Scores q . k for an int4 KV cache (two values per byte, one scale and zero point per
// cached row): one group of C::kRowLanes threads per (head, token) row.
template <class C>
struct KvDot {
  __device__ static void run(const __half* __restrict__ q, const uint8_t* __restrict__ kq,
                             const __half* __restrict__ kScale, const __half* __restrict__ kZero,
                             int nTok, int nHeads, float invSqrtD, float* __restrict__ scores) {
    const int lane = threadIdx.x % C::kRowLanes;                                  // expect: W64-LANE-MATH
    const int row = threadIdx.x / C::kRowLanes;                                   // expect: W64-LANE-MATH
    const int rowsPerBlock = C::kThreads / C::kRowLanes;                          // expect: W64-WARP-COUNT
    const int task = blockIdx.x * rowsPerBlock + row;
    if (task >= nHeads * nTok) return;
    const int h = task / nTok;
    const __half* qh = q + static_cast<size_t>(h) * C::kHeadDim;
    const uint8_t* kr = kq + static_cast<size_t>(task) * (C::kHeadDim / 2);
    const float s = __half2float(kScale[task]), z = __half2float(kZero[task]);
    float acc = 0.f;
    for (int d = lane; d < C::kHeadDim; d += C::kRowLanes) {                      // expect: W64-LANE-MATH
      const unsigned nib = (kr[d >> 1] >> ((d & 1) * 4)) & 0xFu;
      acc += __half2float(qh[d]) * (static_cast<float>(nib) - z) * s;
    }
    acc = foldN<float, 32>(acc);
    if (lane == 0) scores[task] = acc * invSqrtD;
  }
};

template <class C>
__global__ void __launch_bounds__(C::kThreads)
kvScores(const __half* __restrict__ q, const uint8_t* __restrict__ kq, const __half* __restrict__ kScale,
         const __half* __restrict__ kZero, int nTok, int nHeads, float invSqrtD, float* __restrict__ scores) {
  KvDot<C>::run(q, kq, kScale, kZero, nTok, nHeads, invSqrtD, scores);
}

// DBSCAN core points: one group of kNbrBatch threads per point scans every point in
// batches, one candidate per lane; the distance to the nearest other point is kept too.
__global__ void dbscanCore(const float2* __restrict__ pts, int n, float eps2, int minPts,
                           int* __restrict__ nbrCount, uint8_t* __restrict__ isCore,
                           float* __restrict__ nearest) {
  const int lane = threadIdx.x & (kNbrBatch - 1);                                 // expect: W64-LANE-MATH
  const int p = (blockIdx.x * blockDim.x + threadIdx.x) / kNbrBatch;              // expect: W64-LANE-MATH
  if (p >= n) return;
  auto minOver = [](float v, int span) {
    for (int o = span >> 1; o; o >>= 1) v = fminf(v, __shfl_xor_sync(kEvery, v, o));   // expect: W64-SHFL-OFFSET, W64-MASK32
    return v;
  };
  const float2 me = pts[p];
  int cnt = 0;
  float dmin = FLT_MAX;
  for (int base = 0; base < n; base += kNbrBatch) { const int j = base + lane;    // expect: W64-LANE-MATH
    bool near = false;
    if (j < n) {
      const float dx = pts[j].x - me.x, dy = pts[j].y - me.y, d2 = dx * dx + dy * dy;
      near = d2 <= eps2;
      if (j != p) dmin = fminf(dmin, d2);
    }
    cnt += __popc(__ballot_sync(kEvery, near));                                   // expect: W64-MASK32, W64-BALLOT-NARROW
  }
  dmin = minOver(dmin, 32);
  if (lane == 0) { nbrCount[p] = cnt; isCore[p] = cnt >= minPts; nearest[p] = sqrtf(dmin); }
}

// One thread per point: clear its fixed block of kNbrBatch neighbour slots. No warp-level
// work here or in anything it calls.
__global__ void dbscanClearSlots(int* __restrict__ slots, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int s = 0; s < kNbrBatch; ++s) slots[static_cast<size_t>(i) * kNbrBatch + s] = -1;   // quiet: W64-LANE-MATH
}

void runPfac(const uint8_t* text, int n, int segLen, const uint32_t* trie, const int* outPat, int2* hits,
             int* hitCount, int maxHits, int* longest, const int* docCounts, int numDocs, int* docOffsets,
             int* docTotal, cudaStream_t st) {
  const int numSegs = (n + segLen - 1) / segLen;
  const long long threads = static_cast<long long>(numSegs) * kTextSpan;          // expect: W64-BLOCK-SIZE
  pfacMatch<<<static_cast<int>((threads + 255) / 256), 256, 0, st>>>(text, n, segLen, trie, outPat, hits,
                                                                     hitCount, maxHits, longest);
  countsToOffsets<<<1, 32, 0, st>>>(docCounts, numDocs, docOffsets, docTotal);   // expect: W64-BLOCK-SIZE
}

void runKvScores(const __half* q, const uint8_t* kq, const __half* kScale, const __half* kZero, int nTok,
                 int nHeads, float invSqrtD, float* scores, cudaStream_t st) {
  const int rows = nHeads * nTok;
  kvScores<KvCfg><<<(rows + 3) / 4, KvCfg::kThreads, 0, st>>>(q, kq, kScale, kZero, nTok, nHeads,
                                                              invSqrtD, scores);
}

void runDbscan(const float2* pts, int n, float eps, int minPts, int* nbrCount, uint8_t* isCore,
               float* nearest, int* slots, cudaStream_t st) {
  dbscanClearSlots<<<(n + 255) / 256, 256, 0, st>>>(slots, n);
  dbscanCore<<<(n + 7) / 8, 256, 0, st>>>(pts, n, eps * eps, minPts, nbrCount, isCore, nearest);
}
