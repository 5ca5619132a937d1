// W64-BLOCK-SIZE: launch shapes computed on the host with 32 threads per
// warp, followed through local variables to the grid, block or dynamic
// shared-memory size of a launch (quantAQLM, local-ht). The kernel works per
// warpSize lanes, so on a 64-lane wavefront the shapes cover half the work.
#include <cuda_runtime.h>

__global__ void rows(float *out, int n) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  extern __shared__ float cache[];
  if (row < n && threadIdx.x % warpSize == 0)
    out[row] = cache[0];
}

void run_rows(float *out, int n, int warps) {
  int blocks = (n + warps - 1) / warps;
  int threads = 32 * warps;
  rows<<<blocks, threads, sizeof(float) * 32 * 4, 0>>>(out, n);
}

void run_extensions(float *out, unsigned vec_size) {
  unsigned total_threads = vec_size * 32;  // one warp per extension
  unsigned per_block = 512;
  unsigned blocks = (total_threads + per_block) / per_block;
  rows<<<blocks, per_block>>>(out, vec_size);
}

// Quiet: a grid divided by 32, a 32 that never reaches a launch, a block
// size passed in, a constant block of 32 * 4 = 128 threads, and a thread
// count rounded up to whole warps (logprob).
void quiet(float *out, int n, int threads) {
  int bytes = 32 * n;
  const int rounded = n < 1024 ? (n + 31) / 32 * 32 : 1024;
  rows<<<n, rounded>>>(out, n);
  float *tmp = nullptr;
  cudaMalloc(&tmp, bytes);
  rows<<<(n + 31) / 32, 256>>>(out, n);
  rows<<<n, threads>>>(out, n);
  rows<<<n, 32 * 4>>>(tmp, n);
  cudaFree(tmp);
}
