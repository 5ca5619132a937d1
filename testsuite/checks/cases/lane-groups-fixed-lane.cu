// 32-lane groups without a width argument: the bitonic step broadcasts from
// lane 16, a position inside a 32-lane group that does not scale with
// warpSize, and every other shuffle reads a lane or offset in [0, 32): a
// constant, a loop counter (i < 32) or a parameter every call passes a
// constant below 32. The safe port keeps the groups and pins the shuffles to
// width 32 (each one is reported for its 32-bit mask); the lane and group math
// by 32 numbers those groups and stays quiet, as do the group count and the
// loop bound.
#include <cuda_runtime.h>

__device__ int exchange(int k, int mask) {
  return __shfl_xor_sync(0xffffffff, k, mask);
}

// Never instantiated: its parameter constrains nothing.
template <class K>
__device__ K exchangeUnused(K k, int mask) {
  return __shfl_xor_sync(0xffffffff, k, mask);
}

__device__ int groupScan(int v, int lane) {
  for (int i = 1; i < 32; i *= 2) {     // quiet: offsets inside the group
    int other = __shfl_up_sync(0xffffffff, v, i);
    if (lane >= i)
      v += other;
  }
  return v;
}

__global__ void sortPairs(const int *keys, int *out, int segments) {
  const int lane = threadIdx.x & 31;    // quiet: lane in the group
  const int group = threadIdx.x / 32;   // quiet: group id
  int groups = blockDim.x / 32;         // quiet: group count
  int k = keys[(group << 7) + lane + 32];
  k = exchange(k, 0x1);
  k = exchange(k, 0x10);
  int half = __shfl_sync(0xffffffff, k, 16);
  out[blockIdx.x * groups + group] = groupScan(k < half ? k : half, lane) + segments;
}
