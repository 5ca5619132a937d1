// W64-WARP-COUNT: a __shared__ array sized for the lanes of a 32-lane warp
// (`32 * F`) in a kernel whose loops go per warpSize lanes (quantAQLM's
// sh_b): on a 64-lane wavefront the kernel writes F elements for each of 64
// lanes, twice the array. Arrays sized otherwise, and kernels that do not
// read warpSize, stay quiet.
#include <cuda_runtime.h>

const int F = 9;

__global__ void matvec(const int4 *B, float *out, int k) {
  __shared__ int4 sh_b[32 * F];  // 32 is the warp size
  for (int i = threadIdx.x; i < warpSize * 8; i += blockDim.x)
    if (i < k)
      sh_b[F * (i / 8) + i % 8] = B[i];
  __syncthreads();
  int lane = threadIdx.x % warpSize;
  out[threadIdx.x] = float(sh_b[F * lane].x);
}

// Quiet: a 32 x 33 tile in a kernel that never reads warpSize.
__global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[32 * 33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y * 33 + threadIdx.x] = in[y * n + x];
  __syncthreads();
  out[x * n + y] = tile[threadIdx.x * 33 + threadIdx.y];
}

// Quiet: sized by the block, not by 32.
__global__ void rows(float *out) {
  __shared__ float cache[256 * 2];
  cache[threadIdx.x] = float(threadIdx.x % warpSize);
  __syncthreads();
  out[threadIdx.x] = cache[threadIdx.x];
}
