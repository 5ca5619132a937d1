// Tuning round 9. Cause 6: projects that carry their own AMD path.
// A decode-attention file vendored from a project that builds for ROCm behind
// its own macro (USE_ROCM guards the HIP include) and also keeps per-platform
// lane types under __HIP_PLATFORM_AMD__; a few kernels were written later
// without the AMD branch.
// Ambiguous calls and why they are labelled as they are:
// - The `#else` (CUDA) side of `#if defined(__HIP_PLATFORM_AMD__)` is dropped
//   by a HIP compile for AMD GPUs: kSubLanes = 32, the 32-bit
//   `lane_bits_t`, the 32-bit ALL_LANE_BITS, the `__popc` of popLanes, the
//   `%laneid` PTX of laneIndex, and the reduction loop from 16 in
//   subgroupMax are quiet, and so are the uses that fold into them
//   (`% kSubLanes`, a ballot kept in a `lane_bits_t`, `lane_bits_t(1) <<
//   lane`, the launch `kHostLanes * 3`, `prop.warpSize != kHostLanes`).
// - ATTN_GROUP = 32 sits in the `#else` of the project macro USE_ROCM: the
//   port compiles that branch unless -DUSE_ROCM is passed, so it is reported
//   (with the flag named), and its uses with it. Its first use is lane math
//   (definition labelled LANE-MATH). The host test `prop.warpSize != 32`
//   under `#ifndef USE_ROCM` is reported the same way.
// - The ballot in tokenMask is stored in a plain `unsigned`, not in the
//   project's lane_bits_t: BALLOT-NARROW (its mask ALL_LANE_BITS is quiet).
// - `#if defined(__CUDA_ARCH__)` is a device-pass branch the AMD compile
//   takes after translation: its PTX is an error (expect INLINE-PTX); the
//   PTX under `#if __CUDA_ARCH__ >= 800` (a value test, false on AMD) and
//   under `#elif defined(__CUDA_ARCH__)` after the AMD test is quiet.
// - `__shared__ float red[32]` indexed by `threadIdx.x / kSubLanes` is per-
//   wavefront storage counted by the AMD-path constant (quiet).
#ifdef USE_ROCM
#include <hip/hip_runtime.h>
#else
#include <cuda_runtime.h>
#endif
#include <cstdint>
#include <cstdio>
#include <cmath>

#ifdef USE_ROCM
#define ATTN_GROUP 64
#else
#define ATTN_GROUP 32                                                         // expect: W64-LANE-MATH
#endif

#if defined(__HIP_PLATFORM_AMD__)
constexpr int kSubLanes = 64;
typedef uint64_t lane_bits_t;
#define ALL_LANE_BITS 0xffffffffffffffffull
__device__ __forceinline__ int popLanes(lane_bits_t b) { return __popcll(b); }
static constexpr int kHostLanes = 64;
#else
constexpr int kSubLanes = 32;                                                 // quiet: W64-LANE-MATH
typedef uint32_t lane_bits_t;                                                 // quiet: W64-BALLOT-NARROW
#define ALL_LANE_BITS 0xffffffffu                                             // quiet: W64-MASK32
__device__ __forceinline__ int popLanes(lane_bits_t b) { return __popc(b); }  // quiet: W64-BALLOT-NARROW
static constexpr int kHostLanes = 32;                                         // quiet: W64-LANE-MATH
#endif

__device__ __forceinline__ unsigned laneIndex() {
#if defined(__HIP_PLATFORM_AMD__)
  return __lane_id();
#else
  unsigned r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));                          // quiet: W64-INLINE-PTX
  return r;
#endif
}

__device__ __forceinline__ float subgroupMax(float v) {
#if defined(__HIP_PLATFORM_AMD__)
  for (int o = 32; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor(v, o));
#else
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));   // quiet: W64-SHFL-OFFSET, W64-MASK32
#endif
  return v;
}

__device__ __forceinline__ float fastExp2(float x) {
  float y;
#if __CUDA_ARCH__ >= 800
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));                      // quiet: W64-INLINE-PTX
#else
  y = exp2f(x);
#endif
  return y;
}

__device__ __forceinline__ unsigned lanesBelow() {
  unsigned m = 0;
#if defined(__HIP_PLATFORM_AMD__)
  m = static_cast<unsigned>(__lanemask_lt());
#elif defined(__CUDA_ARCH__)
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));                               // quiet: W64-INLINE-PTX
#endif
  return m;
}

// Paged decode: each ATTN_GROUP-thread group scores one cached token.
__global__ void decodeScores(const float* __restrict__ q, const float* __restrict__ kc,
                             float* __restrict__ logits, int tokens, int headDim, float scale) {
  const int lane = threadIdx.x % ATTN_GROUP;                                  // expect: W64-LANE-MATH
  const int tok = blockIdx.x * (blockDim.x / ATTN_GROUP) + threadIdx.x / ATTN_GROUP;   // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (tok >= tokens) return;
  const float* kp = kc + static_cast<size_t>(tok) * headDim;
  float dot = 0.f;
  for (int d = lane; d < headDim; d += ATTN_GROUP) dot += q[d] * kp[d];      // expect: W64-LANE-MATH
  for (int o = ATTN_GROUP / 2; o > 0; o >>= 1) dot += __shfl_down_sync(ALL_LANE_BITS, dot, o);   // expect: W64-SHFL-OFFSET // quiet: W64-MASK32
  if (lane == 0) logits[tok] = fastExp2(dot * scale);
}

// Per-wavefront max of the logits, through the project's lane helpers.
__global__ void blockMax(const float* __restrict__ logits, float* __restrict__ out, int n) {
  __shared__ float red[32];                                                   // quiet: W64-WARP-COUNT
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % kSubLanes;                                   // quiet: W64-LANE-MATH
  const int wave = threadIdx.x / kSubLanes;                                   // quiet: W64-LANE-MATH
  float v = subgroupMax(i < n ? logits[i] : -INFINITY);
  if (lane == 0) red[wave] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float m = red[0];
    for (int w = 1; w < static_cast<int>(blockDim.x) / kSubLanes; ++w) m = fmaxf(m, red[w]);   // quiet: W64-WARP-COUNT
    out[blockIdx.x] = m;
  }
}

// Rank of each kept token among the kept tokens of its wavefront.
__global__ void keptRanks(const float* __restrict__ p, int* __restrict__ rank, float thr, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool keep = i < n && p[i] >= thr;
  const lane_bits_t kept = __ballot_sync(ALL_LANE_BITS, keep);                // quiet: W64-BALLOT-NARROW, W64-MASK32
  const unsigned lane = laneIndex();
  if (keep) rank[i] = popLanes(kept & ((lane_bits_t(1) << lane) - 1));        // quiet: W64-BALLOT-NARROW
}

// Written later, without the project's lane types.
__global__ void tokenMask(const int* __restrict__ ids, uint32_t* __restrict__ words, int banned, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned hit = __ballot_sync(ALL_LANE_BITS, i < n && ids[i] == banned);   // expect: W64-BALLOT-NARROW // quiet: W64-MASK32
  if ((threadIdx.x & 31) == 0 && i < n) words[i >> 5] = hit;                  // expect: W64-LANE-MATH
}

// Debug helper: which lanes are below this one (device-pass PTX).
__device__ __forceinline__ unsigned debugLanesBelow() {
  unsigned m = 0;
#if defined(__CUDA_ARCH__)
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));                               // expect: W64-INLINE-PTX
#endif
  return m;
}

__global__ void debugDump(unsigned* __restrict__ out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = debugLanesBelow() ^ lanesBelow();
}

int launchDecode(const float* q, const float* kc, float* logits, float* maxes, int tokens,
                 int headDim, int dev, cudaStream_t s) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  if (prop.warpSize != kHostLanes) return -1;                                 // quiet: W64-HOST-WARP-SIZE
#ifndef USE_ROCM
  if (prop.warpSize != 32) { fprintf(stderr, "decode kernels need 32-lane warps\n"); return -2; }   // expect: W64-HOST-WARP-SIZE
#endif
  decodeScores<<<(tokens + 7) / 8, 256, 0, s>>>(q, kc, logits, tokens, headDim, 0.125f);
  blockMax<<<(tokens + kHostLanes * 3 - 1) / (kHostLanes * 3), kHostLanes * 3, 0, s>>>(logits, maxes, tokens);   // quiet: W64-BLOCK-SIZE
  return 0;
}
