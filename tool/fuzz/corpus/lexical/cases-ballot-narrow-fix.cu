// W64-BALLOT-NARROW with --fix-wave64: a ballot kept in a local variable that
// is only counted and scanned is widened, and its counts use the 64-bit forms.
#include <cuda_runtime.h>

__global__ void leaders(const int *keys, int *out) {
  unsigned mask = __ballot_sync(0xffffffff, keys[threadIdx.x] > 0);
  int leader = __ffs(mask) - 1;
  int count = __popc(mask);
  if (mask != 0 && (threadIdx.x % warpSize) == leader)
    out[blockIdx.x] = count;
}
