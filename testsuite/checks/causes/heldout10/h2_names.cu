// Held out, round 10. Cause 2: recognition by value, not by name or syntax.
// Domains: hash-join probe over bucketised tables, fused LSTM cell with int8
// output groups, nucleus (top-p) sampling.
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - ProbeShape's enumerators kSlotsPerBucket = 32 and kBucketShift = 5 say nothing
//   about warps; read in the probe kernel (which ballots and shuffles) they count by
//   value. Each is reported at its definition with the id of its first use (lane
//   math for both; the probe kernel takes the lane before it counts the block's
//   groups), and every use line is labelled with the id found there: LANE-MATH for
//   lanes, warp ids and `h * kSlotsPerBucket + lane`, WARP-COUNT for
//   `blockDim.x >> kBucketShift`, BLOCK-SIZE for the host's launch shape
//   `numProbes * kSlotsPerBucket` (the probe kernel shuffles).
// - hashJoinBuild reads kSlotsPerBucket too, but it neither shuffles nor calls or is
//   called by code that does: its uses are quiet, and so is the memset size.
// - kEmptyKey = 0xffffffff is a key sentinel, never a lane mask (quiet); kAllLanes is
//   the full mask under a name without "mask" (definition and every call).
// - LstmCfg::kSpan = 32 is a template member read by lstmGates<LstmCfg>: LANE-MATH at
//   the member, and at each use the id found there.
// - gateSum<Width = 32>: the default and the loop that halves it are on separate
//   lines; both are labelled (the default is the definition site, the loop a use).
// - groupAbsMax(v, lanes): its only call passes 32; the loop that halves the
//   parameter and the call are both labelled SHFL-OFFSET. The lambda chunkSum(v, span)
//   is the same with one call.
// - topPSample: `chunk` is a local kept at 32 (definition and the step that reads it
//   are labelled); its tile loop `base += chunk` with `i = base + lane` is a stride
//   over a lane by warpSize (both on one line).
// - `d <= 31 - lane` is `lane + d <= 31` rearranged (expect); `lane >= d` is not.
// - The while loop's offset starts from kFoldStart = 16 (a name that says nothing),
//   written on one line; the constant's definition carries SHFL-OFFSET.
// - lstmPointwise: the group scale index `b * (H >> 5)` is on the line of the group
//   leader test; `H >> 5` is a size, not a thread index or a block size (quiet).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>

enum ProbeShape : int {
  kSlotsPerBucket = 32,                                                        // expect: W64-LANE-MATH
  kBucketShift = 5,                                                            // expect: W64-LANE-MATH
};
constexpr unsigned kAllLanes = 0xffffffffu;                                    // expect: W64-MASK32
constexpr uint32_t kEmptyKey = 0xffffffffu;                                    // quiet: W64-MASK32, W64-BALLOT-NARROW
constexpr int kFoldStart = 16;                                                 // expect: W64-SHFL-OFFSET

struct LstmCfg {
  static constexpr int kThreads = 256;
  static constexpr int kSpan = 32;                                             // expect: W64-LANE-MATH
  static constexpr int kGates = 4;
};

// Build: one thread per build tuple, linear probing over buckets of slots.
__global__ void hashJoinBuild(const uint32_t* __restrict__ keys, const uint32_t* __restrict__ vals, int n,
                              uint32_t numBuckets, uint32_t* __restrict__ tableKeys,
                              uint32_t* __restrict__ tableVals) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const uint32_t key = keys[i];
    uint32_t h = (key * 2654435761u) % numBuckets;
    bool done = false;
    while (!done) {
      for (int s = 0; s < kSlotsPerBucket && !done; ++s) {                     // quiet: W64-LANE-MATH, W64-SHFL-OFFSET
        const uint32_t prev = atomicCAS(&tableKeys[h * kSlotsPerBucket + s], kEmptyKey, key);   // quiet: W64-LANE-MATH
        if (prev == kEmptyKey) { tableVals[h * kSlotsPerBucket + s] = vals[i]; done = true; }   // quiet: W64-LANE-MATH
      }
      h = (h + 1 == numBuckets) ? 0 : h + 1;
    }
  }
}

// Probe: one group of kSlotsPerBucket threads per probe tuple, one slot per lane.
__global__ void hashJoinProbe(const uint32_t* __restrict__ tableKeys, const uint32_t* __restrict__ tableVals,
                              uint32_t numBuckets, const uint32_t* __restrict__ probeKeys, int numProbes,
                              int maxBuckets, uint32_t* __restrict__ outPairs, int* __restrict__ outCount) {
  const int lane = threadIdx.x % kSlotsPerBucket;                              // expect: W64-LANE-MATH
  const int grp = threadIdx.x >> kBucketShift;                                 // expect: W64-LANE-MATH
  const int p = blockIdx.x * (blockDim.x >> kBucketShift) + grp;               // expect: W64-WARP-COUNT
  if (p >= numProbes) return;
  const uint32_t key = probeKeys[p];
  uint32_t h = (key * 2654435761u) % numBuckets;
  for (int step = 0; step < maxBuckets; ++step) {
    const uint32_t k = tableKeys[h * kSlotsPerBucket + lane];                  // expect: W64-LANE-MATH
    const unsigned hit = __ballot_sync(kAllLanes, k == key);                   // expect: W64-MASK32, W64-BALLOT-NARROW
    const unsigned empty = __ballot_sync(kAllLanes, k == kEmptyKey);           // expect: W64-MASK32, W64-BALLOT-NARROW
    if (hit) {
      int base = 0;
      if (lane == 0) base = atomicAdd(outCount, __popc(hit));                  // expect: W64-BALLOT-NARROW
      base = __shfl_sync(kAllLanes, base, 0);                                  // expect: W64-MASK32
      if (k == key) {
        const int r = base + __popc(hit & ((1u << lane) - 1));                 // expect: W64-BALLOT-NARROW
        outPairs[2 * r] = static_cast<uint32_t>(p);
        outPairs[2 * r + 1] = tableVals[h * kSlotsPerBucket + lane];           // expect: W64-LANE-MATH
      }
    }
    if (empty) break;
    h = (h + 1 == numBuckets) ? 0 : h + 1;
  }
}

template <int Width = 32>                                                      // expect: W64-SHFL-OFFSET
__device__ __forceinline__ float gateSum(float v) {
  for (int o = Width / 2; o > 0; o /= 2) v += __shfl_xor_sync(kAllLanes, v, o);   // expect: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

__device__ __forceinline__ float groupAbsMax(float v, int lanes) {
  for (int o = lanes / 2; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(kAllLanes, v, o));   // expect: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

__device__ __forceinline__ float sigm(float x) { return 1.f / (1.f + __expf(-x)); }

// LSTM gate pre-activations: one group of C::kSpan threads per (batch, gate row)
// computes x . Wx[r] + h . Wh[r] + bias[r].
template <class C>
__global__ void __launch_bounds__(C::kThreads)
lstmGates(const __half* __restrict__ x, const __half* __restrict__ hPrev, const __half* __restrict__ Wx,
          const __half* __restrict__ Wh, const float* __restrict__ bias, int B, int K, int H,
          float* __restrict__ gates) {
  const int lane = threadIdx.x % C::kSpan;                                     // expect: W64-LANE-MATH
  const int grp = threadIdx.x / C::kSpan;                                      // expect: W64-LANE-MATH
  const int groupsPerBlock = C::kThreads / C::kSpan;                           // expect: W64-WARP-COUNT
  const int task = blockIdx.x * groupsPerBlock + grp;
  if (task >= B * C::kGates * H) return;
  const int b = task / (C::kGates * H), r = task % (C::kGates * H);
  const __half* xr = x + static_cast<size_t>(b) * K;
  const __half* wr = Wx + static_cast<size_t>(r) * K;
  float acc = 0.f;
  for (int k = lane; k < K; k += C::kSpan) acc += __half2float(xr[k]) * __half2float(wr[k]);   // expect: W64-LANE-MATH
  const __half* hr = hPrev + static_cast<size_t>(b) * H;
  const __half* ur = Wh + static_cast<size_t>(r) * H;
  for (int k = lane; k < H; k += C::kSpan) acc += __half2float(hr[k]) * __half2float(ur[k]);   // expect: W64-LANE-MATH
  acc = gateSum(acc);
  if (lane == 0) gates[task] = acc + bias[r];
}

// c' = f * c + i * g, h' = o * tanh(c'); h' is also quantised to int8 with one scale
// per group of 32 consecutive units. H is a multiple of the block size.
__global__ void lstmPointwise(const float* __restrict__ gates, const float* __restrict__ cPrev, int H,
                              float* __restrict__ c, __half* __restrict__ h, int8_t* __restrict__ hq,
                              float* __restrict__ hScale) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int b = blockIdx.y;
  const float* g = gates + static_cast<size_t>(b) * 4 * H;
  const float ig = sigm(g[j]), fg = sigm(g[H + j]), gg = tanhf(g[2 * H + j]), og = sigm(g[3 * H + j]);
  const size_t at = static_cast<size_t>(b) * H + j;
  const float cn = fg * cPrev[at] + ig * gg;
  const float hn = og * tanhf(cn);
  c[at] = cn;
  h[at] = __float2half(hn);
  const float amax = groupAbsMax(fabsf(hn), 32);                               // expect: W64-SHFL-OFFSET
  const float s = amax > 0.f ? amax / 127.f : 1.f;
  hq[at] = static_cast<int8_t>(__float2int_rn(hn / s));
  if ((j & 31) == 0) hScale[b * (H >> 5) + (j >> 5)] = s;                      // expect: W64-LANE-MATH // quiet: W64-WARP-COUNT
}

// Mass of each sorted position up to the end of its chunk of 32 (the rejection
// sampler skips whole chunks): suffix sums by shuffles down.
__global__ void chunkTailMass(const float* __restrict__ sortedProb, int total, float* __restrict__ tail) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;                                           // expect: W64-LANE-MATH
  float v = i < total ? sortedProb[i] : 0.f;
  for (int d = 1; d <= 16; d *= 2) {                                           // expect: W64-SHFL-OFFSET
    const float t = __shfl_down_sync(kAllLanes, v, d);                         // expect: W64-MASK32
    if (d <= 31 - lane) v += t;                                                // expect: W64-LANE-MATH
  }
  if (i < total) tail[i] = v;
}

// Nucleus sampling over probabilities sorted in descending order: one warp per
// sequence scans the list in chunks, one element per lane.
__global__ void topPSample(const float* __restrict__ sortedProb, const int* __restrict__ sortedIdx, int V,
                           const float* __restrict__ topP, const float* __restrict__ uniform, int numSeq,
                           int* __restrict__ token) {
  const int lane = threadIdx.x & (warpSize - 1);                               // quiet: W64-LANE-MATH
  const int seq = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (seq >= numSeq) return;
  const float* p = sortedProb + static_cast<size_t>(seq) * V;
  const int chunk = 32;                                                        // expect: W64-LANE-MATH
  auto chunkSum = [](float v, int span) {
    for (int o = span >> 1; o; o >>= 1) v += __shfl_xor_sync(kAllLanes, v, o);   // expect: W64-SHFL-OFFSET, W64-MASK32
    return v;
  };
  // Pass 1: the first sorted position whose inclusive mass reaches topP.
  float running = 0.f;
  int cutoff = V - 1;
  for (int base = 0; base < V; base += chunk) { const int i = base + lane;     // expect: W64-LANE-MATH
    const float v = i < V ? p[i] : 0.f;
    float incl = v;
    for (int d = 1; d < 32; d <<= 1) {                                         // expect: W64-SHFL-OFFSET
      const float t = __shfl_up_sync(kAllLanes, incl, d);                      // expect: W64-MASK32
      if (lane >= d) incl += t;
    }
    const unsigned over = __ballot_sync(kAllLanes, i < V && running + incl >= topP[seq]);   // expect: W64-MASK32, W64-BALLOT-NARROW
    if (over) { cutoff = base + __ffs(over) - 1; break; }                      // expect: W64-BALLOT-NARROW
    running += chunkSum(v, 32);                                                // expect: W64-SHFL-OFFSET
  }
  // Pass 2: renormalise over the nucleus and invert its CDF on one lane.
  float mass = 0.f;
  for (int i = lane; i <= cutoff; i += warpSize) mass += p[i];                 // quiet: W64-LANE-MATH
  int off = kFoldStart; while (off > 0) { mass += __shfl_xor_sync(kAllLanes, mass, off); off >>= 1; }   // expect: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) {
    const float target = uniform[seq] * mass;
    float acc = 0.f;
    int k = 0;
    while (k < cutoff && acc + p[k] < target) acc += p[k++];
    token[seq] = sortedIdx[static_cast<size_t>(seq) * V + k];
  }
}

void runHashJoin(const uint32_t* bKeys, const uint32_t* bVals, int nBuild, const uint32_t* pKeys,
                 int numProbes, uint32_t numBuckets, int maxBuckets, uint32_t* tKeys, uint32_t* tVals,
                 uint32_t* pairs, int* count, cudaStream_t st) {
  cudaMemsetAsync(tKeys, 0xff, sizeof(uint32_t) * numBuckets * kSlotsPerBucket, st);   // quiet: W64-BLOCK-SIZE
  cudaMemsetAsync(count, 0, sizeof(int), st);
  hashJoinBuild<<<256, 256, 0, st>>>(bKeys, bVals, nBuild, numBuckets, tKeys, tVals);
  const int threads = 256;
  const long long probeThreads = static_cast<long long>(numProbes) * kSlotsPerBucket;   // expect: W64-BLOCK-SIZE
  const int blocks = static_cast<int>((probeThreads + threads - 1) / threads);
  hashJoinProbe<<<blocks, threads, 0, st>>>(tKeys, tVals, numBuckets, pKeys, numProbes, maxBuckets, pairs, count);
}

void runLstmStep(const __half* x, const __half* hPrev, const __half* Wx, const __half* Wh, const float* bias,
                 const float* cPrev, int B, int K, int H, float* gates, float* c, __half* h, int8_t* hq,
                 float* hScale, cudaStream_t st) {
  const int tasks = B * LstmCfg::kGates * H;
  lstmGates<LstmCfg><<<(tasks + 7) / 8, LstmCfg::kThreads, 0, st>>>(x, hPrev, Wx, Wh, bias, B, K, H, gates);
  lstmPointwise<<<dim3(H / 256, B), 256, 0, st>>>(gates, cPrev, H, c, h, hq, hScale);
}

void runSampling(const float* sortedProb, const int* sortedIdx, int V, const float* topP, const float* u,
                 int numSeq, int* token, float* tail, cudaStream_t st) {
  topPSample<<<(numSeq + 3) / 4, 128, 0, st>>>(sortedProb, sortedIdx, V, topP, u, numSeq, token);
  chunkTailMass<<<(numSeq * V + 255) / 256, 256, 0, st>>>(sortedProb, numSeq * V, tail);
}
