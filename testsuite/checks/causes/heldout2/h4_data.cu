// Held out, round 2. Cause 4: a thread index used as data (hard negatives).
#include <cuda_runtime.h>

__global__ void setBits(const int *flags, unsigned *words, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !flags[i]) return;
  atomicOr(&words[i / 32], 1u << (i % 32));                        // quiet: W64-LANE-MATH
}

__global__ void testBits(const unsigned *words, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (words[i >> 5] >> (i & 31)) & 1u;            // quiet: W64-LANE-MATH
}

__global__ void transpose32(const float *in, float *out, int width) {
  __shared__ float tile[32][33];                                   // quiet: W64-WARP-COUNT
  int x = blockIdx.x * 32 + threadIdx.x;                           // quiet: W64-LANE-MATH
  int y = blockIdx.y * 32 + threadIdx.y;                           // quiet: W64-LANE-MATH
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;                               // quiet: W64-LANE-MATH
  y = blockIdx.x * 32 + threadIdx.y;                               // quiet: W64-LANE-MATH
  out[y * width + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void packNibbles(const unsigned char *in, unsigned long long *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  unsigned long long v = (unsigned long long)(in[t] & 0xf) << ((t % 16) * 4);
  atomicOr(&out[t / 16], v);
}
