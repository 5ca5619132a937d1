// Histograms written for any warp width.
#include <cuda_runtime.h>

#define NBINS 64

__global__ void hist_per_warp(const unsigned char *data, unsigned *bins, int n) {
  extern __shared__ unsigned sub[];  // (blockDim.x / warpSize) x NBINS
  int warp = threadIdx.x / warpSize;
  int nwarps = blockDim.x / warpSize;
  for (int i = threadIdx.x; i < nwarps * NBINS; i += blockDim.x)
    sub[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&sub[warp * NBINS + data[i] % NBINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) {
    unsigned s = 0;
    for (int w = 0; w < nwarps; ++w)
      s += sub[w * NBINS + b];
    atomicAdd(&bins[b], s);
  }
}

__global__ void hist_aggregated(const int *keys, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int key = keys[i] % NBINS;  // quiet: W64-LANE-MATH
  atomicAdd(&bins[key], 1u);
}

void launch_hist(const unsigned char *d, unsigned *bins, int n, int warp) {
  hist_per_warp<<<120, 256, (256 / warp) * NBINS * sizeof(unsigned)>>>(d, bins, n);
  hist_aggregated<<<(n + 255) / 256, 256>>>((const int *)d, bins, n);
}
