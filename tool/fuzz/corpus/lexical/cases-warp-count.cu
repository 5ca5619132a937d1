// W64-WARP-COUNT positives: warps per block counted with 32.
#include <cuda_runtime.h>

#define BLOCK_SIZE 256
#define WARPS_PER_BLOCK (BLOCK_SIZE / 32)

__global__ void block_sum(const float *in, float *out) {
  __shared__ float warp_sums[32];                 // one slot per 32-thread warp
  __shared__ float fixed_sums[WARPS_PER_BLOCK];
  int lane = threadIdx.x % warpSize;
  int warp = threadIdx.x / 32;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (lane == 0) {
    warp_sums[warp] = v;
    fixed_sums[warp % WARPS_PER_BLOCK] = v;
  }
  __syncthreads();
  int nwarps = blockDim.x / 32;
  int rounded = (blockDim.x + 31) / 32;
  int shifted = blockDim.x >> 5;
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int w = 0; w < nwarps; ++w)
      s += warp_sums[w];
    out[blockIdx.x] = s + rounded + shifted + fixed_sums[0];
  }
}

void launch(const float *in, float *out, int n, int threads) {
  size_t smem = (threads / 32) * sizeof(float);
  block_sum<<<n / BLOCK_SIZE, BLOCK_SIZE, smem>>>(in, out);
}
