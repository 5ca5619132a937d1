// Held out, round 10. Cause 6: a project that carries its own AMD path.
// Domains: per-wavefront privatised byte histograms, stream compaction with
// warp-aggregated atomics, Aho-Corasick match counting.
// The project selects its AMD path with __HIP_PLATFORM_AMD__ (once together with
// __HIP_PLATFORM_HCC__): HC_LANES, kLanes, the lane-mask type hc_mask_t, the full
// mask HC_ALL and HC_POPC are defined per platform, 64-bit / 64 lanes in the AMD
// branch. Everything in a branch that an AMD HIP compile drops is quiet, and so is
// everything decided there (README, "Projects with their own AMD path").
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - kLanes (and HC_LANES) exist in the parsed CUDA view only as the CUDA branch's 32:
//   `threadIdx.x % kLanes`, `/ kLanes`, `sub[kMaxWaves][...]` with kMaxWaves =
//   1024 / kLanes, `<<<1, kLanes>>>`, `kLanes * 8` and `HC_LANES * 3` are quiet, and
//   so is the host test `prop.warpSize != kLanes`. The literal stride `b += 32` over
//   `threadIdx.x % kLanes` in histPerWave is a finding.
// - `HC_POPC(vote)` expands to __popc only in the dropped CUDA branch; the ballot
//   kept in hc_mask_t and the lane bit `hc_mask_t(1) << lane` are decided by the
//   typedef there: quiet.
// - compactByKeyLegacy was never moved to the HC_ names: its `unsigned` ballot, __popc,
//   `1u << lane`, `% 32` and literal mask are findings; its mask HC_ALL is quiet.
// - histTotal reduces from a literal 16 in shared code: SHFL-OFFSET (its HC_ALL mask
//   is quiet).
// - hcSmId reads %smid in `#ifdef __CUDA_ARCH__` (a device-pass branch the AMD compile
//   takes): INLINE-PTX. hcLaneId's %laneid lies in the `#else` of
//   __HIP_PLATFORM_AMD__ (dropped): quiet. hcRcp's PTX is under
//   `#if __CUDA_ARCH__ >= 700`, false on AMD: quiet.
// - The host count `acBlocks * 256 / 32` sizes the per-wavefront output of
//   acCountMatches, which shuffles (through waveSum) and numbers its wavefronts by
//   warpSize: WARP-COUNT. `prop.warpSize == 32` in shared host code is a finding.
#if defined(__HIP_PLATFORM_AMD__)
#include <hip/hip_runtime.h>
#define HC_LANES 64
typedef unsigned long long hc_mask_t;
#define HC_ALL 0xffffffffffffffffull
#define HC_POPC(m) __popcll(m)
#else
#include <cuda_runtime.h>
#define HC_LANES 32                                                            // quiet: W64-LANE-MATH
typedef unsigned int hc_mask_t;                                                // quiet: W64-BALLOT-NARROW
#define HC_ALL 0xffffffffu                                                     // quiet: W64-MASK32
#define HC_POPC(m) __popc(m)                                                   // quiet: W64-BALLOT-NARROW
#endif
#include <cstdint>
#include <cstdio>

#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)
constexpr int kLanes = 64;
#else
constexpr int kLanes = 32;                                                     // quiet: W64-LANE-MATH
#endif
constexpr int kBins = 256;
constexpr int kMaxWaves = 1024 / kLanes;                                       // quiet: W64-WARP-COUNT, W64-LANE-MATH

__device__ __forceinline__ unsigned waveSum(unsigned v) {
#ifdef __HIP_PLATFORM_AMD__
  for (int o = kLanes / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
#else
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);   // quiet: W64-SHFL-OFFSET, W64-MASK32
#endif
  return v;
}

__device__ __forceinline__ int hcLaneId() {
#if defined(__HIP_PLATFORM_AMD__)
  return __lane_id();
#else
  int l;
  asm("mov.u32 %0, %%laneid;" : "=r"(l));                                      // quiet: W64-INLINE-PTX
  return l;
#endif
}

// SM id for the load-balancing statistics.
__device__ __forceinline__ unsigned hcSmId() {
  unsigned id = 0;
#ifdef __CUDA_ARCH__
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));                              // expect: W64-INLINE-PTX
#endif
  return id;
}

__device__ __forceinline__ float hcRcp(float x) {
#if __CUDA_ARCH__ >= 700
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));                        // quiet: W64-INLINE-PTX
  return r;
#else
  return 1.f / x;
#endif
}

// Byte histogram with one private sub-histogram per wavefront in shared memory;
// each wavefront then adds its sub-histogram into the global one.
__global__ void __launch_bounds__(1024)
histPerWave(const uint8_t* __restrict__ data, size_t n, unsigned* __restrict__ bins) {
  __shared__ unsigned sub[kMaxWaves][kBins];                                   // quiet: W64-WARP-COUNT
  const int lane = threadIdx.x % kLanes;                                       // quiet: W64-LANE-MATH
  const int wave = threadIdx.x / kLanes;                                       // quiet: W64-LANE-MATH
  for (int i = threadIdx.x; i < kMaxWaves * kBins; i += blockDim.x) (&sub[0][0])[i] = 0u;
  __syncthreads();
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&sub[wave][data[i]], 1u);
  __syncthreads();
  for (int b = lane; b < kBins; b += 32) {                                     // expect: W64-LANE-MATH
    const unsigned c = sub[wave][b];
    if (c) atomicAdd(&bins[b], c);
  }
}

// Histogram total (the normaliser), one wavefront.
__global__ void histTotal(const unsigned* __restrict__ bins, float* __restrict__ invTotal) {
  const int lane = threadIdx.x % kLanes;                                       // quiet: W64-LANE-MATH
  unsigned s = 0;
  for (int b = lane; b < kBins; b += kLanes) s += bins[b];                     // quiet: W64-LANE-MATH
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(HC_ALL, s, o);       // expect: W64-SHFL-OFFSET // quiet: W64-MASK32
  if (lane == 0) *invTotal = hcRcp(static_cast<float>(s));
}

// Stream compaction of the non-zero entries with warp-aggregated atomics.
__global__ void compactNonZero(const float* __restrict__ in, int n, float* __restrict__ out, int* __restrict__ count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = hcLaneId();
  const bool keep = i < n && in[i] != 0.f;
  const hc_mask_t vote = __ballot_sync(HC_ALL, keep);                          // quiet: W64-BALLOT-NARROW, W64-MASK32
  int base = 0;
  if (lane == 0 && vote) base = atomicAdd(count, HC_POPC(vote));               // quiet: W64-BALLOT-NARROW
  base = __shfl_sync(HC_ALL, base, 0);                                         // quiet: W64-MASK32
  const hc_mask_t below = (static_cast<hc_mask_t>(1) << lane) - 1;             // quiet: W64-BALLOT-NARROW
  if (keep) out[base + HC_POPC(vote & below)] = in[i];                         // quiet: W64-BALLOT-NARROW
}

// Older path kept for the per-key compaction (never moved to the HC_ names).
__global__ void compactByKeyLegacy(const int* __restrict__ keys, const float* __restrict__ vals, int n, int key,
                                   float* __restrict__ out, int* __restrict__ count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;                                           // expect: W64-LANE-MATH
  const bool keep = i < n && keys[i] == key;
  const unsigned vote = __ballot_sync(HC_ALL, keep);                           // expect: W64-BALLOT-NARROW // quiet: W64-MASK32
  int base = 0;
  if (lane == 0 && vote) base = atomicAdd(count, __popc(vote));                // expect: W64-BALLOT-NARROW
  base = __shfl_sync(0xffffffff, base, 0);                                     // expect: W64-MASK32
  if (keep) out[base + __popc(vote & ((1u << lane) - 1))] = vals[i];           // expect: W64-BALLOT-NARROW
}

// Aho-Corasick match counting over a dense goto table (states x 256, failure links
// folded in) with the number of patterns ending in each state. Thread g counts the
// matches ending in [g * chunk, (g + 1) * chunk), starting overlap bytes earlier.
__global__ void acCountMatches(const int* __restrict__ gotoTab, const int* __restrict__ outCnt,
                               const unsigned char* __restrict__ text, int n, int chunk, int overlap,
                               unsigned* __restrict__ perWave, unsigned* __restrict__ smHits) {
  __shared__ int rootRow[kBins];
  for (int c = threadIdx.x; c < kBins; c += blockDim.x) rootRow[c] = gotoTab[c];
  __syncthreads();
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int beg = g * chunk;
  const int end = min(n, beg + chunk);
  int state = 0;
  unsigned hits = 0;
  for (int i = max(0, beg - overlap); i < end; ++i) {
    const int c = text[i];
    state = state == 0 ? rootRow[c] : gotoTab[state * kBins + c];
    if (i >= beg) hits += outCnt[state];
  }
  hits = waveSum(hits);
  if (g % warpSize == 0) {                                                     // quiet: W64-LANE-MATH
    perWave[g / warpSize] = hits;
    atomicAdd(&smHits[hcSmId()], hits);
  }
}

#ifndef __HIP_PLATFORM_AMD__
// CUDA-only self-check: sorted bin counts must not increase within a warp.
__global__ void histCheckSorted(const unsigned* __restrict__ sorted, int* __restrict__ bad) {
  const int lane = threadIdx.x & 31;                                           // quiet: W64-LANE-MATH
  const unsigned v = sorted[threadIdx.x];
  const unsigned next = __shfl_down_sync(0xffffffff, v, 1);                    // quiet: W64-MASK32
  if (lane < 31 && next > v) atomicAdd(bad, 1);                                // quiet: W64-LANE-MATH
}
#endif

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  if (prop.warpSize != kLanes) {                                               // quiet: W64-HOST-WARP-SIZE
    std::fprintf(stderr, "built for %d-lane wavefronts, device has %d\n", kLanes, prop.warpSize);
    return 1;
  }
  const bool cudaWarps = prop.warpSize == 32;                                  // expect: W64-HOST-WARP-SIZE
  const int n = 1 << 24, maxPatLen = 16;
  uint8_t* dData; unsigned *dBins, *dPerWave, *dSmHits; float *dInv, *dIn, *dOut; int *dCount, *dKeys, *dGoto, *dOutCnt;
  cudaMalloc(&dData, n); cudaMalloc(&dBins, kBins * sizeof(unsigned)); cudaMalloc(&dInv, sizeof(float));
  cudaMalloc(&dIn, n * sizeof(float)); cudaMalloc(&dOut, n * sizeof(float)); cudaMalloc(&dCount, sizeof(int));
  cudaMalloc(&dKeys, n * sizeof(int)); cudaMalloc(&dGoto, 1024 * kBins * sizeof(int)); cudaMalloc(&dOutCnt, 1024 * sizeof(int));
  cudaMalloc(&dSmHits, prop.multiProcessorCount * sizeof(unsigned));
  histPerWave<<<2 * prop.multiProcessorCount, kLanes * 8>>>(dData, n, dBins);  // quiet: W64-BLOCK-SIZE
  histTotal<<<1, kLanes>>>(dBins, dInv);                                       // quiet: W64-BLOCK-SIZE
  const int threads = HC_LANES * 3;                                            // quiet: W64-BLOCK-SIZE
  compactNonZero<<<(n + threads - 1) / threads, threads>>>(dIn, n, dOut, dCount);
  if (cudaWarps) compactByKeyLegacy<<<(n + 255) / 256, 256>>>(dKeys, dIn, n, 7, dOut, dCount);
  const int chunk = 64, overlap = maxPatLen - 1;
  const int acThreads = (n + chunk - 1) / chunk;
  const int acBlocks = (acThreads + 255) / 256;
  const int numWaves = acBlocks * 256 / 32;                                    // expect: W64-WARP-COUNT
  cudaMalloc(&dPerWave, numWaves * sizeof(unsigned));
  acCountMatches<<<acBlocks, 256>>>(dGoto, dOutCnt, dData, n, chunk, overlap, dPerWave, dSmHits);
  cudaDeviceSynchronize();
  return 0;
}
