// Warp *_sync calls with CUDA's 32-bit full mask: HIP 5.2 gets the legacy
// calls without a mask; for HIP >= 6.2 (warp_masks.cu.expected-hip64) the
// mask is widened to 64 bits, which HIP 6.4's static_assert requires.
#include <cuda_runtime.h>

__global__ void butterfly(int *v) {
  int x = v[threadIdx.x];
  x += __shfl_xor_sync(0xffffffff, x, 1);
  x += __shfl_down_sync(0xffffffff, x, 2);
  unsigned votes = __ballot_sync(0xffffffff, x > 0);
  if (__all_sync(0xffffffff, x != 0))
    v[threadIdx.x] = x + (int)votes;
}
