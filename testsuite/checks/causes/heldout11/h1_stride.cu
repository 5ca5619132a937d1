// Held out, round 11. Cause 1: lane strides and per-lane splits.
// Domains: HMM Viterbi decoding, radix select (k-th largest key of each row), dense
// polynomial products, Monte Carlo pricing of an arithmetic-average (Asian) call.
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - viterbiForward: the first states are written by a `while` loop whose counter starts
//   at the lane and steps by `s0 += 32` on its own line: the README's "`i += 32` from a
//   lane" (LANE-MATH), labelled at the step.
// - radixSelectRows: a lane's contiguous share of the 256 buckets (`per = kBuckets / 32`,
//   `lo = lane * per`) is one declaration, so the label does not depend on whether the
//   finding sits at the share or at the product (LANE-MATH table: "`lane * perLane` with
//   `perLane = 256 / 32`"); the loop over [lo, lo + per) holds no 32 and is unlabelled.
//   kBuckets is not a block-size name, so `kBuckets / 32` is no WARP-COUNT.
//   `lane + d < 32` in the suffix scan is the last-lane row of LANE-MATH.
// - polyMulWave numbers lanes and warps by warpSize (quiet) but steps its terms by a
//   literal 32 from `lo + lane`: "strides ... by 32 around [a lane by warpSize] still
//   assume 32 lanes" (expect at the stride).
// - polyMulShort: `lane + 32` (second term of a 64-term factor) is LANE-MATH's
//   "`lane + 32`" row; the kernel shuffles (b is broadcast from lane j), so it is warp
//   work. The broadcast loop is bounded by nb, not by 32: no SHFL-OFFSET (quiet).
// - mcAsianCall: `gwarp * 32 + lane`, where gwarp is the block's warp offset plus
//   `threadIdx.x >> 5`, is `warp * 32` on a thread-derived warp id (LANE-MATH), even
//   though the sum also holds blockIdx; `blockDim.x >> 5` there is WARP-COUNT.
// - viterbiBacktrack runs one thread per sequence and has no lane math (unlabelled).
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdint>

constexpr int kBuckets = 256;
constexpr int kSelWarps = 4;

// HMM Viterbi forward pass: one warp per observation sequence, states over the lanes.
// delta holds two rows of S scores per sequence (ping-pong), psi the backpointers.
__global__ void viterbiForward(const float* __restrict__ logA, const float* __restrict__ logB,
                               const float* __restrict__ logPi, const int* __restrict__ obs, int T,
                               int S, int V, int numSeq, float* __restrict__ delta,
                               int* __restrict__ psi, int* __restrict__ lastState) {
  const int lane = threadIdx.x & 31;                                              // expect: W64-LANE-MATH
  const int seq = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);            // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (seq >= numSeq) return;
  float* cur = delta + static_cast<size_t>(seq) * 2 * S;
  float* nxt = cur + S;
  const int* ob = obs + static_cast<size_t>(seq) * T;
  int s0 = lane;
  while (s0 < S) {
    cur[s0] = logPi[s0] + logB[static_cast<size_t>(s0) * V + ob[0]];
    s0 += 32;                                                                     // expect: W64-LANE-MATH
  }
  __syncwarp();
  for (int t = 1; t < T; ++t) {
    const int sym = ob[t];
    for (int j = lane; j < S; j += 32) {                                          // expect: W64-LANE-MATH
      float best = -FLT_MAX;
      int arg = 0;
      for (int i = 0; i < S; ++i) {
        const float v = cur[i] + logA[static_cast<size_t>(i) * S + j];
        if (v > best) { best = v; arg = i; }
      }
      nxt[j] = best + logB[static_cast<size_t>(j) * V + sym];
      psi[(static_cast<size_t>(seq) * T + t) * S + j] = arg;
    }
    __syncwarp();
    float* tmp = cur; cur = nxt; nxt = tmp;
  }
  float best = -FLT_MAX;
  int arg = 0;
  for (int s = lane; s < S; s += 32)                                              // expect: W64-LANE-MATH
    if (cur[s] > best) { best = cur[s]; arg = s; }
  for (int off = 16; off > 0; off >>= 1) {                                        // expect: W64-SHFL-OFFSET
    const float ob2 = __shfl_xor_sync(0xffffffffu, best, off); const int oa = __shfl_xor_sync(0xffffffffu, arg, off);   // expect: W64-MASK32
    if (ob2 > best || (ob2 == best && oa < arg)) { best = ob2; arg = oa; }
  }
  if (lane == 0) lastState[seq] = arg;
}

// Backpointer walk: one thread per sequence.
__global__ void viterbiBacktrack(const int* __restrict__ psi, const int* __restrict__ lastState, int T,
                                 int S, int numSeq, int* __restrict__ path) {
  const int seq = blockIdx.x * blockDim.x + threadIdx.x;
  if (seq >= numSeq) return;
  int s = lastState[seq];
  for (int t = T - 1; t >= 0; --t) {
    path[static_cast<size_t>(seq) * T + t] = s;
    if (t > 0) s = psi[(static_cast<size_t>(seq) * T + t) * S + s];
  }
}

// Radix select: the k-th largest key of each row, 8 bits per pass from the top; one
// warp per row with a private 256-bucket histogram in shared memory.
__global__ void radixSelectRows(const uint32_t* __restrict__ keys, int n, int numRows,
                                const int* __restrict__ kth, uint32_t* __restrict__ out) {
  __shared__ unsigned hist[kSelWarps][kBuckets];
  const int lane = threadIdx.x & 31;                                              // expect: W64-LANE-MATH
  const int warp = threadIdx.x >> 5;                                              // expect: W64-LANE-MATH
  const int row = blockIdx.x * kSelWarps + warp;
  if (row >= numRows) return;
  const uint32_t* r = keys + static_cast<size_t>(row) * n;
  unsigned* h = hist[warp];
  uint32_t prefix = 0, prefixMask = 0;
  int k = kth[row];
  for (int shift = 24; shift >= 0; shift -= 8) {
    for (int b = lane; b < kBuckets; b += 32) h[b] = 0;                           // expect: W64-LANE-MATH
    __syncwarp();
    for (int i = lane; i < n; i += 32) {                                          // expect: W64-LANE-MATH
      const uint32_t key = r[i];
      if ((key & prefixMask) == prefix) atomicAdd(&h[(key >> shift) & 0xffu], 1u);
    }
    __syncwarp();
    const int per = kBuckets / 32, lo = lane * per;                               // expect: W64-LANE-MATH
    unsigned mine = 0;
    for (int b = lo; b < lo + per; ++b) mine += h[b];
    unsigned above = mine;  // keys in my buckets and in those of every higher lane
    for (int d = 1; d < 32; d <<= 1) {                                            // expect: W64-SHFL-OFFSET
      const unsigned t = __shfl_down_sync(0xffffffffu, above, d);                 // expect: W64-MASK32
      if (lane + d < 32) above += t;                                              // expect: W64-LANE-MATH
    }
    const unsigned want = static_cast<unsigned>(k);
    const unsigned who = __ballot_sync(0xffffffffu, above >= want && above - mine < want);   // expect: W64-MASK32, W64-BALLOT-NARROW
    const int src = __ffs(who) - 1;                                               // expect: W64-BALLOT-NARROW
    int bucket = 0, rest = 0;
    if (lane == src) {
      unsigned acc = above - mine;
      for (int b = lo + per - 1; b >= lo; --b) {
        if (acc + h[b] >= want) { bucket = b; break; }
        acc += h[b];
      }
      rest = k - static_cast<int>(acc);
    }
    bucket = __shfl_sync(0xffffffffu, bucket, src); k = __shfl_sync(0xffffffffu, rest, src);   // expect: W64-MASK32
    prefix |= static_cast<uint32_t>(bucket) << shift;
    prefixMask |= 0xffu << shift;
    __syncwarp();
  }
  if (lane == 0) out[row] = prefix;
}

// Dense polynomial product c = a * b: one warp per output coefficient.
__global__ void polyMulWave(const double* __restrict__ a, int na, const double* __restrict__ b, int nb,
                            double* __restrict__ c) {
  const int lane = threadIdx.x % warpSize;                                        // quiet: W64-LANE-MATH
  const int k = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;    // quiet: W64-WARP-COUNT, W64-LANE-MATH
  if (k >= na + nb - 1) return;
  const int lo = max(0, k - nb + 1), hi = min(k, na - 1);
  double s = 0.0;
  for (int i = lo + lane; i <= hi; i += 32) s += a[i] * b[k - i];                 // expect: W64-LANE-MATH
  for (int off = warpSize / 2; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off);   // expect: W64-MASK32
  if (lane == 0) c[k] = s;
}

// Batched short products: a has at most 64 terms (two per lane), b at most 32 (one per
// lane, broadcast term by term); pair p's product starts at c + p * ldc.
__global__ void polyMulShort(const float* __restrict__ a, int na, const float* __restrict__ b, int nb,
                             int ldb, float* __restrict__ c, int ldc, int numPairs) {
  const int lane = threadIdx.x & 31;                                              // expect: W64-LANE-MATH
  const int pair = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;             // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (pair >= numPairs) return;
  const float* pa = a + static_cast<size_t>(pair) * 64;
  const float* pb = b + static_cast<size_t>(pair) * ldb;
  float* pc = c + static_cast<size_t>(pair) * ldc;
  const float a0 = lane < na ? pa[lane] : 0.f;
  const float a1 = lane + 32 < na ? pa[lane + 32] : 0.f;                          // expect: W64-LANE-MATH
  const float bl = lane < nb ? pb[lane] : 0.f;
  for (int j = 0; j < nb; ++j) {                                                  // quiet: W64-SHFL-OFFSET
    const float bj = __shfl_sync(0xffffffffu, bl, j);                             // expect: W64-MASK32
    if (lane < na) atomicAdd(&pc[lane + j], a0 * bj);
    if (lane + 32 < na) atomicAdd(&pc[lane + 32 + j], a1 * bj);                   // expect: W64-LANE-MATH
  }
}

// Monte Carlo price of an arithmetic-average Asian call: one lane per path, 32 paths per
// warp; the normals are stored step-major (z[t * nPaths + path]).
__global__ void mcAsianCall(const float* __restrict__ z, int nPaths, int nSteps, float s0, float r,
                            float sigma, float dt, float strike, float* __restrict__ blockSums) {
  __shared__ float warpSums[32];                                                  // expect: W64-WARP-COUNT
  const int lane = threadIdx.x & 31;                                              // expect: W64-LANE-MATH
  const int warp = threadIdx.x >> 5;                                              // expect: W64-LANE-MATH
  const int gwarp = blockIdx.x * (blockDim.x >> 5) + warp;                        // expect: W64-WARP-COUNT
  const int path = gwarp * 32 + lane;                                             // expect: W64-LANE-MATH
  float payoff = 0.f;
  if (path < nPaths) {
    const float drift = (r - 0.5f * sigma * sigma) * dt, vol = sigma * sqrtf(dt);
    float logS = logf(s0), avg = 0.f;
    for (int t = 0; t < nSteps; ++t) {
      logS += drift + vol * z[static_cast<size_t>(t) * nPaths + path];
      avg += expf(logS);
    }
    payoff = expf(-r * dt * nSteps) * fmaxf(avg / nSteps - strike, 0.f);
  }
  for (int off = 16; off > 0; off /= 2) payoff += __shfl_down_sync(0xffffffffu, payoff, off);   // expect: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) warpSums[warp] = payoff;
  __syncthreads();
  if (warp == 0) {
    float v = lane < (blockDim.x >> 5) ? warpSums[lane] : 0.f;                    // expect: W64-WARP-COUNT
    for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);   // expect: W64-SHFL-OFFSET, W64-MASK32
    if (lane == 0) blockSums[blockIdx.x] = v;
  }
}

void runViterbi(const float* logA, const float* logB, const float* logPi, const int* obs, int T, int S,
                int V, int numSeq, float* delta, int* psi, int* lastState, int* path, cudaStream_t st) {
  viterbiForward<<<(numSeq + 3) / 4, 128, 0, st>>>(logA, logB, logPi, obs, T, S, V, numSeq, delta, psi,
                                                   lastState);
  viterbiBacktrack<<<(numSeq + 127) / 128, 128, 0, st>>>(psi, lastState, T, S, numSeq, path);
}

void runRadixSelect(const uint32_t* keys, int n, int numRows, const int* kth, uint32_t* out,
                    cudaStream_t st) {
  radixSelectRows<<<(numRows + kSelWarps - 1) / kSelWarps, 128, 0, st>>>(keys, n, numRows, kth, out);
}

void runPolyMul(const double* a, int na, const double* b, int nb, double* c, const float* sa,
                const float* sb, float* sc, int numPairs, cudaStream_t st) {
  int ws = 0;
  cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, 0);
  const int perBlock = 256 / ws;
  const int ncoef = na + nb - 1;
  polyMulWave<<<(ncoef + perBlock - 1) / perBlock, 256, 0, st>>>(a, na, b, nb, c);
  cudaMemsetAsync(sc, 0, sizeof(float) * 95 * numPairs, st);
  polyMulShort<<<(numPairs + 7) / 8, 256, 0, st>>>(sa, 64, sb, 32, 32, sc, 95, numPairs);
}

void runAsian(const float* z, int nPaths, int nSteps, float s0, float r, float sigma, float dt,
              float strike, float* blockSums, cudaStream_t st) {
  mcAsianCall<<<(nPaths + 255) / 256, 256, 0, st>>>(z, nPaths, nSteps, s0, r, sigma, dt, strike,
                                                    blockSums);
}
