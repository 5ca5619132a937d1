// Held out, round 11. Cause 6: projects that carry their own AMD path.
// Domains: stream compaction with decoupled look-back (a vendored "wavecompat" section
// keyed on __HIP_PLATFORM_AMD__, with __AMDGCN_WAVEFRONT_SIZE inside its AMD branch) and
// k-means assignment (a project that selects HIP with its own USE_ROCM macro).
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - wavecompat: kLanes = 32, WC_ALL_LANES and the 32-bit lanemask_t exist only in the
//   #else of __HIP_PLATFORM_AMD__. The port reads the AMD branch, so kLanes is no warp
//   constant anywhere: lanes, wavefront ids and counts by kLanes, the per-wavefront
//   array wcount[32], strides by kLanes, `kLanes / 2` loop starts, the host test
//   `prop.warpSize != kLanes` and the launches `kLanes * 8` and `<<<1, kLanes>>>` are
//   quiet. The ballot into lanemask_t and the WC_ALL_LANES masks are quiet (deciding
//   declarations in the dropped branch). The CUDA branch of wcWaveSum (offset 16, literal
//   full mask) is dropped by the AMD compile (quiet). wcLanesBelow's `__PTX__` and
//   plain-CUDA branches are both dropped by the AMD compile, which takes the first
//   branch (quiet, whichever of them the parse sees).
// - sumTileAggregates: `threadIdx.x % kLanes` numbers 64 lanes in the port, so its
//   literal step `t += 32` is reported (expect), while the lane itself is quiet.
// - `s & 0xffffffffull` in the look-back is a value field, not a mask argument (quiet).
// - kmeans: USE_ROCM is a project macro, so the CUDA branch (KM_WARP 32, KM_FULL) is what
//   a port without -DUSE_ROCM compiles: reported, saying which flag selects the AMD path.
//   KM_WARP's first use is the lane (LANE-MATH, as the page asks for a warp-size name
//   anyway); every use carries the id found there: the host `prop.warpSize != KM_WARP`
//   is HOST-WARP-SIZE, `3 * KM_WARP` threads a constant block of 96 (BLOCK-SIZE).
#ifdef USE_ROCM
#include <hip/hip_runtime.h>
#define KM_WARP 64
#define KM_FULL 0xffffffffffffffffull
#else
#include <cuda_runtime.h>
#define KM_WARP 32                                                                // expect: W64-LANE-MATH
#define KM_FULL 0xffffffffu                                                       // expect: W64-MASK32
#endif
#include <cfloat>
#include <cstdint>
#include <cstdio>

// ---- wavecompat.h (vendored) ----
#if defined(__HIP_PLATFORM_AMD__)
#if defined(__AMDGCN_WAVEFRONT_SIZE)
constexpr int kLanes = __AMDGCN_WAVEFRONT_SIZE;
#else
constexpr int kLanes = 64;
#endif
typedef unsigned long long lanemask_t;
#define WC_ALL_LANES 0xffffffffffffffffull
#else
typedef unsigned int lanemask_t;
#define WC_ALL_LANES 0xffffffffu                                                  // quiet: W64-MASK32
constexpr int kLanes = 32;                                                        // quiet: W64-LANE-MATH
#endif

__device__ __forceinline__ int wcWaveSum(int v) {
#if defined(__HIP_PLATFORM_AMD__)
  for (int o = kLanes / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
#else
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);      // quiet: W64-SHFL-OFFSET, W64-MASK32
#endif
  return v;
}

__device__ __forceinline__ lanemask_t wcLanesBelow(int lane) {
#if defined(__HIP_PLATFORM_AMD__)
  return __lanemask_lt();
#elif defined(__PTX__)
  unsigned m; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m)); return m;             // quiet: W64-INLINE-PTX, W64-BALLOT-NARROW
#else
  return (lanemask_t(1) << lane) - 1;                                             // quiet: W64-BALLOT-NARROW
#endif
}
// ---- end wavecompat.h ----

constexpr int kTileItems = 2048;

// Stream compaction (keep in[i] > thresh): one tile of kTileItems per block, tiles
// claimed in order through a counter. Each tile publishes its aggregate and looks back
// over its predecessors (status word: flag << 62 | value; 1 = aggregate, 2 = prefix).
__global__ void compactLookback(const float* __restrict__ in, int n, float thresh, float* __restrict__ out,
                                unsigned long long* __restrict__ status, int* __restrict__ aggregates,
                                int* __restrict__ tileCounter, int* __restrict__ total) {
  __shared__ int wcount[32];                                                      // quiet: W64-WARP-COUNT
  __shared__ int tileIdS, tileBase;
  if (threadIdx.x == 0) tileIdS = atomicAdd(tileCounter, 1);
  __syncthreads();
  const int tile = tileIdS;
  const int lane = threadIdx.x % kLanes;                                          // quiet: W64-LANE-MATH
  const int wid = threadIdx.x / kLanes;                                           // quiet: W64-LANE-MATH
  const int nw = blockDim.x / kLanes;                                             // quiet: W64-WARP-COUNT
  const int per = kTileItems / nw;
  const int begin = tile * kTileItems + wid * per;
  // Pass 1: items kept by this wavefront.
  int cnt = 0;
  for (int j = lane; j < per; j += kLanes) cnt += (begin + j < n && in[begin + j] > thresh);   // quiet: W64-LANE-MATH
  cnt = wcWaveSum(cnt);
  if (lane == 0) wcount[wid] = cnt;
  __syncthreads();
  if (threadIdx.x == 0) {
    int agg = 0;
    for (int w = 0; w < nw; ++w) { const int c = wcount[w]; wcount[w] = agg; agg += c; }
    aggregates[tile] = agg;
    atomicExch(&status[tile], (1ull << 62) | static_cast<unsigned long long>(agg));
    int prefix = 0;
    for (int p = tile - 1; p >= 0; --p) {
      unsigned long long s;
      do { s = atomicAdd(&status[p], 0ull); } while ((s >> 62) == 0);
      prefix += static_cast<int>(s & 0xffffffffull);                              // quiet: W64-MASK32
      if ((s >> 62) == 2) break;
    }
    atomicExch(&status[tile], (2ull << 62) | static_cast<unsigned long long>(prefix + agg));
    tileBase = prefix;
    if (tile == static_cast<int>(gridDim.x) - 1) *total = prefix + agg;
  }
  __syncthreads();
  // Pass 2: write the kept items in order, one vote per kLanes items.
  int at = tileBase + wcount[wid];
  for (int j0 = 0; j0 < per; j0 += kLanes) {
    const int i = begin + j0 + lane;
    const bool keep = i < n && in[i] > thresh;
    const lanemask_t votes = __ballot_sync(WC_ALL_LANES, keep);                   // quiet: W64-MASK32, W64-BALLOT-NARROW
    if (keep) out[at + __popcll(votes & wcLanesBelow(lane))] = in[i];             // quiet: W64-BALLOT-NARROW
    at += __popcll(votes);
  }
}

// Debug check: the published aggregates added up by one wavefront.
__global__ void sumTileAggregates(const int* __restrict__ aggregates, int numTiles, int* __restrict__ sum) {
  if (threadIdx.x >= kLanes) return;
  const int lane = threadIdx.x % kLanes;                                          // quiet: W64-LANE-MATH
  int s = 0;
  for (int t = lane; t < numTiles; t += 32) s += aggregates[t];                   // expect: W64-LANE-MATH
  for (int o = kLanes / 2; o > 0; o >>= 1) s += __shfl_xor_sync(WC_ALL_LANES, s, o);   // quiet: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) *sum = s;
}

bool compactOnDevice(const float* dIn, int n, float thresh, float* dOut, int* dTotal, int* dCheck,
                     cudaStream_t st) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  if (prop.warpSize != kLanes) {                                                  // quiet: W64-HOST-WARP-SIZE
    std::fprintf(stderr, "wavecompat built for %d lanes, device has %d\n", kLanes, prop.warpSize);
    return false;
  }
  const int tiles = (n + kTileItems - 1) / kTileItems;
  unsigned long long* dStatus = nullptr;
  int* dAggregates = nullptr;
  int* dCounter = nullptr;
  cudaMalloc(&dStatus, tiles * sizeof(unsigned long long));
  cudaMalloc(&dAggregates, tiles * sizeof(int));
  cudaMalloc(&dCounter, sizeof(int));
  cudaMemsetAsync(dStatus, 0, tiles * sizeof(unsigned long long), st);
  cudaMemsetAsync(dCounter, 0, sizeof(int), st);
  const int threads = kLanes * 8;                                                 // quiet: W64-BLOCK-SIZE
  compactLookback<<<tiles, threads, 0, st>>>(dIn, n, thresh, dOut, dStatus, dAggregates, dCounter, dTotal);
  sumTileAggregates<<<1, kLanes, 0, st>>>(dAggregates, tiles, dCheck);           // quiet: W64-BLOCK-SIZE
  const bool ok = cudaStreamSynchronize(st) == cudaSuccess;
  cudaFree(dStatus);
  cudaFree(dAggregates);
  cudaFree(dCounter);
  return ok;
}

// k-means assignment step: one warp per point, the centroids spread over the lanes.
__global__ void kmeansAssign(const float* __restrict__ pts, int n, int dim, const float* __restrict__ cent,
                             int k, int* __restrict__ assign, float* __restrict__ dist2) {
  const int lane = threadIdx.x % KM_WARP;                                         // expect: W64-LANE-MATH
  const int p = blockIdx.x * (blockDim.x / KM_WARP) + threadIdx.x / KM_WARP;      // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (p >= n) return;
  const float* x = pts + static_cast<size_t>(p) * dim;
  float best = FLT_MAX;
  int arg = -1;
  for (int c = lane; c < k; c += KM_WARP) {                                       // expect: W64-LANE-MATH
    const float* m = cent + static_cast<size_t>(c) * dim;
    float d = 0.f;
    for (int j = 0; j < dim; ++j) { const float t = x[j] - m[j]; d += t * t; }
    if (d < best) { best = d; arg = c; }
  }
  for (int o = KM_WARP / 2; o > 0; o >>= 1) {                                     // expect: W64-SHFL-OFFSET
    const float ob = __shfl_xor_sync(KM_FULL, best, o);                           // expect: W64-MASK32
    const int oa = __shfl_xor_sync(KM_FULL, arg, o);                              // expect: W64-MASK32
    if (ob < best || (ob == best && static_cast<unsigned>(oa) < static_cast<unsigned>(arg))) { best = ob; arg = oa; }
  }
  if (lane == 0) { assign[p] = arg; dist2[p] = best; }
}

// Centroid update sums: one thread per point, no warp-level work.
__global__ void kmeansAccumulate(const float* __restrict__ pts, int n, int dim, const int* __restrict__ assign,
                                 float* __restrict__ sums, int* __restrict__ counts) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  const int c = assign[p];
  atomicAdd(&counts[c], 1);
  for (int j = 0; j < dim; ++j)
    atomicAdd(&sums[static_cast<size_t>(c) * dim + j], pts[static_cast<size_t>(p) * dim + j]);
}

void kmeansStep(const float* dPts, int n, int dim, const float* dCent, int k, int* dAssign, float* dDist2,
                float* dSums, int* dCounts, cudaStream_t st) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  if (prop.warpSize != KM_WARP)                                                   // expect: W64-HOST-WARP-SIZE
    std::fprintf(stderr, "kmeans: built for %d-lane warps; rebuild with -DUSE_ROCM\n", KM_WARP);
  cudaMemsetAsync(dSums, 0, sizeof(float) * k * dim, st);
  cudaMemsetAsync(dCounts, 0, sizeof(int) * k, st);
  kmeansAssign<<<(n + 2) / 3, 3 * KM_WARP, 0, st>>>(dPts, n, dim, dCent, k, dAssign, dDist2);   // expect: W64-BLOCK-SIZE
  kmeansAccumulate<<<(n + 255) / 256, 256, 0, st>>>(dPts, n, dim, dAssign, dSums, dCounts);
}
