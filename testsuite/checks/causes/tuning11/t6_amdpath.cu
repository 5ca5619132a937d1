// Tuning, round 11. Cause 6: projects that carry their own AMD path.
// Domains: BVH ray traversal (and leaf refit), embedding bag lookup with
// pooling, cellular automata.
// Ambiguous calls (labelled as a demanding GPU engineer reading the check
// pages would expect):
// - EMB_WARP is 32 in the `#else` of a project macro (EMB_USE_ROCM) guarding
//   the HIP include: a HIP build without -DEMB_USE_ROCM compiles 32, so the
//   definition and its uses are findings (the message names the flag), the
//   host test `prop.warpSize != EMB_WARP` and grid `numBags * EMB_WARP` too.
// - kWave, lanemask_t, LANES_ALL, LANE_POPC and laneId()'s %laneid PTX are
//   defined per __HIP_PLATFORM_AMD__: the CUDA-branch definitions and their
//   uses are quiet (lane and packet ids, per-wavefront stack, ballots into
//   lanemask_t, LANE_POPC, the host test against kWave, block `kWave * 4`).
// - CA_WAVE comes from __AMDGCN_WAVEFRONT_SIZE (AMD device compile): its
//   fallback 32 is taken as a dropped branch (quiet); used in device code only.
// - Hazards beside the AMD path: `k += 32` over laneId() (a wavefront lane),
//   `lane == 31` as the last lane of a scan over kWave lanes, `1u << lane`
//   against a ballot and a direct __popc of a lanemask_t (the deciding code is
//   live, not the typedef), literal 0xffffffff masks, and %lanemask_lt PTX in
//   #ifdef __CUDA_ARCH__ (device pass: error). `#if __CUDA_ARCH__ >= 800` PTX
//   is quiet.
#ifdef EMB_USE_ROCM
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#define EMB_WARP 64
#else
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#define EMB_WARP 32                                                        // expect: W64-LANE-MATH
#endif
#include <cfloat>
#include <cstdint>
#include <cstdio>

#if defined(__HIP_PLATFORM_AMD__)
constexpr int kWave = 64;
typedef unsigned long long lanemask_t;
#define LANES_ALL 0xffffffffffffffffull
#define LANE_POPC(m) __popcll(m)
__device__ __forceinline__ unsigned laneId() { return __lane_id(); }
#else
constexpr int kWave = 32;                                                  // quiet: W64-LANE-MATH
typedef unsigned int lanemask_t;                                           // quiet: W64-BALLOT-NARROW
#define LANES_ALL 0xffffffffu                                              // quiet: W64-MASK32
#define LANE_POPC(m) __popc(m)                                             // quiet: W64-BALLOT-NARROW
__device__ __forceinline__ unsigned laneId() {
  unsigned id; asm volatile("mov.u32 %0, %%laneid;" : "=r"(id)); return id;   // quiet: W64-INLINE-PTX
}
#endif

#if defined(__AMDGCN_WAVEFRONT_SIZE)
#define CA_WAVE __AMDGCN_WAVEFRONT_SIZE
#else
#define CA_WAVE 32                                                         // quiet: W64-LANE-MATH
#endif
namespace cg = cooperative_groups;

__device__ __forceinline__ lanemask_t lanesBelow() {
#ifdef __CUDA_ARCH__
  unsigned m; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m)); return m;      // expect: W64-INLINE-PTX
#else
  return 0;
#endif
}
__device__ __forceinline__ float ldStream(const float* p) {
#if __CUDA_ARCH__ >= 800
  float v; asm volatile("ld.global.cs.f32 %0, [%1];" : "=f"(v) : "l"(p)); return v;   // quiet: W64-INLINE-PTX
#else
  return *p;
#endif
}

// ------------------------------------------------------------------ BVH
struct Node { float lo[3], hi[3]; int left, right, first, count; float area; };
struct Ray { float o[3], d[3], tmax; };
struct Tri { float v0[3], v1[3], v2[3]; };

__device__ __forceinline__ float slab(const Node& n, const Ray& r, float tmax) {
  float t0 = 0.f, t1 = tmax;
  for (int a = 0; a < 3; ++a) {
    const float inv = 1.f / r.d[a], tn = (n.lo[a] - r.o[a]) * inv, tf = (n.hi[a] - r.o[a]) * inv;
    t0 = fmaxf(t0, fminf(tn, tf)); t1 = fminf(t1, fmaxf(tn, tf));
  }
  return t0 <= t1 ? t0 : FLT_MAX;
}
__device__ __forceinline__ float triArea(const Tri& t) {
  float a[3], b[3];
  for (int i = 0; i < 3; ++i) { a[i] = t.v1[i] - t.v0[i]; b[i] = t.v2[i] - t.v0[i]; }
  const float cx = a[1] * b[2] - a[2] * b[1], cy = a[2] * b[0] - a[0] * b[2], cz = a[0] * b[1] - a[1] * b[0];
  return 0.5f * sqrtf(cx * cx + cy * cy + cz * cz);
}

constexpr int kBvhThreads = 256;
// Packet traversal: a wavefront shares one stack and descends into the child
// most of its rays reach first; rays that reach a leaf queue its id.
__global__ void __launch_bounds__(kBvhThreads) bvhPacketQueue(const Node* __restrict__ nodes,
    const Ray* __restrict__ rays, int numRays, int* __restrict__ queue, int* __restrict__ queueLen) {
  __shared__ int stack[kBvhThreads / kWave][48];                           // quiet: W64-WARP-COUNT
  const int lane = threadIdx.x % kWave;                                    // quiet: W64-LANE-MATH
  const int packet = threadIdx.x / kWave;                                  // quiet: W64-LANE-MATH
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const bool active = gid < numRays;
  const Ray r = rays[active ? gid : 0];
  int sp = 1;
  if (lane == 0) stack[packet][0] = 0;
  __syncwarp();
  while (sp > 0) {
    const Node n = nodes[stack[packet][--sp]];
    __syncwarp();
    const bool want = active && slab(n, r, r.tmax) < FLT_MAX;
    const lanemask_t hit = __ballot_sync(LANES_ALL, want);                 // quiet: W64-MASK32, W64-BALLOT-NARROW
    if (hit == 0) continue;
    if (n.count > 0) {
      int base = 0;
      if (lane == 0) base = atomicAdd(queueLen, LANE_POPC(hit));           // quiet: W64-BALLOT-NARROW
      base = __shfl_sync(LANES_ALL, base, 0);                              // quiet: W64-MASK32
      if (want) queue[base + LANE_POPC(hit & lanesBelow())] = gid;         // quiet: W64-BALLOT-NARROW
      continue;
    }
    const bool leftNear = want && slab(nodes[n.left], r, r.tmax) <= slab(nodes[n.right], r, r.tmax);
    const lanemask_t nearL = __ballot_sync(LANES_ALL, leftNear);           // quiet: W64-MASK32, W64-BALLOT-NARROW
    const bool leftFirst = 2 * __popc(nearL) >= __popc(hit);               // expect: W64-BALLOT-NARROW
    const bool leader = (hit & ((1u << lane) - 1)) == 0 && want;           // expect: W64-BALLOT-NARROW
    if (leader && sp + 2 <= 48) { stack[packet][sp] = leftFirst ? n.right : n.left; stack[packet][sp + 1] = leftFirst ? n.left : n.right; }
    sp = min(sp + 2, 48);
    __syncwarp();
  }
}

// Leaf refit: bounds and total area; one wavefront per leaf.
__global__ void refitLeaves(Node* __restrict__ nodes, const int* __restrict__ leafIds, int numLeaves,
                            const Tri* __restrict__ tris) {
  const unsigned lane = laneId();
  const int leaf = blockIdx.x * (blockDim.x / kWave) + threadIdx.x / kWave;   // quiet: W64-LANE-MATH, W64-WARP-COUNT
  if (leaf >= numLeaves) return;
  Node& n = nodes[leafIds[leaf]];
  float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX}, area = 0.f;
  for (int k = n.first + lane; k < n.first + n.count; k += 32) {           // expect: W64-LANE-MATH
    const Tri t = tris[k];
    for (int a = 0; a < 3; ++a) { lo[a] = fminf(lo[a], fminf(t.v0[a], fminf(t.v1[a], t.v2[a])));
                                  hi[a] = fmaxf(hi[a], fmaxf(t.v0[a], fmaxf(t.v1[a], t.v2[a]))); }
    area += triArea(t);
  }
  for (int o = kWave / 2; o > 0; o >>= 1) {                                // quiet: W64-SHFL-OFFSET
    for (int a = 0; a < 3; ++a)
      lo[a] = fminf(lo[a], __shfl_xor_sync(0xffffffff, lo[a], o)), hi[a] = fmaxf(hi[a], __shfl_xor_sync(0xffffffff, hi[a], o));   // expect: W64-MASK32
    area += __shfl_xor_sync(0xffffffff, area, o);                          // expect: W64-MASK32
  }
  if (lane == 0) { for (int a = 0; a < 3; ++a) { n.lo[a] = lo[a]; n.hi[a] = hi[a]; } n.area = area; }
}

// Area CDF of a leaf's triangles for light sampling (leaves hold <= kWave).
__global__ void leafAreaCdf(const Node* __restrict__ nodes, const int* __restrict__ leafIds, int numLeaves,
                            const Tri* __restrict__ tris, float* __restrict__ cdf, float* __restrict__ leafArea) {
  const unsigned lane = laneId();
  const int leaf = (blockIdx.x * blockDim.x + threadIdx.x) / kWave;        // quiet: W64-LANE-MATH
  if (leaf >= numLeaves) return;
  const Node n = nodes[leafIds[leaf]];
  float a = static_cast<int>(lane) < n.count ? triArea(tris[n.first + lane]) : 0.f;
  for (int d = 1; d < kWave; d <<= 1) {                                    // quiet: W64-SHFL-OFFSET
    const float t = __shfl_up_sync(LANES_ALL, a, d);                       // quiet: W64-MASK32
    if (lane >= static_cast<unsigned>(d)) a += t;
  }
  if (static_cast<int>(lane) < n.count) cdf[n.first + lane] = a;
  if (lane == 31) leafArea[leaf] = a;                                      // expect: W64-LANE-MATH
}

// ---------------------------------------------------------- embedding bag
// Weighted-sum bag (per-sample weights normalised per bag), one tile per bag.
__global__ void embBagWeighted(const float* __restrict__ table, const int* __restrict__ idx, const int* __restrict__ off,
                               const float* __restrict__ w, float* __restrict__ out, int numBags, int dim) {
  const int lane = threadIdx.x % EMB_WARP;                                 // expect: W64-LANE-MATH
  const int bag = blockIdx.x * (blockDim.x / EMB_WARP) + threadIdx.x / EMB_WARP;   // expect: W64-WARP-COUNT, W64-LANE-MATH
  auto tile = cg::tiled_partition<EMB_WARP>(cg::this_thread_block());     // expect: W64-SHFL-OFFSET
  if (bag >= numBags) return;
  float wsum = 0.f;
  for (int k = off[bag] + lane; k < off[bag + 1]; k += EMB_WARP) wsum += w[k];   // expect: W64-LANE-MATH
  wsum = cg::reduce(tile, wsum, cg::plus<float>());
  const float norm = wsum > 0.f ? 1.f / wsum : 0.f;
  for (int d = lane; d < dim; d += EMB_WARP) {                             // expect: W64-LANE-MATH
    float acc = 0.f;
    for (int k = off[bag]; k < off[bag + 1]; ++k) acc += w[k] * ldStream(&table[static_cast<size_t>(idx[k]) * dim + d]);
    out[static_cast<size_t>(bag) * dim + d] = acc * norm;
  }
}

// ----------------------------------------------------- cellular automaton
// Elementary CA, a row of CA_WAVE words per wavefront; counts busy words.
__global__ void caWaveRows(const uint32_t* __restrict__ cur, uint32_t* __restrict__ nxt, int* __restrict__ busyWords,
                           int rows, uint8_t rule) {
  const int lane = threadIdx.x % CA_WAVE;                                  // quiet: W64-LANE-MATH
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / CA_WAVE;       // quiet: W64-LANE-MATH
  if (row >= rows) return;
  const uint32_t w = cur[static_cast<size_t>(row) * CA_WAVE + lane];
  uint32_t left = __shfl_up_sync(LANES_ALL, w, 1), right = __shfl_down_sync(LANES_ALL, w, 1);   // quiet: W64-MASK32
  if (lane == 0) left = 0;
  if (lane == CA_WAVE - 1) right = 0;                                      // quiet: W64-LANE-MATH
  const uint32_t l = (w << 1) | (left >> 31), r = (w >> 1) | (right << 31);
  uint32_t out = 0;
  for (int p = 0; p < 8; ++p) if ((rule >> p) & 1) out |= ((p & 4) ? l : ~l) & ((p & 2) ? w : ~w) & ((p & 1) ? r : ~r);
  nxt[static_cast<size_t>(row) * CA_WAVE + lane] = out;
  const lanemask_t busy = __ballot_sync(LANES_ALL, out != 0);              // quiet: W64-MASK32, W64-BALLOT-NARROW
  if (lane == 0) busyWords[row] = LANE_POPC(busy);                         // quiet: W64-BALLOT-NARROW
}

// ------------------------------------------------------------------ host
int launchScene(const Node* nodes, Node* mnodes, const Ray* rays, int numRays, int* queue, int* queueLen,
                const int* leafIds, int numLeaves, const Tri* tris, const float* table, const int* idx,
                const int* off, const float* w, float* out, int numBags, int dim) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  if (prop.warpSize != kWave) { fprintf(stderr, "built for %d-lane wavefronts\n", kWave); return 1; }   // quiet: W64-HOST-WARP-SIZE
  if (prop.warpSize != EMB_WARP) fprintf(stderr, "embedding ops tuned for %d lanes\n", EMB_WARP);      // expect: W64-HOST-WARP-SIZE
  bvhPacketQueue<<<(numRays + kBvhThreads - 1) / kBvhThreads, kBvhThreads>>>(nodes, rays, numRays, queue, queueLen);
  const int threads = kWave * 4;                                           // quiet: W64-BLOCK-SIZE
  refitLeaves<<<(numLeaves + 3) / 4, threads>>>(mnodes, leafIds, numLeaves, tris);
  embBagWeighted<<<(numBags * EMB_WARP + 255) / 256, 256>>>(table, idx, off, w, out, numBags, dim);   // expect: W64-BLOCK-SIZE
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
