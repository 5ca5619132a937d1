// Its lane grouping is fixable on its own (shared_header.py).
#include <cuda_runtime.h>
#include "reduce.cuh"
__global__ void sumA(const float *in, float *out) {
  float v = warpSum(in[threadIdx.x]);
  if (threadIdx.x % 32 == 0) atomicAdd(out, v);
  unsigned b = __ballot_sync(0xffffffff, v > 0);
  if (b == 0) out[1] = 0;
}
