// Held out, round 3. Cause 4: a thread index used as data (hard negatives).
#include <cuda_runtime.h>

__global__ void histogram32(const unsigned char *in, unsigned *bins, int n) {
  __shared__ unsigned local[32];                                   // quiet: W64-WARP-COUNT
  if (threadIdx.x < 32) local[threadIdx.x] = 0;                    // quiet: W64-LANE-MATH
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[in[i] % 32], 1u);                             // quiet: W64-LANE-MATH
  __syncthreads();
  if (threadIdx.x < 32) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]); // quiet: W64-LANE-MATH
}

__global__ void unpackBits(const unsigned *words, unsigned char *bits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) bits[i] = (words[i >> 5] >> (i & 31)) & 1;            // quiet: W64-LANE-MATH
}

__global__ void scaleRows32(const float *a, float *b, int rows) {
  int r = blockIdx.x * blockDim.y + threadIdx.y;
  int c = threadIdx.x;
  if (r < rows) b[r * 32 + c] = 2.f * a[(r << 5) + (c & 31)];      // quiet: W64-LANE-MATH
}
