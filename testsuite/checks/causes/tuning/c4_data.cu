// Cause 4: a thread index used as data (bit position, bitmap word): no lane math.
#include <cuda_runtime.h>

__global__ void setBits(const int *flags, unsigned *bitmap, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !flags[i]) return;
  unsigned word = i / 32;                                      // quiet: W64-LANE-MATH
  unsigned bit = 1u << (i % 32);                               // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
  atomicOr(&bitmap[word], bit);
}

__global__ void testBits(const unsigned *bitmap, int *out, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  if (t >= n) return;
  out[t] = (bitmap[t >> 5] >> (t & 31)) & 1u;                  // quiet: W64-LANE-MATH
}

__global__ void transpose(const float *in, float *out, int w) {
  __shared__ float tile[32][33];                               // quiet: W64-WARP-COUNT
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  out[x * w + y] = tile[threadIdx.x][threadIdx.y];
}

__global__ void packBytes(const unsigned char *in, unsigned *out) {
  int t = threadIdx.x;
  unsigned v = in[t];
  atomicOr(&out[t / 4], v << (8 * (t % 4)));
}
