// Held out, round 2. Cause 6: a project that carries its own AMD path.
#include <cuda_runtime.h>

#if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__)
#define LANES 64
#define FULL_MASK 0xffffffffffffffffull
#else
#define LANES 32
#define FULL_MASK 0xffffffffu
#endif

__global__ void reduceRows(const float *in, float *out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = LANES / 2; o > 0; o >>= 1)
    v += __shfl_down_sync(FULL_MASK, v, o);
  if (threadIdx.x % LANES == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / LANES] = v;
}

#ifdef WITH_ROCM_KERNELS
constexpr int kWarp = 64;
#else
constexpr int kWarp = 32;                                          // expect: W64-LANE-MATH
#endif

__global__ void firstLane(const int *in, int *out) {
  int lane = threadIdx.x % kWarp;                                  // expect: W64-LANE-MATH
  int v = __shfl_sync(0xffffffff, in[threadIdx.x], 0);             // expect: W64-MASK32
  if (lane == 0) out[threadIdx.x / kWarp] = v;                     // expect: W64-LANE-MATH
}
