// Held out. Cause 4: thread indices used as data.
#include <cuda_runtime.h>

__global__ void sieveMark(unsigned *bits, int limit) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= limit) return;
  if (i % 3 == 0) atomicOr(&bits[i >> 5], 1u << (i & 31));      // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
}

__global__ void popRows(const unsigned *words, int *count, int nwords) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w < nwords) atomicAdd(count, __popc(words[w]));
  unsigned idx = threadIdx.x;
  unsigned pos = idx % 32;                                      // quiet: W64-LANE-MATH
  unsigned slot = idx / 32;                                     // quiet: W64-LANE-MATH
  if (w < nwords && ((words[w] >> pos) & 1u)) atomicAdd(count + 1 + slot, 1);
}

__global__ void smemTile(const float *a, float *b, int n) {
  __shared__ float t[32][32 + 1];                               // quiet: W64-WARP-COUNT
  int tx = threadIdx.x, ty = threadIdx.y;
  t[ty][tx] = a[(blockIdx.y * 32 + ty) * n + blockIdx.x * 32 + tx];
  __syncthreads();
  b[(blockIdx.x * 32 + ty) * n + blockIdx.y * 32 + tx] = t[tx][ty];
}
