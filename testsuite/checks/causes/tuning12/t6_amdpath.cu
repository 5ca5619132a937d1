// Tuning, round 12. Cause 6: projects that carry their own AMD path.
// Domains: connected components by union-find (hooking, pointer jumping, root
// numbering, component sizes, a label checksum) and a component-size
// histogram vendored from a sibling project with its own USE_ROCM switch.
// Ambiguous calls (labelled as a demanding GPU compiler engineer would expect):
// - Everything in the `#else` of `__HIP_PLATFORM_AMD__` is dropped by the
//   port: UF_LANES 32, the 32-bit uf_mask_t, UF_ALL and the __popc/__ffs
//   macros, the %laneid PTX. Their definitions and the uses they decide
//   (uf_mask_t ballots, UF_POPC, UF_ALL masks, `% UF_LANES` lanes, the
//   per-wave array `[1024 / UF_LANES]`, `prop.warpSize != UF_LANES`, launch
//   shapes `UF_LANES * w`) are quiet.
// - UF_LANES is the wavefront's width for the port, so a literal stride 32
//   over `threadIdx.x % UF_LANES` and a loop from 16 next to the lane id are
//   findings; so are a plain `unsigned` ballot with __popc (the project's own
//   types bypassed), a literal 0xffffffff mask, `prop.warpSize == 32`, and the
//   host count `(n + 31) / 32` sizing a per-wave buffer (numbered by UF_LANES).
// - HIST_WARP comes from a project macro (USE_ROCM guards the HIP include):
//   the CUDA branch is what a port built without -DUSE_ROCM compiles, so its
//   definition and uses are labelled `expect` (the finding names the flag).
#if defined(__HIP_PLATFORM_AMD__)
#include <hip/hip_runtime.h>
#define UF_LANES 64
typedef unsigned long long uf_mask_t;
#define UF_ALL 0xffffffffffffffffull
#define UF_POPC(m) __popcll(m)
#define UF_FFS(m) __ffsll(static_cast<unsigned long long>(m))
#define UF_LANE_ID() static_cast<int>(__lane_id())
#else
#include <cuda_runtime.h>
#define UF_LANES 32                                                            // quiet: W64-LANE-MATH
typedef unsigned uf_mask_t;
#define UF_ALL 0xffffffffu                                                     // quiet: W64-MASK32
#define UF_POPC(m) __popc(m)                                                   // quiet: W64-BALLOT-NARROW
#define UF_FFS(m) __ffs(m)                                                     // quiet: W64-BALLOT-NARROW
__device__ __forceinline__ int ufLaneId() {
  unsigned l;
  asm("mov.u32 %0, %%laneid;" : "=r"(l));                                      // quiet: W64-INLINE-PTX
  return static_cast<int>(l);
}
#define UF_LANE_ID() ufLaneId()
#endif
#include <cstdint>

__device__ __forceinline__ int findRoot(int* parent, int v) {
  while (true) {
    const int p = parent[v];
    if (p == v) return v;
    const int gp = parent[p];
    if (gp != p) parent[v] = gp;  // path halving
    v = gp;
  }
}

__global__ void initParents(int* __restrict__ parent, int n) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) parent[v] = v;
}

// Hooking: each edge links the larger root under the smaller one; a wave counts its hooks.
__global__ void hookEdges(const int2* __restrict__ edges, int* __restrict__ parent, int* __restrict__ changed, int m) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  bool hooked = false;
  if (e < m) {
    int u = edges[e].x, v = edges[e].y;
    while (true) {
      u = findRoot(parent, u);
      v = findRoot(parent, v);
      if (u == v) break;
      if (u < v) { const int t = u; u = v; v = t; }
      if (atomicCAS(&parent[u], u, v) == u) { hooked = true; break; }
    }
  }
  const uf_mask_t any = __ballot_sync(UF_ALL, hooked);                         // quiet: W64-BALLOT-NARROW, W64-MASK32
  if (UF_LANE_ID() == 0 && any) atomicAdd(changed, UF_POPC(any));              // quiet: W64-BALLOT-NARROW
}

__global__ void compress(int* __restrict__ parent, int n) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) parent[v] = findRoot(parent, v);
}

// Dense ids for the roots: counted per wavefront, then per block.
__global__ void numberRoots(const int* __restrict__ parent, int* __restrict__ compId,
                            int* __restrict__ blockRoots, int n) {
  __shared__ int waveCount[1024 / UF_LANES];                                   // quiet: W64-WARP-COUNT
  const int lane = threadIdx.x % UF_LANES;                                     // quiet: W64-LANE-MATH
  const int wave = threadIdx.x / UF_LANES;                                     // quiet: W64-LANE-MATH
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  const bool root = v < n && parent[v] == v;
  const uf_mask_t roots = __ballot_sync(UF_ALL, root);                         // quiet: W64-BALLOT-NARROW, W64-MASK32
  const uf_mask_t below = roots & ((static_cast<uf_mask_t>(1) << lane) - 1);   // quiet: W64-BALLOT-NARROW
  if (lane == 0) waveCount[wave] = UF_POPC(roots);                             // quiet: W64-BALLOT-NARROW
  __syncthreads();
  int base = 0;
  for (int w = 0; w < wave; ++w) base += waveCount[w];
  if (root) compId[v] = base + UF_POPC(below);                                 // quiet: W64-BALLOT-NARROW
  if (threadIdx.x == blockDim.x - 1) blockRoots[blockIdx.x] = base + UF_POPC(roots);  // quiet: W64-BALLOT-NARROW
}

// Component sizes: one wavefront per slice of `per` vertices, the lanes stride over it.
__global__ void sliceSizes(const int* __restrict__ compId, int* __restrict__ size, int n, int per) {
  const int lane = threadIdx.x % UF_LANES;                                     // quiet: W64-LANE-MATH
  const int slice = (blockIdx.x * blockDim.x + threadIdx.x) / UF_LANES;
  const int beg = slice * per, end = min(n, beg + per);
  for (int v = beg + lane; v < end; v += 32) atomicAdd(&size[compId[v]], 1);  // expect: W64-LANE-MATH
}

__device__ __forceinline__ uint32_t crc32c(uint32_t x) {
  uint32_t c = ~0u;
  for (int i = 0; i < 4; ++i) {
    c ^= (x >> (8 * i)) & 0xffu;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1u)));
  }
  return ~c;
}

// Order-independent checksum of the labels: one xor-folded partial per wavefront.
__global__ void labelChecksum(const int* __restrict__ parent, uint32_t* __restrict__ partial,
                              int* __restrict__ selfRoots, int n) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = UF_LANE_ID();
  uint32_t h = v < n ? crc32c(static_cast<uint32_t>(parent[v]) ^ (static_cast<uint32_t>(v) * 2654435761u)) : 0u;
  for (int o = 16; o > 0; o >>= 1) h ^= __shfl_xor_sync(0xffffffff, h, o);    // expect: W64-SHFL-OFFSET, W64-MASK32
  const unsigned self = __ballot_sync(UF_ALL, v < n && parent[v] == v);        // expect: W64-BALLOT-NARROW // quiet: W64-MASK32
  if (lane == 0 && v < n) {
    partial[v / UF_LANES] = h;                                                 // quiet: W64-LANE-MATH
    atomicAdd(selfRoots, __popc(self));                                        // expect: W64-BALLOT-NARROW
  }
}

// ---- vendored from the graph toolkit, which has its own switch ----
#ifdef USE_ROCM
#include <hip/hip_runtime.h>
#define HIST_WARP 64
#else
#define HIST_WARP 32                                                           // expect: W64-LANE-MATH
#endif

// Histogram of component sizes in log2 buckets, aggregated per warp before the atomics.
__global__ void sizeHistogram(const int* __restrict__ size, int* __restrict__ hist, int nComp) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % HIST_WARP;                                    // expect: W64-LANE-MATH
  const int b = c < nComp ? 31 - __clz(max(size[c], 1)) : -1;                  // quiet: W64-BALLOT-NARROW
  const unsigned same = __match_any_sync(0xffffffffu, b);                      // expect: W64-MASK32, W64-BALLOT-NARROW
  if (b >= 0 && lane == __ffs(same) - 1) atomicAdd(&hist[b], __popc(same));    // expect: W64-BALLOT-NARROW
}

int connectedComponents(const int2* dEdges, int m, int n, int* dParent, int* dComp, int* dSize,
                        int* dHist, uint32_t* checksum) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  if (prop.warpSize != UF_LANES) return -1;                                    // quiet: W64-HOST-WARP-SIZE
  const bool legacyTuning = prop.warpSize == 32;                               // expect: W64-HOST-WARP-SIZE
  const int wavesPerBlock = legacyTuning ? 8 : 4;
  const int threads = UF_LANES * wavesPerBlock;                                // quiet: W64-BLOCK-SIZE
  initParents<<<(n + 255) / 256, 256>>>(dParent, n);
  int* dChanged = nullptr;
  cudaMalloc(&dChanged, sizeof(int));
  for (int changed = 1; changed;) {
    cudaMemset(dChanged, 0, sizeof(int));
    hookEdges<<<(m + threads - 1) / threads, threads>>>(dEdges, dParent, dChanged, m);
    compress<<<(n + 255) / 256, 256>>>(dParent, n);
    cudaMemcpy(&changed, dChanged, sizeof(int), cudaMemcpyDeviceToHost);
  }
  const int blocks = (n + threads - 1) / threads;
  int* dBlockRoots = nullptr;
  cudaMalloc(&dBlockRoots, blocks * sizeof(int));
  numberRoots<<<blocks, threads>>>(dParent, dComp, dBlockRoots, n);
  const int per = 256, slices = (n + per - 1) / per;
  sliceSizes<<<(slices * UF_LANES + 255) / 256, 256>>>(dComp, dSize, n, per);  // quiet: W64-BLOCK-SIZE
  sizeHistogram<<<(n + 255) / 256, 256>>>(dSize, dHist, n);
  const int waves = (n + 31) / 32;                                             // expect: W64-WARP-COUNT
  uint32_t* dPartial = nullptr;
  cudaMalloc(&dPartial, waves * sizeof(uint32_t));
  labelChecksum<<<blocks, threads>>>(dParent, dPartial, dChanged, n);
  uint32_t* hPartial = new uint32_t[waves];
  cudaMemcpy(hPartial, dPartial, waves * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  *checksum = 0;
  for (int i = 0; i < waves; ++i) *checksum ^= hPartial[i];
  delete[] hPartial;
  cudaFree(dChanged); cudaFree(dBlockRoots); cudaFree(dPartial);
  return 0;
}
