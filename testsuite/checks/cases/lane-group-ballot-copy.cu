// --fix-wave64 on a ballot copied into another lane-bit container (HeCBench
// atomicAggregate's shape): the copy and its target widen together, the
// computed mask given to a shuffle is resolved by the same widening, and the
// dropped-mask review (HIP 5.2 has no *_sync) holds nothing back.
#include <cuda_runtime.h>

__device__ int aggregate(int *ptr) {
  int mask; // the ballot check widens this declaration
  for (int i = 0; i < warpSize; i++) {
    unsigned long long other = __shfl_sync(0xffffffff, (unsigned long long)ptr, i);
    unsigned same = __ballot_sync(0xffffffff, other == (unsigned long long)ptr); // fixed
    if (i == (threadIdx.x & (warpSize - 1)))
      mask = same; // fixed
  }
  int leader = __ffs(mask) - 1; // fixed
  unsigned lane = threadIdx.x % warpSize;
  int res = 0;
  if (lane == leader)
    res = atomicAdd(ptr, __popc(mask)); // fixed
  res = __shfl_sync(mask, res, leader); // fixed
  return res + __popc(mask & ((1 << lane) - 1)); // fixed
}

// The copy's target is an array element, which no fix widens: the ballot's
// container stays 32-bit (its fix is not safe, so not applied) and nothing of
// this helper's grouping is held back by it.
__device__ unsigned slots[64];

__device__ int copiedAway(int *ptr) {
  unsigned same = __ballot_sync(0xffffffff, *ptr > 0);
  slots[threadIdx.x % warpSize] = same;
  return __popc(same); // fixed
}

__global__ void aggregateKernel(int *d, int s) { aggregate(d + threadIdx.x % s); }

__global__ void copyKernel(int *d) { copiedAway(d); }
