// Transposes and GEMM tiles: 32 is a tile size here, not a warp. Nothing in
// this file assumes 32-lane warps.
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8
#define BM 128
#define BK 8

__global__ void transpose(float *odata, const float *idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];  // quiet: W64-WARP-COUNT
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < height && y + j < width)
      odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void sgemm_1d(const float *A, const float *B, float *C, int n) {
  __shared__ float As[BK][BM];
  const int tid = threadIdx.x;
  const int aRow = tid / (BK / 4), aCol = (tid % (BK / 4)) * 4;
  const int bRow = tid / (BM / 4), bCol = (tid % (BM / 4)) * 4;  // quiet: W64-LANE-MATH
  const int cRow = tid / TILE_DIM, cCol = tid % TILE_DIM;  // quiet: W64-LANE-MATH
  As[aCol][aRow] = A[aRow * n + aCol];
  __syncthreads();
  C[cRow * n + cCol] = As[0][bRow] + B[bRow * n + bCol];
}

__global__ void sgemm_naive(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0.f;
    for (int k = 0; k < n; ++k)
      acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
  }
}

__global__ void bits(const unsigned *words, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned w = words[i];
    out[i] = (w >> 5) + (w & 31) + (w % 32) + (w / 32);  // quiet: W64-LANE-MATH
  }
}

void launch(float *o, const float *in, int w, int h) {
  dim3 block(TILE_DIM, BLOCK_ROWS);
  dim3 grid(w / TILE_DIM, h / TILE_DIM);
  transpose<<<grid, block>>>(o, in, w, h);
  dim3 b32(32, 32);
  sgemm_naive<<<grid, b32>>>(o, in, o, w);
}
