// --fix-wave64 never rewrites a 32 in code that does no warp-level work: no
// warp call and no warpSize in the function or the functions it calls.
// There a 32 may index data, and warpSize would change the program.
#include <cuda_runtime.h>

// HeCBench match: rows of 32 float4 in shared memory, addressed as
// (row << 5) + (column & 31). Not lane math: no finding, no edit.
__global__ void rowsOf32(const float4 *in, float *out, int n) {
  __shared__ float4 rows[8 * 32];
  int ix = threadIdx.x % 8;
  for (int d = 0; d < 32; ++d)
    rows[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  float s = 0.f;
  for (int d = 0; d < 32; ++d) {
    float4 v = rows[(ix << 5) + ((d + ix) & 31)];
    s += v.x + v.y + v.z + v.w;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// Warp-synchronous code without warp calls: the lane math is a note (the same
// results on 64 lanes), nothing around it shows lanes at work: no fix.
__global__ void legacyWarpSum(const float *in, float *out) {
  __shared__ float slots[8];
  int lane = threadIdx.x & 31;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (lane == 0)
    slots[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = slots[0] + slots[1];
}
