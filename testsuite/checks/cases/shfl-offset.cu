// W64-SHFL-OFFSET positives: shuffle reductions and scans sized for 32 lanes.
#include <cuda_runtime.h>

#define WARP_SIZE 32

__device__ float reduce_loop(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__device__ float reduce_shift(float v) {
#pragma unroll
  for (int mask = 16; mask >= 1; mask >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, mask));
  return v;
}

__device__ float reduce_named(float v) {
  for (int o = WARP_SIZE / 2; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}

__device__ float scan(float v, int lane) {
  for (int d = 1; d < 32; d *= 2) {
    float n = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d)
      v += n;
  }
  return v;
}

__device__ float unrolled(float v) {
  v += __shfl_down_sync(0xffffffff, v, 16);
  v += __shfl_down_sync(0xffffffff, v, 8);
  v += __shfl_down_sync(0xffffffff, v, 4);
  v += __shfl_down_sync(0xffffffff, v, 2);
  v += __shfl_down_sync(0xffffffff, v, 1);
  return v;
}

__device__ float width32(float v) {
  return __shfl_sync(0xffffffff, v, 0, 32);
}

__global__ void k(float *out) {
  float v = out[threadIdx.x];
  out[threadIdx.x] = reduce_loop(v) + reduce_shift(v) + reduce_named(v) +
                     scan(v, threadIdx.x % warpSize) + unrolled(v) + width32(v);
}
