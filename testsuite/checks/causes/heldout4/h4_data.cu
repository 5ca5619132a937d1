// Held out, round 4. Cause 4: a thread index used as data (hard negatives).
#include <cuda_runtime.h>

__global__ void setBits(const int *keys, unsigned *bitmap, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicOr(&bitmap[keys[i] / 32], 1u << (keys[i] % 32)); // quiet: W64-LANE-MATH
}

__global__ void transpose32(const float *in, float *out, int width) {
  __shared__ float tile[32][33];                                     // quiet: W64-WARP-COUNT
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y; // quiet: W64-LANE-MATH
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;                                 // quiet: W64-LANE-MATH
  y = blockIdx.x * 32 + threadIdx.y;                                 // quiet: W64-LANE-MATH
  out[y * width + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void packFlags(const unsigned char *flags, unsigned *words, int n) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned bits = 0;
  for (int b = 0; b < 32; ++b)                                       // quiet: W64-LANE-MATH
    if (w * 32 + b < n && flags[w * 32 + b]) bits |= 1u << b;        // quiet: W64-LANE-MATH
  words[w] = bits;
}
