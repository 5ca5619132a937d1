// W64-LANE-MATH negatives: none of these is warp-lane math.
#include <cuda_runtime.h>

#define TILE 32
#define BN 128

__global__ void data_values(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = in[i];
  out[i] = v % 32 + (v >> 5) + (in[i] & 31);   // arithmetic on data, not on thread indices
}

__global__ void sgemm_tile(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.f;
  for (int t = 0; t < n / TILE; ++t) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

__global__ void tile_1d(float *out) {
  int tid = threadIdx.x;
  int r = tid / TILE, c = tid % TILE;            // named tile constant, not a warp
  int br = tid / (BN / 4), bc = tid % (BN / 4);  // 32 by arithmetic on a tile size
  out[tid] = r + c + br + bc;
}

__global__ void portable(float *out) {
  int lane = threadIdx.x % warpSize;
  int warp = threadIdx.x / warpSize;
  if (lane == warpSize - 1)
    out[warp] = 1.f;
}

__global__ void unrelated(int *out, int x, int words) {
  int block = blockIdx.x % 32;          // block index, not a thread index
  int bucket = x >> 5;                   // a parameter unrelated to threads
  int word = words / 32;
  out[threadIdx.x] = block + bucket + word;
}

int host(int n) { return (n + 31) / 32 + (n >> 5); }
