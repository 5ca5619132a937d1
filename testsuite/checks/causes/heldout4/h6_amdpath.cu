// Held out, round 4. Cause 6: a project that carries its own AMD path.
#include <cuda_runtime.h>

#if defined(__HIP_PLATFORM_AMD__) || defined(USE_HIP)
#define WAVE 64
typedef unsigned long long lane_mask_t;
#define FULL ((lane_mask_t)-1)
#else
#define WAVE 32                                                      // quiet: W64-LANE-MATH
typedef unsigned lane_mask_t;                                        // quiet: W64-BALLOT-NARROW
#define FULL 0xffffffffu                                             // quiet: W64-MASK32
#endif

// On AMD the mask is 64-bit, and __popc counts only its low 32 lanes.
__global__ void countPositive(const float *x, int *count) {
  lane_mask_t m = __ballot_sync(FULL, x[blockIdx.x * blockDim.x + threadIdx.x] > 0.f);
  if (threadIdx.x % WAVE == 0) atomicAdd(count, __popc(m));          // expect: W64-BALLOT-NARROW // quiet: W64-LANE-MATH
}
