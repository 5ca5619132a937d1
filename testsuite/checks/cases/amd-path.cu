// Projects that carry their own AMD path: the W64 checks judge the code the
// port compiles. A branch a HIP compile for AMD GPUs decides against (the
// CUDA side of `#if defined(__HIP_PLATFORM_AMD__)`, a wave32 branch) has no
// findings; a branch a project macro removes (USE_ROCM) says which macro
// selects the project's own path.
#include <cuda_runtime.h>

#if defined(__HIP_PLATFORM_AMD__)
#if defined(__AMDGCN_WAVEFRONT_SIZE) && __AMDGCN_WAVEFRONT_SIZE == 32
constexpr int kWarpSize = 32; // wave32 AMD targets: not compiled for DCU
#else
constexpr int kWarpSize = 64;
#endif
#else
constexpr int kWarpSize = 32; // the CUDA side: not compiled by the port
#endif

__global__ void norm(float *x) {
  int lane = threadIdx.x % kWarpSize;
  float v = x[threadIdx.x];
  for (int o = kWarpSize / 2; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o);
  if (lane == 0)
    x[blockIdx.x] = v;
}

#ifdef USE_ROCM
#define WARP_SIZE 64
#else
#define WARP_SIZE 32 // compiled unless the build defines USE_ROCM; says: built with -DUSE_ROCM
#endif

__global__ void count(const float *in, int *out) {
  unsigned b = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.f);
  if (threadIdx.x % WARP_SIZE == 0)
    out[threadIdx.x / WARP_SIZE] = __popc(b);
}

// A mask type and full mask declared per platform: the port compiles the AMD
// branch's 64-bit ones, so neither the variable's type nor the mask is a
// finding; __popc still reads 32 of the mask's 64 bits.
#if defined(__HIP_PLATFORM_AMD__)
typedef unsigned long long lane_mask_t;
#define FULL_LANES ((lane_mask_t)-1)
#else
typedef unsigned lane_mask_t;
#define FULL_LANES 0xffffffffu
#endif

__global__ void positives(const float *in, int *out) {
  lane_mask_t m = __ballot_sync(FULL_LANES, in[threadIdx.x] > 0.f);
  if (threadIdx.x == 0)
    *out = __popc(m);
}
