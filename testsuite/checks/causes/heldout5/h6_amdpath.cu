// Held out, round 5. Cause 6: a project that carries its own AMD path.
// Ambiguous calls: the `#else` branches of `__HIP_PLATFORM_AMD__` and
// `__AMDGCN_WAVEFRONT_SIZE` are never compiled for DCU, so their 32-bit
// definitions and the `%laneid` PTX are quiet, and so are the uses of
// lanemask_t / FULL_LANES / LANE_POPC / kWave, which are 64-bit / 64 there.
// `m == 0xffffffffu` is a real bug on the AMD path (m is 64-bit): expect.
// THREADS_PER_WARP's branch is kept by the port (ENABLE_HIP_BACKEND is a
// project switch the port does not define): its definition and uses expect.
#include <cuda_runtime.h>

#if defined(__HIP_PLATFORM_AMD__)
#include <hip/hip_runtime.h>
typedef unsigned long long lanemask_t;
#define FULL_LANES 0xffffffffffffffffull
#define LANE_POPC(x) __popcll(x)
#else
typedef unsigned int lanemask_t;                                              // quiet: W64-BALLOT-NARROW
#define FULL_LANES 0xffffffffu                                                // quiet: W64-MASK32
#define LANE_POPC(x) __popc(x)                                                // quiet: W64-BALLOT-NARROW
#endif

#ifdef __AMDGCN_WAVEFRONT_SIZE
constexpr int kWave = __AMDGCN_WAVEFRONT_SIZE;
#else
constexpr int kWave = 32;                                                     // quiet: W64-LANE-MATH
#endif

__device__ __forceinline__ int laneId() {
#if defined(__HIP_PLATFORM_AMD__)
  return __lane_id();
#else
  int l;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));                            // quiet: W64-INLINE-PTX
  return l;
#endif
}

// Count pass of a stream compaction: in-warp ranks, per-warp counts, and the
// number of warps whose lanes were all kept.
__global__ void countKept(const float *in, int *rank, int *warpCount, int *denseWarps, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = laneId();
  const bool keep = i < n && in[i] > 0.f;
  const lanemask_t m = __ballot_sync(FULL_LANES, keep);                       // quiet: W64-MASK32, W64-BALLOT-NARROW
  if (i < n) rank[i] = LANE_POPC(m & ((lanemask_t(1) << lane) - 1));          // quiet: W64-BALLOT-NARROW
  if (lane == 0) warpCount[i / kWave] = LANE_POPC(m);                         // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
  if (lane == 0 && m == 0xffffffffu) atomicAdd(denseWarps, 1);                // expect: W64-BALLOT-NARROW
}

#ifndef ENABLE_HIP_BACKEND
#define THREADS_PER_WARP 32                                                   // expect: W64-LANE-MATH
#else
#include <hip/hip_runtime.h>
#define THREADS_PER_WARP 64
#endif

// Segment normalisation: one warp per segment, the segment max broadcast
// from lane 0 and subtracted.
__global__ void segmentShift(float *x, int segLen) {
  const int lane = threadIdx.x % THREADS_PER_WARP, seg = (blockIdx.x * blockDim.x + threadIdx.x) / THREADS_PER_WARP; // expect: W64-LANE-MATH
  float *s = x + (size_t)seg * segLen;
  float m = -3.4e38f;
  for (int j = lane; j < segLen; j += THREADS_PER_WARP) m = fmaxf(m, s[j]);   // expect: W64-LANE-MATH
  for (int o = THREADS_PER_WARP / 2; o > 0; o >>= 1) m = fmaxf(m, __shfl_down_sync(0xffffffffu, m, o)); // expect: W64-SHFL-OFFSET, W64-MASK32
  m = __shfl_sync(0xffffffffu, m, 0);                                         // expect: W64-MASK32
  for (int j = lane; j < segLen; j += THREADS_PER_WARP) s[j] -= m;            // expect: W64-LANE-MATH
}
