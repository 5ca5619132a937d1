// W64-BALLOT-NARROW negatives.
#include <cuda_runtime.h>

__global__ void wide(const float *in, int *out) {
  int lane = threadIdx.x % warpSize;
  bool p = in[threadIdx.x] > 0.f;
  unsigned long long mask = __ballot_sync(0xffffffff, p);  // already 64-bit
  auto m = __ballot_sync(0xffffffff, p);                   // becomes 64-bit with the HIP type
  int n = __popcll(mask);
  int bit = (mask >> lane) & 1;                            // one bit
  bool everyone = mask == ~0ull;
  unsigned bits = __popc(0xf0u);                            // not a lane mask
  int c = __popc((unsigned)lane);
  out[threadIdx.x] = n + bit + everyone + (int)bits + c + (int)m;
}
