// Held out, round 7. Cause 3: host code.
// Ambiguous calls (labelled as a demanding GPU engineer would expect):
// - The kernels work per wavefront (lanes, warp ids and strides by warpSize),
//   so host launch shapes and per-warp buffer sizes computed with 32 are
//   findings. Shapes are W64-BLOCK-SIZE (a note by severity), labelled expect
//   where the 32 is written ("the finding is at the 32"), not at the launch;
//   `32 * warpsPerBlock` is a constant 256 built from 32s for a kernel that
//   shuffles and splits its work by warpSize, which the BLOCK-SIZE page reports.
// - The per-warp partial buffer counted with `(n + 31) / 32` is W64-WARP-COUNT
//   (a host warp count sizing a cudaMalloc buffer), labelled at the local.
// - `warpSize == 32` in device code (the assert) is quiet by the HOST page.
#include <cuda_runtime.h>
#include <cassert>
#include <cstdio>
#include <vector>

__device__ __forceinline__ float waveSum(float v) {
  for (int o = warpSize >> 1; o > 0; o >>= 1) v += __shfl_down_sync(__activemask(), v, o);
  return v;
}

// One warp per row: L2 norm of each row.
__global__ void rowNorms(const float* __restrict__ x, float* __restrict__ norms, int rows, int cols) {
  const int lane = threadIdx.x % warpSize;
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (row >= rows) return;
  float s = 0.f;
  for (int c = lane; c < cols; c += warpSize) { const float v = x[(size_t)row * cols + c]; s += v * v; }
  s = waveSum(s);
  if (lane == 0) norms[row] = sqrtf(s);
}

// One partial sum per warp.
__global__ void warpPartials(const float* __restrict__ x, float* __restrict__ parts, size_t n) {
  assert(warpSize == 32 || warpSize == 64);                          // quiet: W64-HOST-WARP-SIZE
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const float v = waveSum(i < n ? x[i] : 0.f);
  if (threadIdx.x % warpSize == 0) parts[i / warpSize] = v;
}

// Dense GEMV: the block stages warpSize * F entries of x at a time, one warp
// per row reads them F lanes apart.
template <int F>
__global__ void chunkGemv(const float* __restrict__ A, const float* __restrict__ x,
                          float* __restrict__ y, int rows, int cols) {
  extern __shared__ float sx[];
  const int lane = threadIdx.x % warpSize;
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  float acc = 0.f;
  for (int base = 0; base < cols; base += warpSize * F) {
    __syncthreads();
    for (int i = threadIdx.x; i < warpSize * F; i += blockDim.x) sx[i] = base + i < cols ? x[base + i] : 0.f;
    __syncthreads();
    if (row >= rows) continue;
    for (int k = 0; k < F; ++k) {
      const int c = base + k * warpSize + lane;
      if (c < cols) acc += A[(size_t)row * cols + c] * sx[k * warpSize + lane];
    }
  }
  acc = waveSum(acc);
  if (lane == 0 && row < rows) y[row] = acc;
}

// Tiled transpose, 32 x 32 tiles, 32 x 8 threads (no warp-level work).
__global__ void transpose32(const float* __restrict__ a, float* __restrict__ b, int rows, int cols) {
  __shared__ float t[32][33];                                        // quiet: W64-WARP-COUNT
  const int x = blockIdx.x * 32 + threadIdx.x;
  for (int j = threadIdx.y; j < 32; j += 8)
    if (x < cols && blockIdx.y * 32 + j < rows) t[j][threadIdx.x] = a[(size_t)(blockIdx.y * 32 + j) * cols + x];
  __syncthreads();
  const int tx = blockIdx.y * 32 + threadIdx.x;
  for (int j = threadIdx.y; j < 32; j += 8)
    if (tx < rows && blockIdx.x * 32 + j < cols) b[(size_t)(blockIdx.x * 32 + j) * rows + tx] = t[threadIdx.x][j];
}

__global__ void stencil3(const float* __restrict__ u, float* __restrict__ v, int n) {
  const int i = blockIdx.x * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) v[i] = 0.25f * u[i - 1] + 0.5f * u[i] + 0.25f * u[i + 1];
}

static int deviceWarp(int dev) {
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, dev);
  return p.warpSize;
}

static bool narrowWarps(int dev) {
  int ws = 0;
  cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, dev);
  return ws == 32;                                                   // expect: W64-HOST-WARP-SIZE
}

cudaError_t checkDevice(int dev) {
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, dev);
  if (prop.warpSize != (1 << 5)) return cudaErrorNotSupported;      // expect: W64-HOST-WARP-SIZE
  return cudaSuccess;
}

cudaError_t runPipeline(const float* dX, const float* dVec, int rows, int cols, float* dNorms,
                        float* dY, float* dT, float* dU, float* dV, float* hTotal, int dev,
                        cudaStream_t st) {
  const int warpsPerBlock = 8;
  const int threads = 32 * warpsPerBlock;                            // expect: W64-BLOCK-SIZE
  const int blocks = (rows + warpsPerBlock - 1) / warpsPerBlock;
  rowNorms<<<blocks, threads, 0, st>>>(dX, dNorms, rows, cols);

  const size_t n = (size_t)rows * cols;
  const size_t nSlots = (n + 31) / 32;                               // expect: W64-WARP-COUNT
  float* dParts = nullptr;
  cudaMalloc(&dParts, nSlots * sizeof(float));
  warpPartials<<<(unsigned)((n + 255) / 256), 256, 0, st>>>(dX, dParts, n);
  std::vector<float> hParts(nSlots);
  cudaMemcpyAsync(hParts.data(), dParts, nSlots * sizeof(float), cudaMemcpyDeviceToHost, st);
  cudaStreamSynchronize(st);
  float total = 0.f;
  for (float p : hParts) total += p;
  *hTotal = total;
  cudaFree(dParts);

  constexpr int kF = 8;
  const size_t shBytes = sizeof(float) * 32 * kF;                    // expect: W64-BLOCK-SIZE
  const int rowsPerGemvBlock = 128 / deviceWarp(dev);
  chunkGemv<kF><<<(rows + rowsPerGemvBlock - 1) / rowsPerGemvBlock, 128, shBytes, st>>>(dX, dVec, dY, rows, cols);

  const dim3 tileBlock(32, 8);                                       // quiet: W64-BLOCK-SIZE
  const dim3 tileGrid((cols + 31) / 32, (rows + 31) / 32);           // quiet: W64-BLOCK-SIZE
  transpose32<<<tileGrid, tileBlock, 0, st>>>(dX, dT, rows, cols);
  if (narrowWarps(dev)) stencil3<<<(int)((n + 95) / 96), dim3(32, 3), 0, st>>>(dU, dV, (int)n);   // expect: W64-BLOCK-SIZE
  if (deviceWarp(dev) != 32) std::fprintf(stderr, "note: wide warps, stencil skipped\n");        // expect: W64-HOST-WARP-SIZE
  return cudaGetLastError();
}

// Flat launch: one warp per row, 256-thread blocks.
void launchRowNormsFlat(const float* dX, float* dNorms, int rows, int cols, cudaStream_t st) {
  const long long totalThreads = static_cast<long long>(rows) * 32;  // expect: W64-BLOCK-SIZE
  const int grid = static_cast<int>((totalThreads + 255) / 256);
  rowNorms<<<grid, 256, 0, st>>>(dX, dNorms, rows, cols);
}
