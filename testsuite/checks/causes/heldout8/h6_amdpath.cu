// Held out, round 8. Cause 6: projects that carry their own AMD path.
// Ambiguous calls (labelled as a demanding GPU engineer would expect):
// - The lane-mask type, the full mask, the popcount helper, kWave and the
//   reduction loop from 16 are declared twice, once for
//   `__HIP_PLATFORM_AMD__ || __HIP_PLATFORM_HCC__` with 64 lanes: the CUDA
//   branch is what a HIP compile for AMD drops (quiet at each, and at the
//   ballot and shuffle whose deciding declarations live there).
// - `prop.warpSize != kWave` compares with a kWave that is 64 in the branch
//   the port compiles: judged by that code (quiet).
// - lanesBefore(): its `%lanemask_lt` PTX sits in an `#elif
//   defined(__CUDA_ARCH__)` after the AMD branch, which an AMD compile never
//   reaches (quiet). ptxLane() reads `%laneid` under a bare `#ifdef
//   __CUDA_ARCH__`, which the translation turns into a device-compile test
//   that AMD takes (expect, a token-level finding).
// - SEG_LANES is 64 only under the project macro SEGLIB_USE_HIP, which guards
//   the HIP include: a port built without -DSEGLIB_USE_HIP gets the 32
//   (expect at the definition; its first use is lane math, so LANE-MATH).
// - rowSumWave uses kWave for its lane but steps its columns by a literal 32
//   the project forgot to port (expect).
// Convention pass (round 8): labels were added at every use of the
// project-macro warp constant reported at its definition, with the id the
// check gives at the use (lane math, lane stride, shuffle loop start), since
// uses folded into a definition count at their own lines; the first use is
// labelled like the others (read as also listed as a related location). The
// mask macro and kWave are declared in the branch an AMD compile drops, so
// their uses have no finding and stay unlabelled.
#include <cstdint>
#include <cstdio>

#ifdef SEGLIB_USE_HIP
#include <hip/hip_runtime.h>
#define SEG_LANES 64
#else
#include <cuda_runtime.h>
#define SEG_LANES 32                                                      // expect: W64-LANE-MATH
#endif

#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)
typedef unsigned long long lanemask_t;
#define ALL_LANES 0xffffffffffffffffull
constexpr int kWave = 64;
__device__ __forceinline__ int lanePopc(lanemask_t m) { return __popcll(m); }
#else
typedef unsigned int lanemask_t;
#define ALL_LANES 0xffffffffu                                             // quiet: W64-MASK32
constexpr int kWave = 32;                                                 // quiet: W64-LANE-MATH
__device__ __forceinline__ int lanePopc(lanemask_t m) { return __popc(m); }   // quiet: W64-BALLOT-NARROW
#endif

// Segmented sums, one group of SEG_LANES lanes per segment.
__global__ void segmentSums(const float* __restrict__ vals, float* __restrict__ sums, int segLen, int nSeg) {
  const int lane = threadIdx.x % SEG_LANES;                                // expect: W64-LANE-MATH
  const int seg = (blockIdx.x * blockDim.x + threadIdx.x) / SEG_LANES;     // expect: W64-LANE-MATH
  if (seg >= nSeg) return;
  const float* sv = vals + static_cast<size_t>(seg) * segLen;
  float acc = 0.f;
  for (int j = lane; j < segLen; j += SEG_LANES) acc += sv[j];             // expect: W64-LANE-MATH
  for (int o = SEG_LANES / 2; o > 0; o /= 2) acc += __shfl_down_sync(ALL_LANES, acc, o);   // expect: W64-SHFL-OFFSET
  if (lane == 0) sums[seg] = acc;
}

__device__ __forceinline__ float waveSum(float v) {
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)
  for (int o = 32; o > 0; o >>= 1) v += __shfl_xor(v, o);
#else
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(ALL_LANES, v, o);   // quiet: W64-SHFL-OFFSET
#endif
  return v;
}

__device__ __forceinline__ lanemask_t lanesBefore() {
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)
  return __lanemask_lt();
#elif defined(__CUDA_ARCH__)
  unsigned m;
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(m));                  // quiet: W64-INLINE-PTX
  return m;
#else
  return 0;
#endif
}

__device__ __forceinline__ unsigned ptxLane() {
#ifdef __CUDA_ARCH__
  unsigned id;
  asm("mov.u32 %0, %%laneid;" : "=r"(id));                               // expect: W64-INLINE-PTX
  return id;
#else
  return 0;
#endif
}

// Keep the positive values, in order within each wavefront.
__global__ void compactPositive(const float* __restrict__ in, float* __restrict__ out, int* __restrict__ counter, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % kWave;                                  // quiet: W64-LANE-MATH
  const bool keep = i < n && in[i] > 0.f;
  const lanemask_t votes = __ballot_sync(ALL_LANES, keep);               // quiet: W64-BALLOT-NARROW
  int base = 0;
  if (lane == 0) base = atomicAdd(counter, lanePopc(votes));
  base = __shfl_sync(ALL_LANES, base, 0);                                // quiet: W64-MASK32
  if (keep) out[base + lanePopc(votes & lanesBefore())] = in[i];
}

// Row sums, one wavefront per row.
__global__ void rowSumWave(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
  const int lane = threadIdx.x % kWave;
  const int row = blockIdx.x * (blockDim.x / kWave) + threadIdx.x / kWave;
  if (row >= rows) return;
  const float* xr = x + static_cast<size_t>(row) * cols;
  float s = 0.f;
  for (int c = lane; c < cols; c += 32) s += xr[c];                      // expect: W64-LANE-MATH
  s = waveSum(s);
  if (lane == 0) y[row] = s;
}

// Occupancy probe: count the warps that reach the kernel.
__global__ void countWaves(unsigned* __restrict__ perBlock) {
  if (ptxLane() == 0) atomicAdd(&perBlock[blockIdx.x], 1u);
}

int checkDevice(int dev) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  if (prop.warpSize != kWave) {                                          // quiet: W64-HOST-WARP-SIZE
    std::fprintf(stderr, "built for %d-lane warps, device has %d\n", kWave, prop.warpSize);
    return 1;
  }
  return 0;
}
