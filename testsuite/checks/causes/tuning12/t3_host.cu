// Tuning, round 12. Cause 3: host code.
// Domains: PageRank (pull form, dangling bitmap, L1 delta), edge-centric
// triangle counting, CRC-32 of pages with a per-warp fold.
// Ambiguous calls (labelled as a demanding GPU compiler engineer would expect):
// - The kernels are written with warpSize; the 32s that matter are on the host.
// - `ws != kTunedFor` (a local copy of prop.warpSize against a neutral constant
//   of 32), `warpWidth(dev) == 2 * 16` (a helper returning the attribute, an
//   expression worth 32) and `prop.warpSize <= 32` all test the device's warp
//   size against 32: W64-HOST-WARP-SIZE. `multiProcessorCount > 32` does not.
// - Host warp counts that size a cudaMalloc buffer filled once per warpSize
//   lanes (`n / 32 + 1`, `blocks * triThreads / 32`, `(pages + 31) / 32`) are
//   W64-WARP-COUNT at the line that divides; the bitmap word count
//   `(n + 31) / 32` feeds a kernel that does no warp work: quiet.
// - Launch shapes are W64-BLOCK-SIZE notes: `4 * 32` for a kernel that splits
//   by warpSize (its grid assumes 4 vertices per block), `32 * warpsPerBlock`
//   (labelled at the 32, not at the launch), the constant block 96.
//   `4 * prop.warpSize`, 256 and the occupancy query's argument are quiet.
// - kTunedFor is used only on the host, where nothing shuffles: its definition
//   is not a warp constant (unlabelled).
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

namespace cg = cooperative_groups;

__constant__ uint32_t cTable[256];

// PageRank, pull form: one warp per vertex sums contrib over its in-neighbours.
__global__ void pagerankPull(const int* __restrict__ inPtr, const int* __restrict__ inIdx,
                             const float* __restrict__ contrib, float* __restrict__ next,
                             float base, float damping, int n) {
  const int lane = threadIdx.x % warpSize;
  const int v = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (v >= n) return;
  float s = 0.f;
  for (int e = inPtr[v] + lane; e < inPtr[v + 1]; e += warpSize) s += contrib[inIdx[e]];
  for (int o = warpSize / 2; o > 0; o /= 2) s += __shfl_down_sync(__activemask(), s, o);  // quiet: W64-MASK32
  if (lane == 0) next[v] = base + damping * s;
}

// contrib[v] = rank[v] / outdeg[v]; dangling vertices are set in a bitmap.
__global__ void contributions(const float* __restrict__ rank, const int* __restrict__ outDeg,
                              float* __restrict__ contrib, unsigned* __restrict__ dangling, int n) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  const int d = outDeg[v];
  contrib[v] = d ? rank[v] / d : 0.f;
  if (!d) atomicOr(&dangling[v / 32], 1u << (v % 32));                         // quiet: W64-LANE-MATH
}

// L1 change between two iterations: one partial per warp, summed on the host.
__global__ void deltaPartials(const float* __restrict__ a, const float* __restrict__ b,
                              float* __restrict__ partial, int n) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float d = gid < n ? fabsf(a[gid] - b[gid]) : 0.f;
  for (int o = warpSize / 2; o > 0; o /= 2) d += __shfl_xor_sync(__activemask(), d, o);
  if (threadIdx.x % warpSize == 0) partial[gid / warpSize] = d;
}

// Vertices whose rank moved by more than tol (warp-aggregated atomic).
__global__ void countMoved(const float* __restrict__ a, const float* __restrict__ b,
                           int* __restrict__ moved, float tol, int n) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || fabsf(a[v] - b[v]) <= tol) return;
  cg::coalesced_group g = cg::coalesced_threads();
  if (g.thread_rank() == 0) atomicAdd(moved, static_cast<int>(g.size()));
}

// Triangles: warps take edges (u < v) in a grid-stride loop and intersect N(u), N(v).
__global__ void triangleWarps(const int* __restrict__ ptr, const int* __restrict__ adj,
                              const int2* __restrict__ edges, unsigned long long* __restrict__ perWarp,
                              int m) {
  const int lane = threadIdx.x % warpSize;
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  const int warps = gridDim.x * (blockDim.x / warpSize);
  unsigned long long cnt = 0;
  for (int e = warp; e < m; e += warps) {
    const int u = edges[e].x, v = edges[e].y;
    for (int i = ptr[u] + lane; i < ptr[u + 1]; i += warpSize) {
      const int w = adj[i];
      int lo = ptr[v], hi = ptr[v + 1];
      while (lo < hi) { const int mid = (lo + hi) / 2; if (adj[mid] < w) lo = mid + 1; else hi = mid; }
      cnt += (w > v && lo < ptr[v + 1] && adj[lo] == w) ? 1 : 0;
    }
  }
  for (int o = warpSize / 2; o > 0; o /= 2) cnt += __shfl_down_sync(__activemask(), cnt, o);
  if (lane == 0) perWarp[warp] = cnt;
}

// CRC-32 of each page, and an order-sensitive fold of the page CRCs per warp.
__global__ void pageCrc(const uint8_t* __restrict__ data, uint32_t* __restrict__ crc,
                        uint32_t* __restrict__ warpFold, int pages, int pageBytes) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t c = 0;
  if (p < pages) {
    c = 0xffffffffu;                                                           // quiet: W64-MASK32
    const uint8_t* q = data + static_cast<size_t>(p) * pageBytes;
    for (int i = 0; i < pageBytes; ++i) c = cTable[(c ^ q[i]) & 0xffu] ^ (c >> 8);
    c = ~c;
    crc[p] = c;
  }
  uint32_t f = c * (2u * static_cast<uint32_t>(p) + 1u);
  for (int o = warpSize / 2; o > 0; o /= 2) f ^= __shfl_xor_sync(__activemask(), f, o);
  if (threadIdx.x % warpSize == 0) warpFold[p / warpSize] = f;
}

static const int kTunedFor = 32;

static int warpWidth(int dev) {
  int w = 0;
  cudaDeviceGetAttribute(&w, cudaDevAttrWarpSize, dev);
  return w;
}

int pagerank(const int* dInPtr, const int* dInIdx, const int* dOutDeg, float* dRank, float* dNext,
             int n, int iters, float damping) {
  int dev = 0;
  cudaGetDevice(&dev);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  const int ws = prop.warpSize;
  if (ws != kTunedFor)                                                         // expect: W64-HOST-WARP-SIZE
    std::fprintf(stderr, "pagerank: tuned for %d-lane warps, device has %d\n", kTunedFor, ws);
  const bool manySms = prop.multiProcessorCount > 32;                          // quiet: W64-HOST-WARP-SIZE
  float *dContrib = nullptr, *dPart = nullptr;
  unsigned* dDangling = nullptr; int* dMoved = nullptr;
  cudaMalloc(&dContrib, n * sizeof(float));
  const int words = (n + 31) / 32;                                             // quiet: W64-WARP-COUNT
  cudaMalloc(&dDangling, words * sizeof(unsigned));
  const size_t nPartials = n / 32 + 1;                                         // expect: W64-WARP-COUNT
  cudaMalloc(&dPart, nPartials * sizeof(float));
  cudaMalloc(&dMoved, sizeof(int));
  std::vector<float> part(nPartials);
  int it = 0;
  for (; it < iters; ++it) {
    cudaMemset(dDangling, 0, words * sizeof(unsigned));
    contributions<<<(n + 95) / 96, 96>>>(dRank, dOutDeg, dContrib, dDangling, n);   // note: W64-BLOCK-SIZE
    pagerankPull<<<(n + 3) / 4, 4 * 32>>>(dInPtr, dInIdx, dContrib, dNext,          // note: W64-BLOCK-SIZE
                                         (1.f - damping) / n, damping, n);
    deltaPartials<<<(n + 255) / 256, 256>>>(dRank, dNext, dPart, n);
    cudaMemset(dMoved, 0, sizeof(int));
    countMoved<<<(n + 255) / 256, manySms ? 256 : 128>>>(dRank, dNext, dMoved, 1e-7f, n);
    cudaMemcpy(part.data(), dPart, nPartials * sizeof(float), cudaMemcpyDeviceToHost);
    double delta = 0.0; for (float p : part) delta += p;
    std::swap(dRank, dNext);
    if (delta < 1e-6 * n) break;
  }
  cudaFree(dContrib); cudaFree(dDangling); cudaFree(dPart); cudaFree(dMoved);
  return it;
}

unsigned long long triangles(const int* dPtr, const int* dAdj, const int2* dEdges, int m,
                             int warpsPerBlock) {
  int dev = 0;
  cudaGetDevice(&dev);
  if (warpWidth(dev) == 2 * 16) warpsPerBlock *= 2;                            // expect: W64-HOST-WARP-SIZE
  const int triThreads = 32 * warpsPerBlock;                                   // note: W64-BLOCK-SIZE
  int perSm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, triangleWarps, triThreads, 0);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  const int blocks = perSm * prop.multiProcessorCount;
  const size_t nWarps = static_cast<size_t>(blocks) * triThreads / 32;         // expect: W64-WARP-COUNT
  unsigned long long* dTri = nullptr;
  cudaMalloc(&dTri, nWarps * sizeof(unsigned long long));
  triangleWarps<<<blocks, triThreads>>>(dPtr, dAdj, dEdges, dTri, m);
  std::vector<unsigned long long> per(nWarps);
  cudaMemcpy(per.data(), dTri, nWarps * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  unsigned long long total = 0; for (unsigned long long c : per) total += c;
  cudaFree(dTri);
  return total;
}

uint32_t checksumPages(const uint8_t* dData, int pages, int pageBytes) {
  uint32_t table[256];
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  cudaMemcpyToSymbol(cTable, table, sizeof(table));
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  const bool narrow = prop.warpSize <= 32;                                     // expect: W64-HOST-WARP-SIZE
  const int warpsNeeded = (pages + 31) / 32;                                   // expect: W64-WARP-COUNT
  uint32_t *dCrc = nullptr, *dFold = nullptr;
  cudaMalloc(&dCrc, pages * sizeof(uint32_t));
  cudaMalloc(&dFold, warpsNeeded * sizeof(uint32_t));
  const int block = narrow ? 128 : 4 * prop.warpSize;                          // quiet: W64-BLOCK-SIZE
  pageCrc<<<(pages + block - 1) / block, block>>>(dData, dCrc, dFold, pages, pageBytes);
  std::vector<uint32_t> fold(warpsNeeded);
  cudaMemcpy(fold.data(), dFold, warpsNeeded * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  uint32_t h = 0; for (uint32_t f : fold) h ^= f;
  cudaFree(dCrc); cudaFree(dFold);
  return h;
}
