// Inclusive prefix sums written for any warp width.
#include <cuda_runtime.h>

__device__ int warp_scan(int v) {
  int lane = threadIdx.x % warpSize;
  for (int d = 1; d < warpSize; d <<= 1) {  // quiet: W64-SHFL-OFFSET
    int n = __shfl_up_sync(0xffffffff, v, d);  // expect: W64-MASK32
    if (lane >= d)
      v += n;
  }
  return v;
}

__global__ void block_scan(const int *in, int *out, int n) {
  extern __shared__ int warp_totals[];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  int warp = threadIdx.x / warpSize;
  int v = gid < n ? in[gid] : 0;
  v = warp_scan(v);
  if (lane == warpSize - 1)  // quiet: W64-LANE-MATH
    warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = lane < blockDim.x / warpSize ? warp_totals[lane] : 0;
    t = warp_scan(t);
    warp_totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0)
    v += warp_totals[warp - 1];
  if (gid < n)
    out[gid] = v;
}

__global__ void flag_positions(const int *flags, int *pos, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  bool f = gid < n && flags[gid] != 0;
  unsigned long long ballot = __ballot_sync(0xffffffff, f);  // expect: W64-MASK32
  unsigned long long below = ballot & ((1ull << lane) - 1);  // quiet: W64-BALLOT-NARROW
  if (f)
    pos[gid] = __popcll(below);
}
