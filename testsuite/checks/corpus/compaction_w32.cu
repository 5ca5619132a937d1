// Stream compaction with warp ballots, written for 32-lane warps.
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned lane_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));  // expect: W64-INLINE-PTX
  return id;
}

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));  // expect: W64-INLINE-PTX
  return mask;  // expect: W64-BALLOT-NARROW
}

__global__ void compact(const int *in, int *out, int *count, int n) {
  __shared__ int warp_base[32];  // expect: W64-WARP-COUNT
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = lane_id();
  int warp = threadIdx.x >> 5;  // expect: W64-LANE-MATH
  bool keep = i < n && in[i] > 0;
  unsigned votes = __ballot_sync(0xffffffff, keep);  // expect: W64-BALLOT-NARROW, W64-MASK32
  int rank = __popc(votes & lanemask_lt());  // expect: W64-BALLOT-NARROW
  if (lane == 0)
    warp_base[warp] = atomicAdd(count, __popc(votes));  // expect: W64-BALLOT-NARROW
  __syncwarp();
  if (keep)
    out[warp_base[warp] + rank] = in[i];
}

__global__ void all_or_nothing(const int *in, int *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned full = __ballot_sync(0xffffffff, i < n && in[i] != 0);  // expect: W64-BALLOT-NARROW, W64-MASK32
  if (full == 0xffffffffu)  // expect: W64-BALLOT-NARROW
    flags[blockIdx.x] = 1;
  if (__any_sync(0xffffffff, i < n && in[i] < 0))  // expect: W64-MASK32
    flags[blockIdx.x] = -1;
  if (__all_sync(0xffffffff, i >= n))  // expect: W64-MASK32
    flags[blockIdx.x] = 0;
}
