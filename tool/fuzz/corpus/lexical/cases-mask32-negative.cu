// W64-MASK32 negatives: 64-bit full masks and __activemask() are fine for a
// 64-lane wavefront; they are dropped for HIP 5.2 without a finding.
#include <cuda_runtime.h>

#define FULL64 0xffffffffffffffffull

__global__ void k(const float *in, float *out) {
  float v = in[threadIdx.x];
  const unsigned long long all = ~0ull;
  unsigned long long active = __activemask();
  v += __shfl_down_sync(0xffffffffffffffffull, v, 1);
  v += __shfl_xor_sync(FULL64, v, 2);
  v += __shfl_up_sync(all, v, 1);
  v += __shfl_sync(__activemask(), v, 0);
  v += __shfl_sync(active, v, 1);
  out[threadIdx.x] = v;
}
