// Its half-warp test (lane < 16) has no safe fix (shared_header.py).
#include <cuda_runtime.h>
#include "reduce.cuh"
__global__ void sumB(const float *in, float *out) {
  int lane = threadIdx.x & 31;
  float v = warpSum(in[threadIdx.x]);
  if (lane < 16) v *= 2.f;
  if (lane == 0) out[threadIdx.x / 32] = v;
  unsigned b = __ballot_sync(0xffffffff, v > 0);
  if (b == 0) out[1] = 0;
}
