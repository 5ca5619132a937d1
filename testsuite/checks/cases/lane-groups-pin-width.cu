// lane-groups-fixed-lane.cu with --fix-wave64: in 32-lane groups the safe fix
// pins each default-width shuffle other than an xor to width 32, which keeps
// CUDA's meaning (each half of the wavefront shuffles as one 32-lane warp);
// the lane and group math by 32 stays as written. A shuffle spelled in a
// macro body gets the finding but no fix.
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

#define BROADCAST(v, l) __shfl_sync(0xffffffff, v, l)

__global__ void sortPairs(const int *keys, int *out, int segments) {
  const int lane = threadIdx.x & 31;    // quiet: lane in the group
  const int group = threadIdx.x / 32;   // quiet: group id
  int groups = blockDim.x / 32;         // quiet: group count
  int k = keys[(group << 7) + lane + 32];
  k = exchange(k, 0x1);
  k = exchange(k, 0x10);
  int half = __shfl_sync(0xffffffff, k, 16);
  half += BROADCAST(k, 8);
  out[blockIdx.x * groups + group] = groupScan(k < half ? k : half, lane) + segments;
}
