// Held out, round 3. Cause 6: a project that carries its own AMD path.
#include <cuda_runtime.h>

#if defined(USE_ROCM)
#include <hip/hip_runtime.h>
static constexpr int kWarp = 64;
#else
static constexpr int kWarp = 32;                                   // expect: W64-LANE-MATH
#endif

#ifdef __HIP_PLATFORM_AMD__
#define SHFL_DOWN(v, o) __shfl_down(v, o)
#else
#define SHFL_DOWN(v, o) __shfl_down_sync(0xffffffffu, v, o)
#endif

__global__ void blockReduce(const float *in, float *out) {
  __shared__ float warpSums[1024 / kWarp];                          // expect: W64-WARP-COUNT
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = kWarp / 2; o > 0; o /= 2) v += SHFL_DOWN(v, o);     // expect: W64-SHFL-OFFSET // quiet: W64-MASK32
  int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;      // expect: W64-LANE-MATH
  if (lane == 0) warpSums[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int w = 0; w < blockDim.x / kWarp; ++w) s += warpSums[w];  // expect: W64-WARP-COUNT
    out[blockIdx.x] = s;
  }
}
