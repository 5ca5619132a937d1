// Held out, round 10. Cause 1: lane strides and per-lane splits.
// Domains: block-sparse attention softmax, HMM Viterbi decoding, int8-quantised
// layer norm and row statistics for int8 GEMMs.
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - bsSoftmaxRows numbers its lanes by warpSize (quiet) but steps by 32 and by the
//   key-block width kKeyBlock = 32, a name that says nothing, read in a kernel that
//   shuffles through its helpers: every stride is a finding. kKeyBlock is reported
//   at its definition (its first use is a stride, so LANE-MATH) and each use line
//   is labelled as well.
// - The while loop that starts at `j = lane` and steps `j += 32` is the for-loop
//   stride spelled as a while (one line, one label).
// - viterbiForward: the split `k < kStates / 32` and its stride `k * 32 + lane` sit
//   on one line, as do the start `lane + 32` and its step; one label each.
// - int8LayerNormWarp: the per-lane count through a variable, perLane = (D + 31) /
//   32, is labelled where the 32 is written (the variable's definition), not at
//   the loop bound that only reads it.
// - int8RowAbsMax: the contiguous share `lane * perLane` with perLane = 256 / 32
//   and a lane by 32 is written on one line (one label); int8RowSumWave takes the
//   same kind of share with a lane by warpSize: the pages count such shares only
//   for lanes by 32 (the upper lanes get empty ranges), so its lines are quiet.
// - int8RowAbsMax counts the block's warps (`blockDim.x >> 5`, WARP-COUNT) on the
//   line that also takes the warp id (`threadIdx.x >> 5`, LANE-MATH).
// - Full masks written in the calls are MASK32 findings wherever they appear,
//   also in the helpers that already reduce from warpSize / 2.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <cfloat>

constexpr int kKeyBlock = 32;                                                  // expect: W64-LANE-MATH
constexpr int kStates = 128;
constexpr int kSeqPerBlock = 4;
constexpr int kChunkHidden = 256;

__device__ __forceinline__ float warpAllSum(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);     // expect: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

__device__ __forceinline__ float waveAllMax(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));   // expect: W64-MASK32
  return v;
}

__device__ __forceinline__ float waveAllSum(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);   // expect: W64-MASK32
  return v;
}

// Block-sparse attention: query row r keeps rowBlocks[r] key blocks of kKeyBlock
// columns, stored contiguously from rowStart[r]. One warp normalises one row.
__global__ void bsSoftmaxRows(const float* __restrict__ scores, const int* __restrict__ rowStart,
                              const int* __restrict__ rowBlocks, int rows, float scale,
                              __half* __restrict__ probs) {
  const int lane = threadIdx.x % warpSize;                                     // quiet: W64-LANE-MATH
  const int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;   // quiet: W64-WARP-COUNT, W64-LANE-MATH
  if (row >= rows) return;
  const float* s = scores + rowStart[row];
  const int nb = rowBlocks[row];
  float mx = -FLT_MAX;
  for (int b = 0; b < nb; ++b) mx = fmaxf(mx, s[b * kKeyBlock + lane] * scale);   // expect: W64-LANE-MATH
  mx = waveAllMax(mx);
  const int len = rowStart[row + 1] - rowStart[row];
  float sum = 0.f;
  int j = lane;
  while (j < len) { sum += __expf(s[j] * scale - mx); j += 32; }               // expect: W64-LANE-MATH
  sum = waveAllSum(sum);
  const float inv = 1.f / sum;
  for (int b = 0; b < nb; ++b) {
    const int c = b * kKeyBlock + lane;                                        // expect: W64-LANE-MATH
    probs[rowStart[row] + c] = __float2half(__expf(s[c] * scale - mx) * inv);
  }
}

// Viterbi forward pass for an HMM with kStates states, one warp per observation
// sequence. delta keeps two columns per warp; lane l owns the states l, l + 32, ...
// logTrans is stored to-major: logTrans[y * kStates + x] = log P(y | x).
__global__ void __launch_bounds__(128)
viterbiForward(const float* __restrict__ logInit, const float* __restrict__ logTrans,
               const float* __restrict__ logEmit, int symbols, const int* __restrict__ obs,
               int T, int numSeq, uint8_t* __restrict__ backptr,
               float* __restrict__ bestScore, int* __restrict__ bestLast) {
  __shared__ float delta[kSeqPerBlock][2][kStates];
  const int lane = threadIdx.x & 31;                                           // expect: W64-LANE-MATH
  const int w = threadIdx.x >> 5;                                              // expect: W64-LANE-MATH
  const int seq = blockIdx.x * kSeqPerBlock + w;
  if (seq >= numSeq) return;
  const int* o = obs + static_cast<size_t>(seq) * T;
  for (int y = lane; y < kStates; y += 32)                                     // expect: W64-LANE-MATH
    delta[w][0][y] = logInit[y] + logEmit[y * symbols + o[0]];
  __syncwarp();
  for (int t = 1; t < T; ++t) {
    const float* prev = delta[w][(t - 1) & 1];
    float* cur = delta[w][t & 1];
    for (int k = 0; k < kStates / 32; ++k) { const int y = k * 32 + lane;      // expect: W64-LANE-MATH
      float best = -FLT_MAX;
      int arg = 0;
      for (int x = 0; x < kStates; ++x) {
        const float c = prev[x] + logTrans[y * kStates + x];
        if (c > best) { best = c; arg = x; }
      }
      cur[y] = best + logEmit[y * symbols + o[t]];
      backptr[(static_cast<size_t>(seq) * T + t) * kStates + y] = static_cast<uint8_t>(arg);
    }
    __syncwarp();
  }
  const float* last = delta[w][(T - 1) & 1];
  float v = last[lane];
  int a = lane;
  for (int y = lane + 32; y < kStates; y += 32)                                // expect: W64-LANE-MATH
    if (last[y] > v) { v = last[y]; a = y; }
  for (int off = 16; off; off >>= 1) {                                         // expect: W64-SHFL-OFFSET
    const float ov = __shfl_down_sync(0xffffffff, v, off);                    // expect: W64-MASK32
    const int oa = __shfl_down_sync(0xffffffff, a, off);                      // expect: W64-MASK32
    if (ov > v || (ov == v && oa < a)) { v = ov; a = oa; }
  }
  if (lane == 0) { bestScore[seq] = v; bestLast[seq] = a; }
}

// Backtrace: one thread per sequence follows the stored back pointers.
__global__ void viterbiBacktrace(const uint8_t* __restrict__ backptr, const int* __restrict__ bestLast,
                                 int T, int numSeq, int* __restrict__ path) {
  const int seq = blockIdx.x * blockDim.x + threadIdx.x;
  if (seq >= numSeq) return;
  int y = bestLast[seq];
  int* p = path + static_cast<size_t>(seq) * T;
  for (int t = T - 1; t > 0; --t) {
    p[t] = y;
    y = backptr[(static_cast<size_t>(seq) * T + t) * kStates + y];
  }
  p[0] = y;
}

// Int8 layer norm, one warp per token: x is int8 with a per-token scale, y is int8
// with a fixed output scale. D is arbitrary; lane l takes columns l, l + 32, ...
__global__ void int8LayerNormWarp(const int8_t* __restrict__ x, const float* __restrict__ xScale,
                                  const float* __restrict__ gamma, const float* __restrict__ beta,
                                  int tokens, int D, float eps, float outInvScale,
                                  int8_t* __restrict__ y) {
  const int lane = threadIdx.x % 32;                                           // expect: W64-LANE-MATH
  const int tok = (blockIdx.x * blockDim.x + threadIdx.x) / 32;                // expect: W64-LANE-MATH
  if (tok >= tokens) return;
  const int8_t* row = x + static_cast<size_t>(tok) * D;
  const float sc = xScale[tok];
  const int perLane = (D + 31) / 32;                                           // expect: W64-LANE-MATH
  float s = 0.f, ss = 0.f;
  for (int i = 0; i < perLane; ++i) {
    const int c = i * 32 + lane;                                               // expect: W64-LANE-MATH
    if (c < D) { const float v = row[c] * sc; s += v; ss += v * v; }
  }
  s = warpAllSum(s);
  ss = warpAllSum(ss);
  const float mean = s / D;
  const float rstd = rsqrtf(fmaxf(ss / D - mean * mean, 0.f) + eps);
  int8_t* out = y + static_cast<size_t>(tok) * D;
  for (int c = lane; c < D; c += 32) {                                         // expect: W64-LANE-MATH
    const float v = (row[c] * sc - mean) * rstd * gamma[c] + beta[c];
    out[c] = static_cast<int8_t>(max(-127, min(127, __float2int_rn(v * outInvScale))));
  }
}

// Per-token absolute maximum for dynamic int8 quantisation of a fixed hidden size:
// each lane reads one contiguous run of kChunkHidden / 32 values.
__global__ void int8RowAbsMax(const __half* __restrict__ x, int tokens, float* __restrict__ scale) {
  const int lane = threadIdx.x & 31;                                           // expect: W64-LANE-MATH
  const int tok = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);        // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (tok >= tokens) return;
  constexpr int perLane = kChunkHidden / 32; const __half* p = x + static_cast<size_t>(tok) * kChunkHidden + lane * perLane;   // expect: W64-LANE-MATH
  float m = 0.f;
  for (int i = 0; i < perLane; ++i) m = fmaxf(m, fabsf(__half2float(p[i])));
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_down_sync(0xffffffff, m, o));   // expect: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) scale[tok] = m > 0.f ? m / 127.f : 1.f;
}

// Row sums of an int8 matrix (zero-point correction of an int8 GEMM): one wavefront
// per row, contiguous chunks sized for 32 lanes; lanes past the end get none.
__global__ void int8RowSumWave(const int8_t* __restrict__ q, int rows, int D, int* __restrict__ rowSum) {
  const int lane = threadIdx.x % warpSize;                                     // quiet: W64-LANE-MATH
  const int r = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (r >= rows) return;
  const int chunk = (D + 31) / 32;                                             // quiet: W64-LANE-MATH
  const int8_t* p = q + static_cast<size_t>(r) * D;
  int acc = 0;
  for (int c = lane * chunk; c < min(D, (lane + 1) * chunk); ++c) acc += p[c];   // quiet: W64-LANE-MATH
  for (int o = warpSize / 2; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffff, acc, o);   // expect: W64-MASK32
  if (lane == 0) rowSum[r] = acc;
}

void runAttentionSoftmax(const float* scores, const int* rowStart, const int* rowBlocks, int rows,
                         float scale, __half* probs, cudaStream_t st) {
  const int rowsPerBlock = 4;
  bsSoftmaxRows<<<(rows + rowsPerBlock - 1) / rowsPerBlock, 128, 0, st>>>(scores, rowStart, rowBlocks,
                                                                         rows, scale, probs);
}

void runViterbi(const float* logInit, const float* logTrans, const float* logEmit, int symbols,
                const int* obs, int T, int numSeq, uint8_t* backptr, float* bestScore, int* bestLast,
                int* path, cudaStream_t st) {
  viterbiForward<<<(numSeq + kSeqPerBlock - 1) / kSeqPerBlock, 128, 0, st>>>(
      logInit, logTrans, logEmit, symbols, obs, T, numSeq, backptr, bestScore, bestLast);
  viterbiBacktrace<<<(numSeq + 127) / 128, 128, 0, st>>>(backptr, bestLast, T, numSeq, path);
}

void runInt8Norm(const int8_t* x, const float* xScale, const float* gamma, const float* beta,
                 const __half* xh, int tokens, int D, float eps, float outInvScale, int8_t* y,
                 float* tokScale, int* rowSum, cudaStream_t st) {
  int8RowAbsMax<<<(tokens + 7) / 8, 256, 0, st>>>(xh, tokens, tokScale);
  int8LayerNormWarp<<<(tokens + 7) / 8, 256, 0, st>>>(x, xScale, gamma, beta, tokens, D, eps,
                                                      outInvScale, y);
  int8RowSumWave<<<(tokens + 3) / 4, 256, 0, st>>>(y, tokens, D, rowSum);
}
