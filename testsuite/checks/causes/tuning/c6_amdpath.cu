// Projects that carry their own AMD path: the wave32 branch is not compiled.
#include <cuda_runtime.h>

#if defined(__HIP_PLATFORM_AMD__) || defined(USE_ROCM)
#if defined(__AMDGCN_WAVEFRONT_SIZE) && __AMDGCN_WAVEFRONT_SIZE == 32
constexpr int kWarpSize = 32;
#else
constexpr int kWarpSize = 64;
#endif
#else
constexpr int kWarpSize = 32;                                  // quiet: W64-LANE-MATH
#endif

__global__ void norm(float *x, int n) {
  int lane = threadIdx.x % kWarpSize;
  float v = x[threadIdx.x];
  for (int o = kWarpSize / 2; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o);                    // expect: W64-MASK32
  if (lane == 0) x[blockIdx.x] = v;
}
