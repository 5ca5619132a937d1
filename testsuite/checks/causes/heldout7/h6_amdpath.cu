// Held out, round 7. Cause 6: projects that carry their own AMD path.
// Ambiguous calls (labelled as a demanding GPU engineer would expect):
// - The project's portability block (`#if defined(__HIP_PLATFORM_AMD__)`)
//   gives a 64-lane width, a 64-bit lane-mask type, a 64-bit full mask and a
//   64-bit popcount to the AMD compile. The 32-bit CUDA branch is quiet, and
//   so are the uses that go through those names (PRJ_WAVE, prj_lanemask_t,
//   PRJ_ALL, PRJ_POPC): the port compiles the other branch.
// - laneId(): the %laneid PTX sits in the `#else` of the AMD test, a branch
//   the HIP compile drops (quiet). smId(): PTX under `#ifdef __CUDA_ARCH__`,
//   which HIP compiles too (expect).
// - The scan block is guarded by a project macro (SEGSCAN_ROCM, which also
//   guards the HIP include). Its 32 branch is live unless the port passes
//   -DSEGSCAN_ROCM; the check pages say such a finding is reported and names
//   that flag, so its definition and its use are labelled expect (the use,
//   folded into the definition, counts at its own line).
// - voteRows bypasses the project's names: its `& 31` lane, a ballot kept in
//   a plain `unsigned`, a literal 16 and a literal mask are real findings. Its
//   stride PRJ_WAVE is 64 in the port; the lane is what must change (the
//   stride line is quiet).
#include <cuda_runtime.h>
#include <cstdint>

#if defined(__HIP_PLATFORM_AMD__)
#define PRJ_WAVE 64
typedef uint64_t prj_lanemask_t;
#define PRJ_ALL 0xffffffffffffffffull
#define PRJ_POPC(m) __popcll(m)
#else
#define PRJ_WAVE 32                                                    // quiet: W64-LANE-MATH
typedef uint32_t prj_lanemask_t;                                       // quiet: W64-BALLOT-NARROW
#define PRJ_ALL 0xffffffffu                                            // quiet: W64-MASK32
#define PRJ_POPC(m) __popc(m)
#endif

#ifdef SEGSCAN_ROCM
#include <hip/hip_runtime.h>
#define SEGSCAN_LANES 64
#else
#define SEGSCAN_LANES 32                                               // expect: W64-LANE-MATH
#endif

__device__ __forceinline__ unsigned laneId() {
#if defined(__HIP_PLATFORM_AMD__)
  return __lane_id();
#else
  unsigned r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));                     // quiet: W64-INLINE-PTX
  return r;
#endif
}

__device__ __forceinline__ unsigned smId() {
  unsigned id = 0;
#ifdef __CUDA_ARCH__
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));                      // expect: W64-INLINE-PTX
#endif
  return id;
}

// Count, per block, the items whose score passes a threshold, through the
// project's wave-width abstraction.
__global__ void countPassing(const float* __restrict__ s, float thr, int* __restrict__ perBlock,
                             unsigned* __restrict__ smOf, int n) {
  __shared__ int waveCount[1024 / PRJ_WAVE];                           // quiet: W64-WARP-COUNT
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = laneId();
  const unsigned wave = threadIdx.x / PRJ_WAVE;                        // quiet: W64-LANE-MATH
  const prj_lanemask_t pass = __ballot_sync(PRJ_ALL, i < n && s[i] > thr);   // quiet: W64-MASK32
  if (lane == 0) waveCount[wave] = PRJ_POPC(pass);                     // quiet: W64-BALLOT-NARROW
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
    for (unsigned w = 0; w < (blockDim.x + PRJ_WAVE - 1) / PRJ_WAVE; ++w) total += waveCount[w];   // quiet: W64-WARP-COUNT
    perBlock[blockIdx.x] = total;
    smOf[blockIdx.x] = smId();
  }
}

// Segmented inclusive scan (segments of one warp), written against the
// project-macro width.
__global__ void segScan(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = laneId();
  float v = i < n ? in[i] : 0.f;
  for (int d = 1; d < SEGSCAN_LANES; d <<= 1) {                        // expect: W64-SHFL-OFFSET
    const float up = __shfl_up_sync(PRJ_ALL, v, d);
    if (lane >= static_cast<unsigned>(d)) v += up;
  }
  if (i < n) out[i] = v;
}

// A kernel added later that bypasses the project's names.
__global__ void voteRows(const int* __restrict__ flags, int* __restrict__ rowVotes, int cols) {
  const int lane = threadIdx.x & 31;                                   // expect: W64-LANE-MATH
  const int row = blockIdx.x;
  int mine = 0;
  for (int c = lane; c < cols; c += PRJ_WAVE) mine += flags[row * cols + c] != 0;   // quiet: W64-LANE-MATH
  const unsigned any = __ballot_sync(PRJ_ALL, mine > 0);               // expect: W64-BALLOT-NARROW
  for (int o = 16; o > 0; o >>= 1)                                     // expect: W64-SHFL-OFFSET
    mine += __shfl_down_sync(0xffffffff, mine, o);                     // expect: W64-MASK32
  if (lane == 0) rowVotes[row] = any ? mine : -1;
}
