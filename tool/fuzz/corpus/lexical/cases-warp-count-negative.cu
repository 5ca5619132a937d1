// W64-WARP-COUNT negatives.
#include <cuda_runtime.h>

#define TILE 32

__global__ void portable(const float *in, float *out) {
  __shared__ float sums[1024 / 64];
  __shared__ float tile[TILE][TILE + 1];        // a tile, not per-warp storage
  int warp = threadIdx.x / warpSize;
  int nwarps = blockDim.x / warpSize;
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x % warpSize == 0)
    sums[warp] = tile[0][0];
  __syncthreads();
  int chunks = blockDim.x / 16;                 // not a warp count
  out[blockIdx.x] = sums[0] + nwarps + chunks + (gridDim.x / 32);
}

int host(int n) { return n / 32; }
