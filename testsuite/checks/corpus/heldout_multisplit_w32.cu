// Radix multisplit with per-bit ballots (held-out batch).
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned get_lane() { return threadIdx.x % 32; }  // expect: W64-LANE-MATH

// rank of this key among the warp's keys with the same digit
__device__ int warp_digit_rank(unsigned key, int shift, int bits, unsigned *digit_mask_out) {
  unsigned lane = threadIdx.x & 31;  // expect: W64-LANE-MATH
  unsigned same = 0xffffffffu;
  for (int b = 0; b < bits; ++b) {
    unsigned vote = __ballot_sync(0xffffffff, (key >> (shift + b)) & 1);  // expect: W64-BALLOT-NARROW, W64-MASK32
    same &= ((key >> (shift + b)) & 1) ? vote : ~vote;
  }
  *digit_mask_out = same;
  unsigned lower = same & ((1u << lane) - 1);  // expect: W64-BALLOT-NARROW
  return __popc(lower);  // expect: W64-BALLOT-NARROW
}

__global__ void multisplit(const unsigned *keys, unsigned *out, int *counts, int n) {
  __shared__ int warp_counts[32][16];  // expect: W64-WARP-COUNT
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int warp = threadIdx.x / 32;  // expect: W64-LANE-MATH
  unsigned key = i < n ? keys[i] : 0xffffffffu;
  unsigned dmask;
  int rank = warp_digit_rank(key, 0, 4, &dmask);
  unsigned digit = key & 15;
  if (rank == 0)
    warp_counts[warp][digit] = __popc(dmask);  // expect: W64-BALLOT-NARROW
  __syncthreads();
  if (threadIdx.x < 16) {
    int total = 0;
    for (int w = 0; w < blockDim.x / 32; ++w)  // expect: W64-WARP-COUNT
      total += warp_counts[w][threadIdx.x];
    atomicAdd(&counts[threadIdx.x], total);
  }
  if (i < n)
    out[i] = rank + get_lane();
}
