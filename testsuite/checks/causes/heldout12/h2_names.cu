// Held out, round 12. Cause 2: recognition by value, not by name or syntax.
// Domains: top-k sampling for LLM decoding (temperature softmax statistics of a row,
// drawing a token from its sorted top-k candidates with tail masses for min-p / top-p),
// Count-Min sketches (warp-merged updates, decay of a sliding-window sketch).
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - kStripe = 32 and kStripeBits = 5 have names that say nothing about warps; every
//   function that reads them shuffles, so they count by value. Each is reported at its
//   definition with the id of its first use (both first used as LANE-MATH in
//   rowSoftmaxStats), and every use line carries the id found there: WARP-COUNT for
//   `blockDim.x >> kStripeBits` and the per-stripe slots `slot[kStripe]` (indexed by a
//   stripe id counted with kStripeBits); BLOCK-SIZE for the host's `rows * kStripe`.
// - `for (int o = 1; o < kStripe; o <<= 1)` is an xor max butterfly written upwards as a
//   loop: the SHFL-OFFSET page's doubling loop up to 32 whose body shuffles by the
//   counter (labelled SHFL-OFFSET).
// - The lambda stripeSum(v, width) is called with 32 at every call: its loop is labelled,
//   the calls are not. sampleTopk<Chunk = 32> is instantiated with its default: the loops
//   that read Chunk are labelled, the `template` line is not (causes README, tuning14).
// - `lane + d <= 31` in the suffix scan is a last-lane test (LANE-MATH); the broadcast
//   from lane 0 has only its mask labelled.
// - kAllLanes (no "mask" in the name) and the macro CMS_EVERYONE are full masks: each
//   definition and each call using it. kEmptyKey = 0xffffffffu is a key sentinel, passed
//   to __match_any_sync as the value, never the mask (quiet), and `key == kEmptyKey`
//   compares a key, not a lane mask (quiet BALLOT-NARROW).
// - kCellsPerThread = 32 is only read by cmsDecay and its host launch, which do no
//   warp-level work and call nothing that does: quiet (a division on the host is no
//   launch shape either).
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdint>

constexpr int kStripe = 32;                                                          // expect: W64-LANE-MATH
constexpr int kStripeBits = 5;                                                       // expect: W64-LANE-MATH
constexpr unsigned kAllLanes = 0xffffffffu;                                          // expect: W64-MASK32

// Temperature softmax statistics of one decoding row: max logit and sum of exp. One block
// per row; one shared slot per stripe of kStripe threads.
__global__ void rowSoftmaxStats(const float* __restrict__ logits, int vocab, float invTemp,
                                float* __restrict__ rowMax, float* __restrict__ rowSum) {
  const int lane = threadIdx.x & (kStripe - 1);                                      // expect: W64-LANE-MATH
  const int sid = threadIdx.x >> kStripeBits;                                        // expect: W64-LANE-MATH
  const int nStripes = blockDim.x >> kStripeBits;                                    // expect: W64-WARP-COUNT
  __shared__ float slot[kStripe];                                                    // expect: W64-WARP-COUNT
  __shared__ float rowTop;
  auto stripeSum = [](float v, int width) {
    for (int o = width / 2; o > 0; o /= 2) v += __shfl_down_sync(kAllLanes, v, o);  // expect: W64-SHFL-OFFSET, W64-MASK32
    return v;
  };
  const float* row = logits + static_cast<size_t>(blockIdx.x) * vocab;
  float m = -FLT_MAX;
  for (int i = threadIdx.x; i < vocab; i += blockDim.x) m = fmaxf(m, row[i] * invTemp);
  for (int o = kStripe / 2; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(kAllLanes, m, o));   // expect: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) slot[sid] = m;
  __syncthreads();
  if (sid == 0) {
    m = lane < nStripes ? slot[lane] : -FLT_MAX;
    for (int o = 1; o < kStripe; o <<= 1) m = fmaxf(m, __shfl_xor_sync(kAllLanes, m, o));     // expect: W64-SHFL-OFFSET, W64-MASK32
    if (lane == 0) rowTop = m;
  }
  __syncthreads();
  const float mx = rowTop;
  float s = 0.f;
  for (int i = threadIdx.x; i < vocab; i += blockDim.x) s += __expf(row[i] * invTemp - mx);
  s = stripeSum(s, 32);
  __syncthreads();
  if (lane == 0) slot[sid] = s;
  __syncthreads();
  if (sid == 0) {
    s = stripeSum(lane < nStripes ? slot[lane] : 0.f, 32);
    if (lane == 0) { rowMax[blockIdx.x] = mx; rowSum[blockIdx.x] = s; }
  }
}

// Draw one token per row from its k candidates (largest first): one stripe per row, the
// candidates in chunks with a suffix scan per chunk (tail masses, stored for the chunks
// walked before the pick, feed the min-p and top-p filters of the next step).
template <int Chunk = 32>
__global__ void sampleTopk(const float* __restrict__ topVal, const int* __restrict__ topId, int rows, int k,
                           const float* __restrict__ uniforms, int* __restrict__ token,
                           float* __restrict__ tailMass) {
  const int lane = threadIdx.x % kStripe;                                            // expect: W64-LANE-MATH
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / kStripe;                 // expect: W64-LANE-MATH
  if (row >= rows) return;
  const float* v = topVal + static_cast<size_t>(row) * k;
  const float top = v[0];
  float tot = 0.f;
  for (int i = lane; i < k; i += kStripe) tot += __expf(v[i] - top);                 // expect: W64-LANE-MATH
  for (int o = Chunk / 2; o > 0; o >>= 1) tot += __shfl_xor_sync(kAllLanes, tot, o); // expect: W64-SHFL-OFFSET, W64-MASK32
  const float target = uniforms[row] * tot;
  float carry = 0.f;
  int pick = k - 1;
  for (int base = 0; base < k; base += kStripe) { const int i = base + lane;         // expect: W64-LANE-MATH
    const float p = i < k ? __expf(v[i] - top) : 0.f;
    float tail = p;
    for (int d = 1; d < Chunk; d <<= 1) {                                            // expect: W64-SHFL-OFFSET
      const float t = __shfl_down_sync(kAllLanes, tail, d);                          // expect: W64-MASK32
      if (lane + d <= 31) tail += t;                                                 // expect: W64-LANE-MATH
    }
    const float chunkTot = __shfl_sync(kAllLanes, tail, 0);                          // expect: W64-MASK32
    if (i < k) tailMass[static_cast<size_t>(row) * k + i] = (tot - carry - chunkTot + tail) / tot;
    const float incl = chunkTot - tail + p;
    const unsigned over = __ballot_sync(kAllLanes, i < k && carry + incl > target);  // expect: W64-MASK32, W64-BALLOT-NARROW
    if (over) { pick = base + __ffs(over) - 1; break; }                              // expect: W64-BALLOT-NARROW
    carry += chunkTot;
  }
  if (lane == 0) token[row] = topId[static_cast<size_t>(row) * k + pick];
}

// ---------------------------------------------------------------------------------------
// Count-Min sketch of depth kDepth and any width.
#define CMS_EVERYONE 0xffffffffu                                                     // expect: W64-MASK32
constexpr uint32_t kEmptyKey = 0xffffffffu;                                          // quiet: W64-MASK32
constexpr int kCellsPerThread = 32;                                                  // quiet: W64-LANE-MATH
constexpr int kDepth = 4;

__device__ __forceinline__ uint32_t cmsHash(uint32_t key, uint32_t seed) {
  uint32_t h = (key ^ seed) * 0x9E3779B1u;
  h ^= h >> 16; h *= 0x85EBCA6Bu; h ^= h >> 13; h *= 0xC2B2AE35u; h ^= h >> 16;
  return h;
}

// Update: equal keys inside a warp are merged first, one atomic per distinct key and row.
__global__ void cmsUpdate(const uint32_t* __restrict__ keys, int n, unsigned* __restrict__ sketch, int width,
                          const uint32_t* __restrict__ seeds) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;                                                 // expect: W64-LANE-MATH
  const uint32_t key = i < n ? keys[i] : kEmptyKey;
  const unsigned peers = __match_any_sync(CMS_EVERYONE, key);                        // expect: W64-MASK32, W64-BALLOT-NARROW
  if (key == kEmptyKey) return;                                                      // quiet: W64-BALLOT-NARROW
  if (lane != __ffs(peers) - 1) return;                                              // expect: W64-BALLOT-NARROW
  const unsigned cnt = __popc(peers);                                                // expect: W64-BALLOT-NARROW
  for (int r = 0; r < kDepth; ++r)
    atomicAdd(&sketch[static_cast<size_t>(r) * width + cmsHash(key, seeds[r]) % width], cnt);
}

// Sliding-window decay: every thread halves its own run of kCellsPerThread counters. No
// warp-level work here or in anything it calls.
__global__ void cmsDecay(unsigned* __restrict__ sketch, int cells) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int c = 0; c < kCellsPerThread; ++c) {
    const int idx = t * kCellsPerThread + c;                                         // quiet: W64-LANE-MATH
    if (idx < cells) sketch[idx] >>= 1;
  }
}

// ---------------------------------------------------------------------------------------
// The top-k candidates (topVal, topId) come from the selection kernels of the decoder.
void decodeStep(const float* logits, int rows, int vocab, int k, float temperature, const float* uniforms,
                const float* topVal, const int* topId, int* token, float* tail, float* rowMax,
                float* rowSum, cudaStream_t st) {
  rowSoftmaxStats<<<rows, 256, 0, st>>>(logits, vocab, 1.f / temperature, rowMax, rowSum);
  const int threads = rows * kStripe;                                                // expect: W64-BLOCK-SIZE
  sampleTopk<><<<(threads + 127) / 128, 128, 0, st>>>(topVal, topId, rows, k, uniforms, token, tail);
}

void sketchStep(const uint32_t* keys, int n, unsigned* sketch, int width, const uint32_t* seeds,
                bool decay, cudaStream_t st) {
  cmsUpdate<<<(n + 255) / 256, 256, 0, st>>>(keys, n, sketch, width, seeds);
  if (!decay) return;
  const int cells = kDepth * width;
  cmsDecay<<<(cells / kCellsPerThread + 255) / 256, 256, 0, st>>>(sketch, cells);  // quiet: W64-BLOCK-SIZE
}
