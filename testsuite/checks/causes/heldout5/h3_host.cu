// Held out, round 5. Cause 3: host code (warp-size tests, shapes and sizes computed with 32).
// Ambiguous calls: `prop.warpSize % 32 != 0` compares a remainder, not the
// warp size, and passes on 64-lane devices: quiet. `(n + 31) / 32` sizing the
// per-warp totals is a host warp count (W64-WARP-COUNT), though it is rounded.
// The transpose launch's dim3(32, 8) is a tile shape for a kernel without
// warp-level code: quiet.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

// Vector CSR SpMV, one warp per row, written with warpSize.
__global__ void spmvVector(const int *rowPtr, const int *col, const float *val,
                           const float *x, float *y, int nRows) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  const int lane = threadIdx.x % warpSize;
  if (row >= nRows) return;
  float s = 0.f;
  for (int j = rowPtr[row] + lane; j < rowPtr[row + 1]; j += warpSize) s += val[j] * x[col[j]];
  for (int o = warpSize / 2; o > 0; o /= 2) s += __shfl_down_sync(0xffffffff, s, o); // expect: W64-MASK32
  if (lane == 0) y[row] = s;
}

// First level of a two-level scan: one total per warp.
__global__ void warpTotals(const int *in, int *totals, int n) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  int v = g < n ? in[g] : 0;
  for (int d = 1; d < warpSize; d *= 2) {
    const int u = __shfl_up_sync(0xffffffff, v, d);                          // expect: W64-MASK32
    if (threadIdx.x % warpSize >= d) v += u;
  }
  if (threadIdx.x % warpSize == warpSize - 1) totals[g / warpSize] = v;
}

// Row maximum of a score matrix: one warp per row, every lane stages its
// kTop best values in shared memory and lane 0 scans the stage.
constexpr int kTop = 4;
__global__ void rowBest(const float *scores, float *best, int cols) {
  extern __shared__ float stage[];
  const int lane = threadIdx.x % warpSize;
  float *mine = stage + lane * kTop;
  for (int i = 0; i < kTop; ++i) mine[i] = -1e30f;
  for (int c = lane; c < cols; c += warpSize) {
    float v = scores[(size_t)blockIdx.x * cols + c];
    for (int i = 0; i < kTop; ++i) if (v > mine[i]) { const float t = mine[i]; mine[i] = v; v = t; }
  }
  __syncwarp();
  if (lane == 0) {
    float m = -1e30f;
    for (int e = 0; e < warpSize * kTop; ++e) m = fmaxf(m, stage[e]);
    best[blockIdx.x] = m;
  }
}

__global__ void transpose(const float *in, float *out, int rows, int cols) {
  __shared__ float t[32][33];                                                 // quiet: W64-WARP-COUNT
  int c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 32 + threadIdx.y;
  for (int k = 0; k < 32; k += 8) if (r + k < rows && c < cols) t[threadIdx.y + k][threadIdx.x] = in[(r + k) * cols + c];
  __syncthreads();
  c = blockIdx.y * 32 + threadIdx.x; r = blockIdx.x * 32 + threadIdx.y;
  for (int k = 0; k < 32; k += 8) if (r + k < cols && c < rows) out[(r + k) * rows + c] = t[threadIdx.x][threadIdx.y + k];
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  const cudaDeviceProp *p = &prop;
  if (prop.warpSize % 32 != 0) return 1;                                      // quiet: W64-HOST-WARP-SIZE
  if (32 != p->warpSize) { fprintf(stderr, "tuned for 32-thread warps only\n"); return 1; } // expect: W64-HOST-WARP-SIZE
  const int nRows = 1 << 14, cols = 512, n = 1 << 20, threads = 256;
  int *rowPtr, *colIdx, *in, *totals;
  float *val, *x, *y, *scores, *best, *scoresT;
  cudaMalloc(&rowPtr, (nRows + 1) * sizeof(int)); cudaMalloc(&colIdx, n * sizeof(int));
  cudaMalloc(&val, n * sizeof(float)); cudaMalloc(&x, nRows * sizeof(float)); cudaMalloc(&y, nRows * sizeof(float));
  cudaMalloc(&in, n * sizeof(int)); cudaMalloc(&best, nRows * sizeof(float));
  cudaMalloc(&scores, (size_t)nRows * cols * sizeof(float)); cudaMalloc(&scoresT, (size_t)nRows * cols * sizeof(float));
  const int rowsPerBlock = threads / 32;                                      // expect: W64-WARP-COUNT
  spmvVector<<<(nRows + rowsPerBlock - 1) / rowsPerBlock, threads>>>(rowPtr, colIdx, val, x, y, nRows);
  const int nWarps = (n + 31) / 32;                                           // expect: W64-WARP-COUNT
  cudaMalloc(&totals, nWarps * sizeof(int));
  warpTotals<<<(n + threads - 1) / threads, threads>>>(in, totals, n);
  std::vector<int> h(nWarps);
  cudaMemcpy(h.data(), totals, nWarps * sizeof(int), cudaMemcpyDeviceToHost);
  const size_t stageBytes = sizeof(float) * kTop * 32;                        // expect: W64-BLOCK-SIZE
  rowBest<<<nRows, 32, stageBytes>>>(scores, best, cols);                     // expect: W64-BLOCK-SIZE
  dim3 tb(32, 8), tg((cols + 31) / 32, (nRows + 31) / 32);                    // quiet: W64-BLOCK-SIZE
  transpose<<<tg, tb>>>(scores, scoresT, nRows, cols);
  long long sum = 0; for (int v : h) sum += v;
  printf("%lld\n", sum);
  return 0;
}
