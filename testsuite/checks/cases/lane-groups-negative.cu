// Explicit 32-lane groups: every shuffle passes width 32 and nothing reads the
// whole warp, so a 64-lane wavefront runs the code as two independent groups.
// Lane and group math by 32, per-group slots and reductions from offset 16 are
// right on DCU: W64-LANE-MATH, W64-WARP-COUNT and the loop bounds stay quiet
// (turning them into warpSize would break the reduction). The width 32 itself
// is reported by W64-SHFL-OFFSET, the one place to decide the group size.
#include <cuda_runtime.h>

__device__ float groupSum(float v) {
  for (int o = 16; o > 0; o >>= 1)      // quiet: covers the 32-lane group
    v += __shfl_xor_sync(0xffffffff, v, o, 32);
  return v;
}

__global__ void blockSum(const float *in, float *out) {
  __shared__ float partial[32];         // quiet: one slot per group
  int lane = threadIdx.x & 31;          // quiet: lane in the group
  int group = threadIdx.x >> 5;         // quiet: group id
  float v = groupSum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (lane == 0)
    partial[group] = v;
  __syncthreads();
  if (group == 0) {
    v = lane < blockDim.x / 32 ? partial[lane] : 0.f;  // quiet: group count
    v = groupSum(v);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}
