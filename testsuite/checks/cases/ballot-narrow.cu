// W64-BALLOT-NARROW positives: ballot results squeezed into 32 bits.
#include <cuda_runtime.h>

__device__ unsigned vote(bool p) {
  return __ballot_sync(0xffffffff, p);            // returned as 32-bit
}

__global__ void counts(const float *in, int *out) {
  int lane = threadIdx.x % warpSize;
  bool p = in[threadIdx.x] > 0.f;
  unsigned int mask = __ballot_sync(0xffffffff, p);
  int n = __popc(mask);
  int first = __ffs(mask) - 1;
  int last = 31 - __clz(mask);
  int below = __popc(__ballot_sync(0xffffffff, p) & ((1u << lane) - 1));
  unsigned active = __activemask();
  unsigned m2;
  m2 = __ballot_sync(0xffffffff, !p);
  bool everyone = mask == 0xffffffff;
  bool mine = (mask & (1u << lane)) != 0;
  out[threadIdx.x] = n + first + last + below + (int)active + (int)m2 + everyone + mine +
                     (int)vote(p);
}
