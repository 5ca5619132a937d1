// Held out, round 12. Cause 6: projects that carry their own AMD path.
// Domains: ray-box traversal (slab tests of rays against instance boxes, one wavefront per
// ray, candidate compaction; shadow rays against the candidates' triangles), LZ77 match
// finding (hash chains compared a wavefront of bytes at a time, token slots claimed with
// one atomic per wavefront).
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - RT_WAVE, rt_lanes_t, RT_BALLOT, RT_SHFL_XOR, RT_POPC, RT_FFS and rtLanesBelow are
//   defined per platform under __HIP_PLATFORM_AMD__; the CUDA branch (32, unsigned,
//   0xffffffffu masks in macro bodies, __popc / __ffs, %lanemask_lt PTX) is dropped by the
//   HIP compile for AMD. Its definitions and every use deciding on them are quiet: lanes
//   `% RT_WAVE`, strides and batches by RT_WAVE, `256 / RT_WAVE` slots, `blockDim.x /
//   RT_WAVE`, ballots kept in rt_lanes_t, the host's `prop.warpSize != RT_WAVE` and the
//   launch shapes `RT_WAVE * raysPerBlock`, `nRays * RT_WAVE`.
// - shadowAnyHit was added later against CUDA only: its literal stride `t += 32` over a
//   lane by RT_WAVE (64 lanes in the port) is LANE-MATH, its literal masks MASK32, its
//   reduction from 16 SHFL-OFFSET; `prop.warpSize == 32` on the host is HOST-WARP-SIZE.
// - `%smid` PTX under `#ifdef __CUDA_ARCH__` is in a device-pass branch the AMD compile
//   takes: INLINE-PTX, labelled at the asm line (a token-level finding).
// - LZ_EVERY is defined per platform behind the project macro LZ_USE_ROCM, which guards
//   the HIP include. A HIP compile without -DLZ_USE_ROCM takes the 32-bit branch, and the
//   page says such a finding names the -D flag rather than vanishing: MASK32 at the
//   definition and at its call.
#if defined(__HIP_PLATFORM_AMD__)
#include <hip/hip_runtime.h>
#define RT_WAVE 64
typedef unsigned long long rt_lanes_t;
#define RT_BALLOT(p) __ballot(p)
#define RT_SHFL_XOR(v, o) __shfl_xor((v), (o))
#define RT_POPC(m) __popcll(m)
#define RT_FFS(m) __ffsll(static_cast<unsigned long long>(m))
__device__ __forceinline__ rt_lanes_t rtLanesBelow() { return __lanemask_lt(); }
#else
#include <cuda_runtime.h>
#define RT_WAVE 32                                                                   // quiet: W64-LANE-MATH
typedef unsigned rt_lanes_t;                                                         // quiet: W64-BALLOT-NARROW
#define RT_BALLOT(p) __ballot_sync(0xffffffffu, (p))                                 // quiet: W64-MASK32
#define RT_SHFL_XOR(v, o) __shfl_xor_sync(0xffffffffu, (v), (o))                     // quiet: W64-MASK32
#define RT_POPC(m) __popc(m)                                                         // quiet: W64-BALLOT-NARROW
#define RT_FFS(m) __ffs(m)
__device__ __forceinline__ rt_lanes_t rtLanesBelow() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));                                       // quiet: W64-INLINE-PTX, W64-BALLOT-NARROW
  return m;
}
#endif
#include <cstdint>
#include <cstdio>

#ifdef LZ_USE_ROCM
#include <hip/hip_runtime.h>
#define LZ_EVERY 0xffffffffffffffffull
#else
#define LZ_EVERY 0xffffffffu                                                         // expect: W64-MASK32
#endif

struct Ray {
  float3 o, d, invD;
  float tmax;
};

__device__ __forceinline__ float slabEnter(const Ray& r, float3 lo, float3 hi, float& tExit) {
  const float tx0 = (lo.x - r.o.x) * r.invD.x, tx1 = (hi.x - r.o.x) * r.invD.x;
  const float ty0 = (lo.y - r.o.y) * r.invD.y, ty1 = (hi.y - r.o.y) * r.invD.y;
  const float tz0 = (lo.z - r.o.z) * r.invD.z, tz1 = (hi.z - r.o.z) * r.invD.z;
  tExit = fminf(fminf(fmaxf(tx0, tx1), fmaxf(ty0, ty1)), fminf(fmaxf(tz0, tz1), r.tmax));
  return fmaxf(fmaxf(fminf(tx0, tx1), fminf(ty0, ty1)), fmaxf(fminf(tz0, tz1), 0.f));
}

__device__ __forceinline__ unsigned rtSmId() {
  unsigned id = 0;
#ifdef __CUDA_ARCH__
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));                                    // expect: W64-INLINE-PTX
#endif
  return id;
}

// ---------------------------------------------------------------------------------------
// Top level: one wavefront per ray tests every instance box in wavefront-sized batches;
// the boxes hit are compacted into the ray's candidate list and the nearest entry kept.
__global__ void rayInstances(const Ray* __restrict__ rays, int nRays, const float3* __restrict__ boxLo,
                             const float3* __restrict__ boxHi, int nBoxes, int* __restrict__ cand, int maxCand,
                             int* __restrict__ candCount, float* __restrict__ nearestEntry,
                             unsigned* __restrict__ perSmCandidates) {
  __shared__ int sCount[256 / RT_WAVE];                                              // quiet: W64-WARP-COUNT
  const int lane = threadIdx.x % RT_WAVE;                                            // quiet: W64-LANE-MATH
  const int ray = (blockIdx.x * blockDim.x + threadIdx.x) / RT_WAVE;
  const bool live = ray < nRays;
  int count = 0;
  if (live) {
    const Ray r = rays[ray];
    float best = r.tmax;
    for (int base = 0; base < nBoxes; base += RT_WAVE) {                             // quiet: W64-LANE-MATH
      const int b = base + lane;
      float tExit = 0.f, tEnter = INFINITY;
      if (b < nBoxes) tEnter = slabEnter(r, boxLo[b], boxHi[b], tExit);
      const bool hit = b < nBoxes && tEnter <= tExit;
      const rt_lanes_t hits = RT_BALLOT(hit);                                        // quiet: W64-MASK32, W64-BALLOT-NARROW
      const int pos = count + RT_POPC(hits & rtLanesBelow());                        // quiet: W64-BALLOT-NARROW
      if (hit && pos < maxCand) cand[ray * maxCand + pos] = b;
      count += RT_POPC(hits);
      if (hit) best = fminf(best, tEnter);
    }
    for (int o = RT_WAVE / 2; o > 0; o >>= 1) best = fminf(best, RT_SHFL_XOR(best, o));   // quiet: W64-SHFL-OFFSET, W64-MASK32
    if (lane == 0) {
      candCount[ray] = min(count, maxCand);
      nearestEntry[ray] = best;
    }
  }
  if (lane == 0) sCount[threadIdx.x / RT_WAVE] = count;                              // quiet: W64-LANE-MATH
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned total = 0;
    for (int w = 0; w < blockDim.x / RT_WAVE; ++w) total += sCount[w];               // quiet: W64-WARP-COUNT
    atomicAdd(&perSmCandidates[rtSmId()], total);
  }
}

__device__ __forceinline__ bool hitTriangle(const Ray& r, float3 a, float3 b, float3 c) {
  const float3 e1 = make_float3(b.x - a.x, b.y - a.y, b.z - a.z), e2 = make_float3(c.x - a.x, c.y - a.y, c.z - a.z);
  const float3 p = make_float3(r.d.y * e2.z - r.d.z * e2.y, r.d.z * e2.x - r.d.x * e2.z, r.d.x * e2.y - r.d.y * e2.x);
  const float det = e1.x * p.x + e1.y * p.y + e1.z * p.z;
  if (fabsf(det) < 1e-12f) return false;
  const float inv = 1.f / det;
  const float3 s = make_float3(r.o.x - a.x, r.o.y - a.y, r.o.z - a.z);
  const float u = (s.x * p.x + s.y * p.y + s.z * p.z) * inv;
  if (u < 0.f || u > 1.f) return false;
  const float3 q = make_float3(s.y * e1.z - s.z * e1.y, s.z * e1.x - s.x * e1.z, s.x * e1.y - s.y * e1.x);
  const float v = (r.d.x * q.x + r.d.y * q.y + r.d.z * q.z) * inv;
  if (v < 0.f || u + v > 1.f) return false;
  const float t = (e2.x * q.x + e2.y * q.y + e2.z * q.z) * inv;
  return t > 1e-4f && t < r.tmax;
}

// Shadow rays (any hit) against the triangles of the candidate instances. Added after the
// port was set up, written against CUDA only.
__global__ void shadowAnyHit(const Ray* __restrict__ rays, int nRays, const int* __restrict__ cand,
                             const int* __restrict__ candCount, int maxCand, const float3* __restrict__ triA,
                             const float3* __restrict__ triB, const float3* __restrict__ triC,
                             const int* __restrict__ instFirst, const int* __restrict__ instCount,
                             uint8_t* __restrict__ occluded, unsigned* __restrict__ tested) {
  const int lane = threadIdx.x % RT_WAVE;
  const int ray = (blockIdx.x * blockDim.x + threadIdx.x) / RT_WAVE;
  if (ray >= nRays) return;
  const Ray r = rays[ray];
  bool blocked = false;
  int tests = 0;
  for (int c = 0; c < candCount[ray] && !blocked; ++c) {
    const int inst = cand[ray * maxCand + c];
    const int first = instFirst[inst], last = first + instCount[inst];
    for (int t = first + lane; t < last && !blocked; t += 32) {                      // expect: W64-LANE-MATH
      blocked = hitTriangle(r, triA[t], triB[t], triC[t]);
      ++tests;
    }
    blocked = __any_sync(0xffffffff, blocked);                                       // expect: W64-MASK32
  }
  for (int o = 16; o > 0; o >>= 1) tests += __shfl_down_sync(0xffffffff, tests, o); // expect: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) {
    occluded[ray] = blocked;
    atomicAdd(tested, static_cast<unsigned>(tests));
  }
}

// ---------------------------------------------------------------------------------------
// LZ77: longest match for every position over its hash chain; one wavefront compares a
// candidate RT_WAVE bytes at a time, the first mismatching lane ends the match.
__global__ void lzLongestMatch(const uint8_t* __restrict__ text, int n, const int* __restrict__ chainHead,
                               const int* __restrict__ chainNext, int maxChain, int window, int minMatch,
                               int2* __restrict__ match) {
  const int lane = threadIdx.x % RT_WAVE;
  const int pos = (blockIdx.x * blockDim.x + threadIdx.x) / RT_WAVE;
  if (pos >= n) return;
  int bestLen = 0, bestDist = 0;
  int cand = chainHead[pos];
  for (int c = 0; c < maxChain && cand >= 0 && pos - cand <= window; ++c) {
    int len = 0;
    while (pos + len < n) {
      const int k = len + lane;
      const bool eq = pos + k < n && text[cand + k] == text[pos + k];
      const rt_lanes_t miss = RT_BALLOT(!eq);                                        // quiet: W64-MASK32, W64-BALLOT-NARROW
      if (miss) { len += RT_FFS(miss) - 1; break; }                                  // quiet: W64-BALLOT-NARROW
      len += RT_WAVE;
    }
    if (len > bestLen) { bestLen = len; bestDist = pos - cand; }
    cand = chainNext[cand];
  }
  if (lane == 0) match[pos] = bestLen >= minMatch ? make_int2(bestDist, bestLen) : make_int2(0, 0);
}

// Token slots: the positions that start a token claim their output slots, one atomic per
// wavefront (the emitter library keeps its own ROCm switch).
__device__ int lzClaimSlot(int* counter, bool want, int lane) {
  const rt_lanes_t act = RT_BALLOT(want);
  if (act == 0) return -1;
  const int leader = RT_FFS(act) - 1;
  int base = 0;
  if (lane == leader) base = atomicAdd(counter, RT_POPC(act));
  base = __shfl_sync(LZ_EVERY, base, leader);                                        // expect: W64-MASK32
  return want ? base + RT_POPC(act & rtLanesBelow()) : -1;
}

__global__ void lzEmitTokens(const int2* __restrict__ match, const uint8_t* __restrict__ isTokenStart, int n,
                             int* __restrict__ counter, int* __restrict__ tokenPos, int2* __restrict__ tokens) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % RT_WAVE;
  const bool want = i < n && isTokenStart[i];
  const int slot = lzClaimSlot(counter, want, lane);
  if (slot >= 0) {
    tokenPos[slot] = i;
    tokens[slot] = match[i];
  }
}

// ---------------------------------------------------------------------------------------
int traceBatch(const Ray* rays, int nRays, const float3* boxLo, const float3* boxHi, int nBoxes, int* cand,
               int maxCand, int* candCount, float* nearestEntry, unsigned* perSm, const float3* triA,
               const float3* triB, const float3* triC, const int* instFirst, const int* instCount,
               uint8_t* occluded, unsigned* tested, cudaStream_t st) {
  int dev = 0;
  cudaGetDevice(&dev);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  if (prop.warpSize != RT_WAVE) {                                                    // quiet: W64-HOST-WARP-SIZE
    fprintf(stderr, "rt: built for %d-lane wavefronts, device has %d\n", RT_WAVE, prop.warpSize);
    return -1;
  }
  const int raysPerBlock = 4;
  const int threads = RT_WAVE * raysPerBlock;                                        // quiet: W64-BLOCK-SIZE
  rayInstances<<<(nRays + raysPerBlock - 1) / raysPerBlock, threads, 0, st>>>(
      rays, nRays, boxLo, boxHi, nBoxes, cand, maxCand, candCount, nearestEntry, perSm);
  const int shadowThreads = prop.warpSize == 32 ? 128 : 256;                         // expect: W64-HOST-WARP-SIZE
  const long long shadowTotal = static_cast<long long>(nRays) * RT_WAVE;             // quiet: W64-BLOCK-SIZE
  shadowAnyHit<<<static_cast<int>((shadowTotal + shadowThreads - 1) / shadowThreads), shadowThreads, 0, st>>>(
      rays, nRays, cand, candCount, maxCand, triA, triB, triC, instFirst, instCount, occluded, tested);
  return 0;
}

void lzParse(const uint8_t* text, int n, const int* chainHead, const int* chainNext, int maxChain, int window,
             int minMatch, int2* match, const uint8_t* isTokenStart, int* counter, int* tokenPos, int2* tokens,
             cudaStream_t st) {
  const int matchThreads = 256;
  const long long total = static_cast<long long>(n) * RT_WAVE;
  lzLongestMatch<<<static_cast<int>((total + matchThreads - 1) / matchThreads), matchThreads, 0, st>>>(
      text, n, chainHead, chainNext, maxChain, window, minMatch, match);
  lzEmitTokens<<<(n + 255) / 256, 256, 0, st>>>(match, isTokenStart, n, counter, tokenPos, tokens);
}
