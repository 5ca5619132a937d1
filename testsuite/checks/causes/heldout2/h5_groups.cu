// Held out, round 2. Cause 5: consistent 32-lane groups (correct on 64 lanes as written).
#include <cuda_runtime.h>

#define TILE 32                                                    // note: W64-LANE-MATH

__device__ __forceinline__ int tileSum(int v) {
  v += __shfl_xor_sync(0xffffffffu, v, 1);                         // expect: W64-MASK32
  v += __shfl_xor_sync(0xffffffffu, v, 2);                         // expect: W64-MASK32
  v += __shfl_xor_sync(0xffffffffu, v, 4);                         // expect: W64-MASK32
  v += __shfl_xor_sync(0xffffffffu, v, 8);                         // expect: W64-MASK32
  v += __shfl_xor_sync(0xffffffffu, v, 16);                        // note: W64-SHFL-OFFSET // expect: W64-MASK32
  return v;
}

__global__ void countRows(const int *m, int *rowCount, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / TILE) + threadIdx.x / TILE; // note: W64-WARP-COUNT, W64-LANE-MATH
  int lane = threadIdx.x % TILE;                                   // note: W64-LANE-MATH
  if (row >= rows) return;
  int c = 0;
  for (int j = lane; j < cols; j += TILE) c += m[row * cols + j] != 0; // note: W64-LANE-MATH
  c = tileSum(c);
  if (lane == 0) rowCount[row] = c;
}

void launchCount(const int *m, int *rowCount, int rows, int cols) {
  const int rowsPerBlock = 3;
  countRows<<<(rows + rowsPerBlock - 1) / rowsPerBlock, rowsPerBlock * TILE>>>(m, rowCount, rows, cols); // note: W64-BLOCK-SIZE
}
