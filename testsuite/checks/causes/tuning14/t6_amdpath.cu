// Tuning round 14. Cause 6: a project that carries its own AMD path.
// Domain: int4 (q4_0) x int8 (q8_1) GEMV with dp4a, llama.cpp-like: a vendor
// switch behind the project macro GGQ_USE_HIP, per-platform warp constants,
// lane-mask types and helpers behind __HIP_PLATFORM_AMD__, a split-K variant,
// a zero-block bitmask and a greedy-sampling argmax added later by another
// contributor who used the vendor switch's GGQ_TOPK_LANES.
// Labels were written from docs/checks only; the tool was never run on this file.
// Ambiguous calls:
// - Everything in the CUDA (#else) branch of __HIP_PLATFORM_AMD__ is dropped by
//   the port: GGQ_WARP_SIZE, GGQ_FULL_MASK, the 32-bit ggq_lane_mask_t, the
//   __popc of ggq_popc, kRowLanes and the %laneid PTX are quiet, and so are their
//   uses (`threadIdx.x % kRowLanes`, `/ kRowLanes`, the GGQ_WARP_SIZE / 2 loop,
//   the ballot into ggq_lane_mask_t, `prop.warpSize != kRowLanes`,
//   `kRowLanes * rowsPerBlock` threads, `part[kMaxThreads / kRowLanes]`).
// - kRowLanes is the wavefront's width for the port, so the literal stride
//   `ib += 32` over `threadIdx.x % kRowLanes` is a finding.
// - GGQ_TOPK_LANES sits in the CUDA branch of the project macro GGQ_USE_HIP
//   (which guards the HIP include): reported (the finding names the -D flag),
//   with its uses in argmax (lane math first, so LANE-MATH at the definition).
// - The dp4a PTX is under `#if __CUDA_ARCH__ >= 610` (a value test, false on
//   AMD) inside the CUDA branch: quiet. The %smid PTX under `#ifdef
//   __CUDA_ARCH__` (a device-pass branch) is an error; the %lanemask_lt PTX
//   under GGQ_USE_PTX (inactive, lane-level) a token-level warning.
#include <cfloat>
#include <cstdint>
#include <cstdio>

#if defined(GGQ_USE_HIP)
#include <hip/hip_runtime.h>
#define GGQ_TOPK_LANES 64
#else
#include <cuda_runtime.h>
#define GGQ_TOPK_LANES 32                                                           // expect: W64-LANE-MATH
#endif

#if defined(__HIP_PLATFORM_AMD__)
#define GGQ_WARP_SIZE 64
typedef uint64_t ggq_lane_mask_t;
#define GGQ_FULL_MASK 0xffffffffffffffffull
#define ggq_popc(x) __popcll(x)
constexpr int kRowLanes = 64;
#else
#define GGQ_WARP_SIZE 32                                                            // quiet: W64-LANE-MATH
typedef uint32_t ggq_lane_mask_t;                                                   // quiet: W64-BALLOT-NARROW
#define GGQ_FULL_MASK 0xffffffffu                                                   // quiet: W64-MASK32
#define ggq_popc(x) __popc(x)                                                       // quiet: W64-BALLOT-NARROW
constexpr int kRowLanes = 32;                                                       // quiet: W64-LANE-MATH
#endif

constexpr int kMaxThreads = 1024;

#define QK4_0 32
#define QK8_1 32
struct block_q4_0 { float d; uint8_t qs[QK4_0 / 2]; };
struct block_q8_1 { float d, s; int8_t qs[QK8_1]; };

__device__ __forceinline__ int ggq_dp4a(int a, int b, int c) {
#if defined(__HIP_PLATFORM_AMD__)
  return __builtin_amdgcn_sdot4(a, b, c, false);
#else
#if __CUDA_ARCH__ >= 610
  int r;
  asm("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));          // quiet: W64-INLINE-PTX
  return r;
#else
  const int8_t* a8 = reinterpret_cast<const int8_t*>(&a);
  const int8_t* b8 = reinterpret_cast<const int8_t*>(&b);
  return c + a8[0] * b8[0] + a8[1] * b8[1] + a8[2] * b8[2] + a8[3] * b8[3];
#endif
#endif
}

__device__ __forceinline__ int ggq_lane_id() {
#if defined(__HIP_PLATFORM_AMD__)
  return __lane_id();
#else
  unsigned r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));                                  // quiet: W64-INLINE-PTX
  return static_cast<int>(r);
#endif
}

__device__ __forceinline__ ggq_lane_mask_t ggq_lanes_below() {
#ifdef GGQ_USE_PTX
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));                                      // expect: W64-INLINE-PTX
  return m;
#else
  return (static_cast<ggq_lane_mask_t>(1) << ggq_lane_id()) - 1;                    // quiet: W64-BALLOT-NARROW
#endif
}

__device__ __forceinline__ unsigned ggq_smid() {
  unsigned id = 0;
#ifdef __CUDA_ARCH__
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));                                   // expect: W64-INLINE-PTX
#endif
  return id;
}

__device__ __forceinline__ float ggq_wave_sum(float v) {
  for (int o = GGQ_WARP_SIZE / 2; o > 0; o >>= 1) v += __shfl_xor_sync(GGQ_FULL_MASK, v, o);   // quiet: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

// Dot product of q4_0 block ib of row xr with q8_1 block ib of y (8 ints of 4 nibbles each).
__device__ __forceinline__ float vec_dot_q4_0_q8_1(const block_q4_0& x, const block_q8_1& y) {
  const int* q8 = reinterpret_cast<const int*>(y.qs);
  int sumi = 0;
#pragma unroll
  for (int k = 0; k < QK4_0 / 8; ++k) {
    const int q4 = *reinterpret_cast<const int*>(x.qs + 4 * k);
    sumi = ggq_dp4a(q4 & 0x0F0F0F0F, q8[k], sumi);
    sumi = ggq_dp4a((q4 >> 4) & 0x0F0F0F0F, q8[k + QK4_0 / 8], sumi);
  }
  return x.d * (y.d * sumi - 8.f * y.s);
}

// kRowsPerBlock rows per block, one wavefront (kRowLanes threads) per row.
template <int kRowsPerBlock>
__global__ void mul_mat_vec_q4_0_q8_1(const block_q4_0* __restrict__ vx, const block_q8_1* __restrict__ vy,
                                      float* __restrict__ dst, int ncols, int nrows, unsigned* __restrict__ dbg) {
  const int row = blockIdx.x * kRowsPerBlock + threadIdx.x / kRowLanes;            // quiet: W64-LANE-MATH
  const int lane = threadIdx.x % kRowLanes;                                         // quiet: W64-LANE-MATH
  if (row >= nrows) return;
  const int nb = ncols / QK4_0;
  const block_q4_0* xr = vx + static_cast<int64_t>(row) * nb;
  float sumf = 0.f;
  for (int ib = lane; ib < nb; ib += 32) sumf += vec_dot_q4_0_q8_1(xr[ib], vy[ib]); // expect: W64-LANE-MATH
  sumf = ggq_wave_sum(sumf);
  if (lane == 0) {
    dst[row] = sumf;
    if (dbg) dbg[row] = ggq_smid();
  }
}

// Split-K for very long rows: the whole block on one row, one partial per wavefront.
__global__ void mul_mat_vec_q4_0_splitk(const block_q4_0* __restrict__ vx, const block_q8_1* __restrict__ vy,
                                        float* __restrict__ dst, int ncols) {
  __shared__ float part[kMaxThreads / kRowLanes];                                   // quiet: W64-WARP-COUNT
  const int nb = ncols / QK4_0;
  const block_q4_0* xr = vx + static_cast<int64_t>(blockIdx.x) * nb;
  float sumf = 0.f;
  for (int ib = threadIdx.x; ib < nb; ib += blockDim.x) sumf += vec_dot_q4_0_q8_1(xr[ib], vy[ib]);
  sumf = ggq_wave_sum(sumf);
  if (ggq_lane_id() == 0) part[threadIdx.x / kRowLanes] = sumf;                     // quiet: W64-LANE-MATH
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int w = 0; w < blockDim.x / kRowLanes; ++w) s += part[w];                  // quiet: W64-WARP-COUNT
    dst[blockIdx.x] = s;
  }
}

// Bitmask of the q4_0 blocks whose scale is zero (skipped by the sparse path), one
// word per wavefront, and each zero block's rank among the zero blocks of its wavefront.
__global__ void zero_block_mask(const block_q4_0* __restrict__ vx, int nb, ggq_lane_mask_t* __restrict__ zmask,
                                int* __restrict__ zrank) {
  const int lane = ggq_lane_id();
  const int w = (blockIdx.x * blockDim.x + threadIdx.x) / kRowLanes;                // quiet: W64-LANE-MATH
  const int ib = w * kRowLanes + lane;                                              // quiet: W64-LANE-MATH
  const bool z = ib < nb && vx[ib].d == 0.f;
  const ggq_lane_mask_t m = __ballot_sync(GGQ_FULL_MASK, z);                        // quiet: W64-BALLOT-NARROW, W64-MASK32
  if (lane == 0) zmask[w] = m;
  if (z) zrank[ib] = ggq_popc(m & ggq_lanes_below());                               // quiet: W64-BALLOT-NARROW
}

__device__ void argmax_reduce(float& maxval, int& argmax);

// Greedy sampling: argmax of each row of logits, one block per row.
__global__ void argmax_f32(const float* __restrict__ x, int32_t* __restrict__ dst, int ncols) {
  const int lane_id = threadIdx.x % GGQ_TOPK_LANES, warp_id = threadIdx.x / GGQ_TOPK_LANES;   // expect: W64-LANE-MATH
  __shared__ float smax[kMaxThreads / GGQ_TOPK_LANES];                              // expect: W64-WARP-COUNT
  __shared__ int sarg[kMaxThreads / GGQ_TOPK_LANES];                                // expect: W64-WARP-COUNT
  const float* rowx = x + static_cast<int64_t>(blockIdx.x) * ncols;
  float maxval = -FLT_MAX;
  int argmax = -1;
  for (int col = threadIdx.x; col < ncols; col += blockDim.x)
    if (rowx[col] > maxval) { maxval = rowx[col]; argmax = col; }
  argmax_reduce(maxval, argmax);
  if (lane_id == 0) { smax[warp_id] = maxval; sarg[warp_id] = argmax; }
  __syncthreads();
  if (warp_id == 0) {
    const int n_warps = blockDim.x / GGQ_TOPK_LANES;                                // expect: W64-WARP-COUNT
    maxval = lane_id < n_warps ? smax[lane_id] : -FLT_MAX;
    argmax = lane_id < n_warps ? sarg[lane_id] : -1;
    argmax_reduce(maxval, argmax);
    if (lane_id == 0) dst[blockIdx.x] = argmax;
  }
}

__device__ void argmax_reduce(float& maxval, int& argmax) {
  for (int offset = GGQ_TOPK_LANES / 2; offset > 0; offset >>= 1) {                 // expect: W64-SHFL-OFFSET
    const float val = __shfl_xor_sync(0xffffffffu, maxval, offset);                 // expect: W64-MASK32
    const int col = __shfl_xor_sync(0xffffffffu, argmax, offset);                   // expect: W64-MASK32
    if (val > maxval || (val == maxval && col < argmax)) { maxval = val; argmax = col; }
  }
}

int ggq_mul_mat_vec(const block_q4_0* dx, const block_q8_1* dy, float* ddst, const float* dlogits, int32_t* dtok,
                    int ncols, int nrows, int nvocab, int dev, cudaStream_t s) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  if (prop.warpSize != kRowLanes) {                                                 // quiet: W64-HOST-WARP-SIZE
    fprintf(stderr, "ggq: built for %d-lane warps, device has %d\n", kRowLanes, prop.warpSize);
    return 1;
  }
  const bool narrow = prop.warpSize == 32;                                          // expect: W64-HOST-WARP-SIZE
  const int rowsPerBlock = narrow ? 4 : 2;
  const int threads = kRowLanes * rowsPerBlock;                                     // quiet: W64-BLOCK-SIZE
  const int blocks = (nrows + rowsPerBlock - 1) / rowsPerBlock;
  if (ncols > 64 * 1024) mul_mat_vec_q4_0_splitk<<<nrows, 1024, 0, s>>>(dx, dy, ddst, ncols);
  else if (rowsPerBlock == 4) mul_mat_vec_q4_0_q8_1<4><<<blocks, threads, 0, s>>>(dx, dy, ddst, ncols, nrows, nullptr);
  else mul_mat_vec_q4_0_q8_1<2><<<blocks, kRowLanes * 2, 0, s>>>(dx, dy, ddst, ncols, nrows, nullptr);   // quiet: W64-BLOCK-SIZE
  argmax_f32<<<1, 32 * 3, 0, s>>>(dlogits, dtok, nvocab);                           // expect: W64-BLOCK-SIZE
  return 0;
}
