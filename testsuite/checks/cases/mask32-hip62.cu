// HIP >= 6.2 keeps the *_sync functions but wants 64-bit masks: a full mask
// written in the call is widened; one held by a macro or variable is
// reported, and widened at its definition with --fix-wave64.
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff
__device__ const unsigned kAll = 0xffffffffu;

__global__ void k(const float *in, float *out) {
  float v = in[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 1);
  v += __shfl_xor_sync(FULL_MASK, v, 2);
  unsigned long long b = __ballot_sync(kAll, v > 0.f);
  v += __shfl_up_sync(__activemask(), v, 1);
  v += __shfl_sync(0xffffffffffffffffull, v, 0);
  __syncwarp();
  out[threadIdx.x] = v + b;
}
