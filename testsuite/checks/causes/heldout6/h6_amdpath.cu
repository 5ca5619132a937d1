// Held out, round 6. Cause 6: a project that carries its own AMD path.
// Ambiguous calls (labelled as a demanding GPU engineer would expect):
// - laneId's inline PTX sits in the #else of `defined(__HIP_PLATFORM_AMD__)`,
//   a branch the AMD compile drops (the port compiles __lane_id()): quiet,
//   though the condition is not one of the NVIDIA-only macros the
//   W64-INLINE-PTX page lists.
// - `31 - __clz(upTo)`: lanemask_t is 64-bit in the code the port compiles,
//   and __clz reads 32 of its bits: W64-BALLOT-NARROW in live code, although
//   the type is declared per platform.
// - USE_ROCM guards the HIP include, but a plain port does not define it: the
//   32 branch is compiled, so WARP_THREADS and its uses are warnings.
#include <cuda_runtime.h>

#if defined(__HIP_PLATFORM_AMD__) && defined(__AMDGCN_WAVEFRONT_SIZE)
constexpr int kWave = __AMDGCN_WAVEFRONT_SIZE;
typedef unsigned long long lanemask_t;
#define ALL_LANES (~0ull)
#elif defined(__HIP_PLATFORM_AMD__)
constexpr int kWave = 64;
typedef unsigned long long lanemask_t;
#define ALL_LANES (~0ull)
#else
constexpr int kWave = 32;                                              // quiet: W64-LANE-MATH
typedef unsigned int lanemask_t;                                       // quiet: W64-BALLOT-NARROW
#define ALL_LANES 0xffffffffu                                          // quiet: W64-MASK32
#endif

__device__ __forceinline__ int laneId() {
#if defined(__HIP_PLATFORM_AMD__)
  return __lane_id();
#else
  int lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));                  // quiet: W64-INLINE-PTX
  return lane;
#endif
}

// Segmented sum with head flags: a ballot finds the segment heads of the
// wave, a scan adds within each segment, the segment's last lane adds its
// piece to the segment's total.
__global__ void segmentedSum(const float *val, const int *head, const int *segOf,
                             float *segSum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = laneId();
  const bool isHead = i < n && head[i];
  const lanemask_t heads = __ballot_sync(ALL_LANES, isHead);           // quiet: W64-MASK32, W64-BALLOT-NARROW
  const lanemask_t upTo = heads & ((lanemask_t(2) << lane) - 1);       // quiet: W64-BALLOT-NARROW
  const int first = upTo ? 31 - __clz(upTo) : 0;                       // expect: W64-BALLOT-NARROW
  float v = i < n ? val[i] : 0.f;
  for (int d = 1; d < kWave; d <<= 1) {                                // quiet: W64-SHFL-OFFSET
    const float up = __shfl_up_sync(ALL_LANES, v, d);
    if (lane - d >= first) v += up;
  }
  const bool last = threadIdx.x % kWave == kWave - 1 || ((heads >> (lane + 1)) & 1); // quiet: W64-LANE-MATH
  if (i < n && (last || i == n - 1)) atomicAdd(&segSum[segOf[i]], v);
}

#ifdef USE_ROCM
#include <hip/hip_runtime.h>
#define WARP_THREADS 64
#else
#define WARP_THREADS 32                                                // expect: W64-LANE-MATH
#endif

// Per-warp priority queue: each lane holds the head of one sorted run; the
// warp pops the smallest head k times and the owning lane advances its run.
__global__ void warpMerge(const unsigned *runs, int runLen, unsigned *out, int k) {
  const int lane = threadIdx.x % WARP_THREADS, w = threadIdx.x / WARP_THREADS; // expect: W64-LANE-MATH
  const unsigned *run = runs + (size_t)(blockIdx.x * blockDim.x + threadIdx.x) * runLen;
  int pos = 0;
  unsigned top = run[0];
  for (int step = 0; step < k; ++step) {
    unsigned long long best = ((unsigned long long)top << 32) | (unsigned)lane;
    for (int o = WARP_THREADS / 2; o > 0; o >>= 1)                     // expect: W64-SHFL-OFFSET
      best = min(best, __shfl_xor_sync(0xffffffffu, best, o));         // expect: W64-MASK32
    if ((int)(best & 0xffffffffull) == lane) { ++pos; top = pos < runLen ? run[pos] : 0xffffffffu; }
    if (lane == 0) out[(size_t)(blockIdx.x * (blockDim.x / WARP_THREADS) + w) * k + step] = (unsigned)(best >> 32); // expect: W64-WARP-COUNT
  }
}
