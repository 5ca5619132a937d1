// Held out, round 10. Cause 5: consistent 32-lane groups, right at 64 lanes as
// written (findings are notes at most).
// Domains: FP8 (e4m3) layer norm with a per-block scale, batched 32-point radix-2
// FFT (decimation in frequency), Horspool-filtered tile search.
// Why the unit counts as consistent 32-lane groups (README, "Consistent 32-lane
// groups"): every __shfl*_sync is at the default width and reads an offset in
// [0, 32) (constants 16 ... 1, loop counters halving from 16); horspoolTiles
// exchanges only through cg::tiled_partition<32>; nothing ballots, votes, matches
// or reduces; nothing reads warpSize, host code included. So the LANE-MATH,
// WARP-COUNT, SHFL-OFFSET, BLOCK-SIZE and MASK32 findings here are notes.
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - No shuffle passes a width and none broadcasts from a fixed lane in 1-31, so the
//   unit is not one of explicit 32-lane groups (where the lane math is quiet).
// - kGroup = 32 is the group constant: a note at its definition (its first use is
//   lane math) and a note at each use line, with the id found there.
// - groupMax is an unrolled xor sequence 16, 8, 4, 2, 1: SHFL-OFFSET is labelled on
//   the line of the 16 only; every line's literal mask is a MASK32 note.
// - The last step of fp8LayerNorm's block maximum runs inside
//   `if (threadIdx.x < 32)`: its loop from 16 is quiet by the SHFL-OFFSET page (a
//   32-lane reduction on 32 threads), and the test itself is no lane math; the
//   mask on that line is still a note.
// - `__brev(lane) >> 27` reverses the 5-bit lane for the FFT's output order: data.
// - Host: `32 * groupsPerBlock` with a runtime factor and the constant block 96 are
//   notes; the constant block `tilesPerBlock * 32` (256, whole wavefronts, for a
//   kernel in 32-lane groups) is quiet, and so is the tile count (n + 31) / 32 that
//   sizes buffers (it only divides; no kernel here numbers by warpSize).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cooperative_groups.h>
#include <climits>
#include <cstdint>

namespace cg = cooperative_groups;

constexpr int kGroup = 32;                                                     // note: W64-LANE-MATH
constexpr float kPi = 3.14159265358979f;

// Sum over the 32 lanes of a group; every lane gets the total.
__device__ __forceinline__ float groupSum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);    // note: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

__device__ __forceinline__ float groupMax(float v) {
  v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 16));                           // note: W64-SHFL-OFFSET, W64-MASK32
  v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 8));                            // note: W64-MASK32
  v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 4));                            // note: W64-MASK32
  v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 2));                            // note: W64-MASK32
  v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 1));                            // note: W64-MASK32
  return v;
}

// FP8 layer norm: one 32-lane group per row; the e4m3 output has one scale per
// block of rows, taken from the block's absolute maximum.
__global__ void __launch_bounds__(128)
fp8LayerNorm(const __half* __restrict__ x, const __half* __restrict__ gamma, const __half* __restrict__ beta,
             int rows, int D, float eps, __nv_fp8_e4m3* __restrict__ y, float* __restrict__ blockScale) {
  __shared__ float groupAmax[32];                                              // note: W64-WARP-COUNT
  const int lane = threadIdx.x % kGroup;                                       // note: W64-LANE-MATH
  const int grp = threadIdx.x / kGroup;                                        // note: W64-LANE-MATH
  const int row = blockIdx.x * (blockDim.x / kGroup) + grp;                    // note: W64-WARP-COUNT
  const __half* xr = x + static_cast<size_t>(row) * D;
  float s = 0.f, ss = 0.f;
  if (row < rows)
    for (int i = lane; i < D; i += kGroup) { const float v = __half2float(xr[i]); s += v; ss += v * v; }   // note: W64-LANE-MATH
  s = groupSum(s);
  ss = groupSum(ss);
  const float mean = s / D;
  const float rstd = rsqrtf(fmaxf(ss / D - mean * mean, 0.f) + eps);
  float amax = 0.f;
  if (row < rows)
    for (int i = lane; i < D; i += kGroup) {                                   // note: W64-LANE-MATH
      const float v = (__half2float(xr[i]) - mean) * rstd * __half2float(gamma[i]) + __half2float(beta[i]);
      amax = fmaxf(amax, fabsf(v));
    }
  amax = groupMax(amax);
  if (lane == 0) groupAmax[grp] = amax;
  __syncthreads();
  if (threadIdx.x < 32) {                                                      // quiet: W64-LANE-MATH
    float m = lane < (blockDim.x >> 5) ? groupAmax[lane] : 0.f;                // note: W64-WARP-COUNT
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_down_sync(0xffffffff, m, o));   // quiet: W64-SHFL-OFFSET // note: W64-MASK32
    if (threadIdx.x == 0) groupAmax[0] = m;
  }
  __syncthreads();
  const float scale = fmaxf(groupAmax[0], 1e-6f) / 448.f;
  if (threadIdx.x == 0) blockScale[blockIdx.x] = scale;
  if (row < rows)
    for (int i = lane; i < D; i += kGroup) {                                   // note: W64-LANE-MATH
      const float v = (__half2float(xr[i]) - mean) * rstd * __half2float(gamma[i]) + __half2float(beta[i]);
      y[static_cast<size_t>(row) * D + i] = __nv_fp8_e4m3(v / scale);
    }
}

// Batched 32-point complex FFT (radix 2, decimation in frequency): one 32-lane group
// per transform, lane l holding x[l]; the output is written in natural order.
__global__ void fft32Batch(const float2* __restrict__ in, float2* __restrict__ out, int batches) {
  const int lane = threadIdx.x & 31;                                           // note: W64-LANE-MATH
  const int b = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);          // note: W64-WARP-COUNT, W64-LANE-MATH
  if (b >= batches) return;
  const int base = b * 32;                                                     // note: W64-LANE-MATH
  float re = in[base + lane].x, im = in[base + lane].y;
  for (int s = 16; s > 0; s >>= 1) {                                           // note: W64-SHFL-OFFSET
    const float pr = __shfl_xor_sync(0xffffffff, re, s);                      // note: W64-MASK32
    const float pi = __shfl_xor_sync(0xffffffff, im, s);                      // note: W64-MASK32
    if (lane & s) {
      float sn, cs;
      __sincosf(-kPi * (lane & (s - 1)) / s, &sn, &cs);
      const float dr = pr - re, di = pi - im;
      re = dr * cs - di * sn;
      im = dr * sn + di * cs;
    } else {
      re += pr;
      im += pi;
    }
  }
  out[base + (__brev(lane) >> 27)] = make_float2(re, im);                      // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
}

// Horspool-filtered tile search: each 32-lane tile tests 32 consecutive alignments
// of the pattern (one per lane: last character first, then right to left) and
// reports its first match and its number of matches.
__global__ void horspoolTiles(const unsigned char* __restrict__ text, int n, const unsigned char* __restrict__ pat,
                              int m, int* __restrict__ firstMatch, int* __restrict__ tileCount) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);                                  // note: W64-SHFL-OFFSET
  const int t = blockIdx.x * (blockDim.x / 32) + tile.meta_group_rank();       // note: W64-WARP-COUNT
  const int a = t * 32 + tile.thread_rank();                                   // note: W64-LANE-MATH
  bool hit = false;
  if (a + m <= n && text[a + m - 1] == pat[m - 1]) {
    int j = m - 2;
    while (j >= 0 && text[a + j] == pat[j]) --j;
    hit = j < 0;
  }
  int first = hit ? a : INT_MAX;
  int cnt = hit ? 1 : 0;
  for (int o = tile.size() / 2; o > 0; o >>= 1) {                              // quiet: W64-SHFL-OFFSET
    first = min(first, tile.shfl_down(first, o));
    cnt += tile.shfl_down(cnt, o);
  }
  if (tile.thread_rank() == 0 && a < n) { firstMatch[t] = first; tileCount[t] = cnt; }
}

void launchFp8LayerNorm(const __half* x, const __half* gamma, const __half* beta, int rows, int D, float eps,
                        __nv_fp8_e4m3* y, float** blockScale, cudaStream_t st) {
  const int groupsPerBlock = D >= 4096 ? 2 : 4;
  const int threads = 32 * groupsPerBlock;                                     // note: W64-BLOCK-SIZE
  const int blocks = (rows + groupsPerBlock - 1) / groupsPerBlock;
  cudaMalloc(blockScale, blocks * sizeof(float));
  fp8LayerNorm<<<blocks, threads, 0, st>>>(x, gamma, beta, rows, D, eps, y, *blockScale);
}

void launchFft32(const float2* in, float2* out, int batches, cudaStream_t st) {
  fft32Batch<<<(batches + 2) / 3, 96, 0, st>>>(in, out, batches);              // note: W64-BLOCK-SIZE
}

void launchSearch(const unsigned char* text, int n, const unsigned char* pat, int m, int** first, int** count,
                  cudaStream_t st) {
  const int tiles = (n + 31) / 32;                                             // quiet: W64-WARP-COUNT, W64-BLOCK-SIZE
  cudaMalloc(first, tiles * sizeof(int));
  cudaMalloc(count, tiles * sizeof(int));
  const int tilesPerBlock = 8;
  horspoolTiles<<<(tiles + tilesPerBlock - 1) / tilesPerBlock, tilesPerBlock * 32, 0, st>>>(text, n, pat, m, *first, *count);   // quiet: W64-BLOCK-SIZE
}
