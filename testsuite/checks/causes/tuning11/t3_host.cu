// Tuning, round 11. Cause 3: host code (warp-size tests, host sizes and launch
// shapes computed with 32).
// Domains: CSR matrix transpose, BVH ray traversal, batch-norm backward.
// Ambiguous calls (labelled as a demanding GPU engineer reading the check
// pages would expect):
// - deviceLanes() returns the value cudaDeviceGetAttribute(cudaDevAttrWarpSize)
//   wrote, so `deviceLanes(dev) == 32` is a host warp-size test; so is
//   `prop.warpSize == kRaysPerPacket` (a constant that evaluates to 32).
// - transposeCsr sizes the per-warp totals with `(nCols + 31) / 32` and passes
//   the buffer to countScan, which shuffles and numbers its warps by warpSize:
//   a host warp count (W64-WARP-COUNT, warning).
// - countCols and rowsToCols are launched with `(nRows * 32 + 255) / 256`
//   blocks, one row per warpSize lanes in the kernel: grids computed with 32
//   (notes; `expect` accepts a note).
// - countCols keeps a __match_any_sync result in `unsigned` and takes __ffs
//   and __popc of it (BALLOT-NARROW); its `__activemask()` mask is quiet.
// - bnBackward: `threads = 32 * warps` with a runtime `warps` (note at the
//   32); its shared bytes `2 * sizeof(float) * (threads / 32)` are a host
//   `threads / 32` warp count (W64-WARP-COUNT); the 32 only divides there, so
//   no second BLOCK-SIZE.
// - bvhTraverse shuffles and splits its rays by warpSize; its block
//   `dim3 block(kPacketsPerBlock * 32)` is a constant of whole wavefronts
//   built from 32 (W64-BLOCK-SIZE), while the grid has no 32.
// - Quiet: the bitmap word count `(nCols + 31) / 32` (a 32 that only divides
//   a grid; the buffer it sizes goes to a kernel with no warp work), the
//   rounding `(nnz + 31) / 32 * 32`, a `cudaMalloc` of `words * 32 / 8` bytes
//   that never reaches a launch, the bitmap word and bit of markCols, a
//   device-side `warpSize == 32` test, and `__activemask()` masks.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdint>
#include <cstdio>
#include <algorithm>

namespace cg = cooperative_groups;

constexpr int kRaysPerPacket = 32;
constexpr int kPacketsPerBlock = 4;

static int deviceLanes(int dev) {
  int ws = 0;
  cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, dev);
  return ws;
}

// ------------------------------------------------------------ CSR transpose
// Per column, count its nonzeros (one warp per row of A); lanes that hit the
// same column aggregate their atomics.
__global__ void countCols(const int* __restrict__ rowPtr, const int* __restrict__ colIdx, int nRows,
                          int* __restrict__ colCount) {
  const int lane = threadIdx.x % warpSize;
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (row >= nRows) return;
  for (int k = rowPtr[row] + lane; k < rowPtr[row + 1]; k += warpSize) {
    const int col = colIdx[k];
    const unsigned peers = __match_any_sync(__activemask(), col);          // expect: W64-BALLOT-NARROW // quiet: W64-MASK32
    if (lane == __ffs(peers) - 1) atomicAdd(&colCount[col], __popc(peers)); // expect: W64-BALLOT-NARROW
  }
}

// Inclusive scan of the counts inside each warp; totals[w] = the warp's sum.
__global__ void countScan(int* __restrict__ counts, int n, int* __restrict__ totals) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  int v = i < n ? counts[i] : 0;
  for (int d = 1; d < warpSize; d <<= 1) {
    const int t = __shfl_up_sync(__activemask(), v, d);                    // quiet: W64-MASK32
    if (lane >= d) v += t;
  }
  if (i < n) counts[i] = v;
  if (lane == warpSize - 1) totals[i / warpSize] = v;
}

__global__ void rowsToCols(const int* __restrict__ rowPtr, const int* __restrict__ colIdx,
                           const float* __restrict__ val, int nRows, int* __restrict__ cursor,
                           int* __restrict__ tRowIdx, float* __restrict__ tVal) {
  const int lane = threadIdx.x % warpSize;
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (row >= nRows) return;
  for (int k = rowPtr[row] + lane; k < rowPtr[row + 1]; k += warpSize) {
    const int dst = atomicAdd(&cursor[colIdx[k]], 1);
    tRowIdx[dst] = row;
    tVal[dst] = val[k];
  }
}

// One thread per column: which columns of A^T's rows are nonempty.
__global__ void markCols(const int* __restrict__ colCount, int nCols, uint32_t* __restrict__ bits) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < nCols && colCount[c] != 0) atomicOr(&bits[c / 32], 1u << (c % 32));   // quiet: W64-LANE-MATH
}

// Nonempty columns per bitmap word (a 32-bit data word, not a lane mask).
__global__ void countWords(const uint32_t* __restrict__ bits, int words, int* __restrict__ nonEmpty) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w < words) atomicAdd(nonEmpty, __popc(bits[w]));                    // quiet: W64-BALLOT-NARROW
}

int transposeCsr(const int* rowPtr, const int* colIdx, const float* val, int nRows, int nCols, int nnz,
                 int* colCount, int* cursor, int* tRowIdx, float* tVal, uint32_t** bitsOut, int* nonEmpty) {
  const int threads = 256;
  countCols<<<(nRows * 32 + threads - 1) / threads, threads>>>(rowPtr, colIdx, nRows, colCount);   // expect: W64-BLOCK-SIZE
  int* warpTotals = nullptr;
  const int nWarps = (nCols + 31) / 32;                                    // expect: W64-WARP-COUNT
  cudaMalloc(&warpTotals, nWarps * sizeof(int));
  countScan<<<(nCols + threads - 1) / threads, threads>>>(colCount, nCols, warpTotals);
  // (the per-warp totals are scanned and added back by the caller's library)
  const int blocks = (nRows * 32 + 255) / 256;                             // expect: W64-BLOCK-SIZE
  rowsToCols<<<blocks, threads>>>(rowPtr, colIdx, val, nRows, cursor, tRowIdx, tVal);
  const int words = (nCols + 31) / 32;                                     // quiet: W64-BLOCK-SIZE, W64-WARP-COUNT
  cudaMalloc(bitsOut, static_cast<size_t>(words) * 32 / 8);                // quiet: W64-BLOCK-SIZE
  cudaMemset(*bitsOut, 0, static_cast<size_t>(words) * sizeof(uint32_t));
  markCols<<<(nCols + threads - 1) / threads, threads>>>(colCount, nCols, *bitsOut);
  countWords<<<(words + threads - 1) / threads, threads>>>(*bitsOut, words, nonEmpty);
  const int padded = (nnz + 31) / 32 * 32;                                 // quiet: W64-BLOCK-SIZE
  printf("transpose: %d nnz (%d padded), %d col words\n", nnz, padded, words);
  cudaFree(warpTotals);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// ------------------------------------------------------------ BVH traversal
struct Node { float lo[3], hi[3]; int left, right, first, count; };
struct Ray { float o[3], d[3], tmax; };

__device__ __forceinline__ bool hitBox(const Node& n, const Ray& r, float tmax) {
  float t0 = 0.f, t1 = tmax;
#pragma unroll
  for (int a = 0; a < 3; ++a) {
    const float inv = 1.f / r.d[a];
    float tn = (n.lo[a] - r.o[a]) * inv, tf = (n.hi[a] - r.o[a]) * inv;
    if (tn > tf) { const float s = tn; tn = tf; tf = s; }
    t0 = fmaxf(t0, tn); t1 = fminf(t1, tf);
  }
  return t0 <= t1;
}

// Packet traversal: the wavefront walks one shared stack; a node is visited
// when any ray of the packet hits it.
__global__ void bvhTraverse(const Node* __restrict__ nodes, const Ray* __restrict__ rays, int numRays,
                            int* __restrict__ hitCount) {
  __shared__ int stack[kPacketsPerBlock][64];
  // Wider wavefronts share one stack among more rays: keep it shallower.
  const int depthCap = (warpSize == 32) ? 64 : 48;                         // quiet: W64-HOST-WARP-SIZE
  const int packet = threadIdx.x / warpSize;
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const bool active = gid < numRays;
  const Ray r = rays[active ? gid : 0];
  int hits = 0, sp = 0;
  if (threadIdx.x % warpSize == 0) stack[packet][sp] = 0;
  ++sp;
  __syncwarp();
  while (sp > 0) {
    const int node = stack[packet][--sp];
    __syncwarp();
    const Node n = nodes[node];
    const bool any = __any_sync(__activemask(), active && hitBox(n, r, r.tmax));   // quiet: W64-MASK32
    if (!any) continue;
    if (n.count > 0) { hits += active ? n.count : 0; continue; }
    if (threadIdx.x % warpSize == 0 && sp + 2 <= depthCap) { stack[packet][sp] = n.right; stack[packet][sp + 1] = n.left; }
    sp = min(sp + 2, depthCap);
    __syncwarp();
  }
  const int leader = __shfl_sync(__activemask(), gid, 0);
  if (active) atomicAdd(&hitCount[leader / warpSize], hits);
}

// ------------------------------------------------------------ batch norm bwd
// dx for one channel per block; the wavefront partials go to dynamic smem.
__global__ void bnBackward(const float* __restrict__ dy, const float* __restrict__ x, const float* __restrict__ mean,
                           const float* __restrict__ invStd, const float* __restrict__ gamma, float* __restrict__ dx,
                           int N, int C, int HW) {
  extern __shared__ float part[];
  cg::thread_block block = cg::this_thread_block();
  const int c = blockIdx.x, lane = threadIdx.x % warpSize, w = threadIdx.x / warpSize;
  const int nw = blockDim.x / warpSize, count = N * HW;
  float sdy = 0.f, sdyx = 0.f;
  for (int i = threadIdx.x; i < count; i += blockDim.x) {
    const size_t at = (static_cast<size_t>(i / HW) * C + c) * HW + i % HW;
    sdy += dy[at];
    sdyx += dy[at] * (x[at] - mean[c]) * invStd[c];
  }
  for (int o = warpSize / 2; o > 0; o >>= 1) {
    sdy += __shfl_down_sync(__activemask(), sdy, o);
    sdyx += __shfl_down_sync(__activemask(), sdyx, o);
  }
  if (lane == 0) { part[w] = sdy; part[nw + w] = sdyx; }
  block.sync();
  sdy = 0.f; sdyx = 0.f;
  for (int k = 0; k < nw; ++k) { sdy += part[k]; sdyx += part[nw + k]; }
  const float k1 = gamma[c] * invStd[c] / count;
  for (int i = threadIdx.x; i < count; i += blockDim.x) {
    const size_t at = (static_cast<size_t>(i / HW) * C + c) * HW + i % HW;
    dx[at] = k1 * (count * dy[at] - sdy - (x[at] - mean[c]) * invStd[c] * sdyx);
  }
}

int runBackward(const float* dy, const float* x, const float* mean, const float* invStd, const float* gamma,
                float* dx, int N, int C, int HW, const Node* nodes, const Ray* rays, int numRays, int* hitCount) {
  int dev = 0;
  cudaGetDevice(&dev);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  if (prop.warpSize != 32) fprintf(stderr, "warning: tuned for 32-lane warps\n");   // expect: W64-HOST-WARP-SIZE
  const bool packets = prop.warpSize == kRaysPerPacket;                    // expect: W64-HOST-WARP-SIZE
  const int warps = std::min(16, std::max(1, N * HW / 1024));
  const int threads = 32 * warps;                                          // expect: W64-BLOCK-SIZE
  const size_t smem = 2 * sizeof(float) * (threads / 32);                  // expect: W64-WARP-COUNT
  bnBackward<<<C, threads, smem>>>(dy, x, mean, invStd, gamma, dx, N, C, HW);
  if (packets && deviceLanes(dev) == 32) {                                 // expect: W64-HOST-WARP-SIZE
    dim3 block(kPacketsPerBlock * 32);                                     // expect: W64-BLOCK-SIZE
    dim3 grid((numRays + block.x - 1) / block.x);
    bvhTraverse<<<grid, block>>>(nodes, rays, numRays, hitCount);
  }
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
