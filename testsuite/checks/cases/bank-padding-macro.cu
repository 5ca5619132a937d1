// Bank padding through a macro on a block-sized index: PAD(m - 1) adds one
// slot per 32 shared-memory words (DCU's LDS has 32 banks too); the >> 5
// counts banks, not warps, so W64-WARP-COUNT stays quiet as LANE-MATH does.
#include <cuda_runtime.h>
#define PAD(i) ((i) + ((i) >> 5))

__global__ void blellochPadded(const float *in, float *out, int n) {
  extern __shared__ float buf[];
  const int t = threadIdx.x, m = 2 * blockDim.x;
  buf[PAD(t)] = t < n ? in[t] : 0.f;
  __syncthreads();
  if (t == 0) buf[PAD(m - 1)] = 0.f;
  __syncthreads();
  out[t] = buf[PAD(t)];
}

int main() { return 0; }
