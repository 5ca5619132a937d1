// W64-LANE-MATH with --fix-wave64: literal 32s used only as the lane count
// become warpSize; where the code around relies on 32 lanes, the finding
// only suggests the change.
#include <cuda_runtime.h>

#define WARP_SIZE 32

__global__ void fixable(float *out) { __syncwarp(); // warp-level work: its 32s count lanes
  __shared__ float partial[32];
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  int first = warp * 32;
  int warp2 = threadIdx.x >> 5;
  if (lane == 0)
    partial[warp] = out[threadIdx.x];
  __syncthreads();
  if (warp == 0)
    out[first + lane] = partial[lane];
  if ((threadIdx.x & 31) == 31)
    out[warp2] = 0.f;
}

__global__ void not_fixable(float *out) { __syncwarp(); // warp-level work: its 32s count lanes
  __shared__ float buf[32];
  int lane = threadIdx.x % 32;      // indexes a 32-slot array: lanes 32-63 would overflow it
  buf[lane] = out[threadIdx.x];
  int half = threadIdx.x & 31;      // compared with 16: half-warp logic
  if (half < 16)
    out[threadIdx.x] = buf[31 - lane];
  unsigned bit = 1u << (threadIdx.x % 32);  // a 32-bit lane bit
  out[0] = bit;
  int named = threadIdx.x % WARP_SIZE;      // a macro: change its definition instead
  out[1] = named;
}
