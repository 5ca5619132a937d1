// Warp-aggregated atomics and leader election, in the style of the classic
// CUDA programming-guide examples, written for 32-lane warps.
#include <cuda_runtime.h>

__device__ int atomicAggInc(int *ctr) {
  unsigned int active = __activemask();  // expect: W64-BALLOT-NARROW
  int leader = __ffs(active) - 1;  // expect: W64-BALLOT-NARROW
  int change = __popc(active);  // expect: W64-BALLOT-NARROW
  int lane = threadIdx.x & 31;  // expect: W64-LANE-MATH
  unsigned int lane_mask_lt = (1u << lane) - 1;  // expect: W64-BALLOT-NARROW
  unsigned int rank = __popc(active & lane_mask_lt);  // expect: W64-BALLOT-NARROW
  int warp_res;
  if (rank == 0)
    warp_res = atomicAdd(ctr, change);
  warp_res = __shfl_sync(active, warp_res, leader);
  return warp_res + rank;
}

__global__ void filter_k(int *dst, int *nres, const int *src, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n && src[i] > 0)
    dst[atomicAggInc(nres)] = src[i];
}

// the same with an explicit ballot of the predicate
__global__ void filter_ballot(int *dst, int *nres, const int *src, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int lane = threadIdx.x % 32;  // expect: W64-LANE-MATH
  bool pred = i < n && src[i] > 0;
  unsigned int mask = __ballot_sync(0xFFFFFFFF, pred);  // expect: W64-MASK32, W64-BALLOT-NARROW
  int leader = __ffs(mask) - 1;  // expect: W64-BALLOT-NARROW
  int base = 0;
  if (lane == leader)
    base = atomicAdd(nres, __popc(mask));  // expect: W64-BALLOT-NARROW
  base = __shfl_sync(0xFFFFFFFF, base, leader);  // expect: W64-MASK32
  if (pred)
    dst[base + __popc(mask & ((1u << lane) - 1))] = src[i];  // expect: W64-BALLOT-NARROW
}

// vote helpers
__device__ bool warp_all_positive(float v) {
  return __all_sync(0xFFFFFFFF, v > 0.f);  // expect: W64-MASK32
}

__device__ int warp_count_positive(float v) {
  return __popc(__ballot_sync(0xFFFFFFFF, v > 0.f));  // expect: W64-MASK32, W64-BALLOT-NARROW
}
