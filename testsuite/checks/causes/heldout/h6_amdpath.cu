// Held out. A project with its own AMD path.
#include <cuda_runtime.h>

#ifdef WITH_HIP
#define WARP_SZ 64
#else
#define WARP_SZ 32                                              // expect: W64-LANE-MATH
#endif

__global__ void sumRows(const float *a, float *o) {
  float v = a[threadIdx.x];
  for (int s = WARP_SZ / 2; s > 0; s /= 2) v += __shfl_down_sync(0xffffffff, v, s); // expect: W64-MASK32 // note: W64-SHFL-OFFSET
  if (threadIdx.x % WARP_SZ == 0) o[threadIdx.x / WARP_SZ] = v; // note: W64-LANE-MATH
}
