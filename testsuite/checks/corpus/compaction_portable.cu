// Stream compaction with warp ballots, written for any warp width.
#include <cuda_runtime.h>

__global__ void compact(const int *in, int *out, int *count, int n) {
  extern __shared__ int warp_base[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  int warp = threadIdx.x / warpSize;
  bool keep = i < n && in[i] > 0;
  unsigned long long votes = __ballot_sync(0xffffffff, keep);  // expect: W64-MASK32
  unsigned long long below = votes & ((1ull << lane) - 1);  // quiet: W64-BALLOT-NARROW
  int rank = __popcll(below);
  if (lane == 0)
    warp_base[warp] = atomicAdd(count, __popcll(votes));
  __syncwarp();
  if (keep)
    out[warp_base[warp] + rank] = in[i];
}

__global__ void all_or_nothing(const int *in, int *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (__all_sync(0xffffffff, i < n && in[i] != 0))  // expect: W64-MASK32
    flags[blockIdx.x] = 1;
}
