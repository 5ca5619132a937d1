// Histograms with warp-aggregated atomics, written for 32-lane warps.
#include <cuda_runtime.h>

#define NBINS 64
#define WARPS_PER_BLOCK 8
#define THREADS (WARPS_PER_BLOCK * 32)

// per-warp sub-histograms in shared memory
__global__ void hist_per_warp(const unsigned char *data, unsigned *bins, int n) {
  __shared__ unsigned sub[WARPS_PER_BLOCK][NBINS];
  int warp = threadIdx.x / 32;  // expect: W64-LANE-MATH
  for (int i = threadIdx.x; i < WARPS_PER_BLOCK * NBINS; i += blockDim.x)
    (&sub[0][0])[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&sub[warp][data[i] % NBINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) {
    unsigned s = 0;
    for (int w = 0; w < WARPS_PER_BLOCK; ++w)
      s += sub[w][b];
    atomicAdd(&bins[b], s);
  }
}

// warp-aggregated increment: one atomic per distinct bin in the warp
__global__ void hist_aggregated(const int *keys, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 0x1f;  // expect: W64-LANE-MATH
  int key = i < n ? keys[i] % NBINS : -1;
  unsigned active = __ballot_sync(0xffffffff, i < n);  // expect: W64-BALLOT-NARROW, W64-MASK32
  if (i >= n)
    return;
  unsigned peers = __match_any_sync(active, key);  // expect: W64-BALLOT-NARROW, W64-MASK32
  int leader = __ffs(peers) - 1;  // expect: W64-BALLOT-NARROW
  if (lane == leader)
    atomicAdd(&bins[key], __popc(peers));  // expect: W64-BALLOT-NARROW
}

// counts per value bucket: bucket math on data, not on lanes
__global__ void hist_buckets(const unsigned *values, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned v = values[i];
    unsigned bucket = (v >> 5) % 32;  // quiet: W64-LANE-MATH
    atomicAdd(&bins[bucket], 1u);
  }
}

void launch_hist(const unsigned char *d, unsigned *bins, int n) {
  hist_per_warp<<<120, THREADS>>>(d, bins, n);
  hist_aggregated<<<(n + 255) / 256, 256>>>((const int *)d, bins, n);
  hist_buckets<<<(n + 159) / 160, 160>>>((const unsigned *)d, bins, n);  // expect: W64-BLOCK-SIZE
}
