// Inclusive prefix sums with warp shuffles, written for 32-lane warps.
#include <cuda_runtime.h>

__device__ int warp_scan(int v) {
  int lane = threadIdx.x & 31;  // expect: W64-LANE-MATH
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {  // expect: W64-SHFL-OFFSET
    int n = __shfl_up_sync(0xffffffff, v, d);  // expect: W64-MASK32
    if (lane >= d)
      v += n;
  }
  return v;
}

__global__ void block_scan(const int *in, int *out, int n) {
  __shared__ int warp_totals[32];  // expect: W64-WARP-COUNT
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;  // expect: W64-LANE-MATH
  int warp = threadIdx.x / 32;  // expect: W64-LANE-MATH
  int v = gid < n ? in[gid] : 0;
  v = warp_scan(v);
  if (lane == 31)  // expect: W64-LANE-MATH
    warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = lane < blockDim.x / 32 ? warp_totals[lane] : 0;  // expect: W64-WARP-COUNT
    t = warp_scan(t);
    warp_totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0)
    v += warp_totals[warp - 1];
  if (gid < n)
    out[gid] = v;
}

// exclusive scan of flags through a ballot: the position of each set flag
__global__ void flag_positions(const int *flags, int *pos, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;  // expect: W64-LANE-MATH
  bool f = gid < n && flags[gid] != 0;
  unsigned ballot = __ballot_sync(0xffffffff, f);  // expect: W64-BALLOT-NARROW, W64-MASK32
  unsigned below = ballot & ((1u << lane) - 1);  // expect: W64-BALLOT-NARROW
  if (f)
    pos[gid] = __popc(below);  // expect: W64-BALLOT-NARROW
}
