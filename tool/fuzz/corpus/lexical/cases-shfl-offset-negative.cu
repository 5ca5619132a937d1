// W64-SHFL-OFFSET negatives.
#include <cuda_runtime.h>

#define TILE 32
#define GROUP 16

__device__ float portable(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__device__ float scan_portable(float v, int lane) {
  for (int d = 1; d < warpSize; d <<= 1) {
    float n = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d)
      v += n;
  }
  return v;
}

__device__ float subgroup(float v) {
  // deliberate 16-lane groups, named as such
  for (int o = GROUP / 2; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o, GROUP);
  return v;
}

__device__ float full64(float v) {
  v += __shfl_down_sync(0xffffffff, v, 32);
  v += __shfl_down_sync(0xffffffff, v, 16);
  v += __shfl_down_sync(0xffffffff, v, 8);
  return v;
}

__global__ void no_shuffle(float *out, const float *in) {
  __shared__ float s[2 * TILE];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  for (int stride = 16; stride > 0; stride /= 2) {     // a shared-memory tree, not shuffles
    if (threadIdx.x < stride)
      s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  out[blockIdx.x] = s[0] + portable(in[0]) + scan_portable(in[0], 0) + subgroup(in[0]) +
                    full64(in[0]);
}
