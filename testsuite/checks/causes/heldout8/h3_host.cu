// Held out, round 8. Cause 3: host code.
// Ambiguous calls (labelled as a demanding GPU engineer would expect):
// - lanesPerWarp() returns what cudaDeviceGetAttribute(cudaDevAttrWarpSize)
//   wrote, so `lanesPerWarp(dev) != 32` tests the device warp size (expect);
//   `info->warpSize == 32` picks a kernel variant through a pointer (expect).
//   `multiProcessorCount >= 32` compares another property (quiet), and the
//   device helper's `warpSize == 32` is device code (quiet).
// - nWarps = (n + 31) / 32 sizes the cudaMalloc of wavePartialSums, which
//   writes one value per warpSize lanes: a host warp count, filed under
//   W64-WARP-COUNT by the check pages (expect). `(n + 31) / 32 * 32` only
//   rounds an element count up to whole warps (quiet).
// - The launch shapes built with 32 (block `32 * rowsPerBlock`, dynamic shared
//   memory `sizeof(float) * 32 * 4`, grid from `rows * 32u` threads) and the
//   constant block of 160 are W64-BLOCK-SIZE, a note-only check: labelled
//   `note:`. `4 * prop.warpSize` and the 32 x 8 transpose block (256
//   threads, a kernel without shuffles) stay quiet.
// Convention pass (round 8): no labels were added or changed. The file has
// no named warp-size constant or mask, and every *_sync call takes
// __activemask() (quiet by W64-MASK32's rules); host counts held in local
// variables are findings at the 32 that computes them, not at their uses.
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdio>
#include <vector>

__device__ __forceinline__ int vectorWidth() { return warpSize == 32 ? 4 : 2; }   // quiet: W64-HOST-WARP-SIZE

// One partial sum per warp of warpSize lanes.
__global__ void wavePartialSums(const float* __restrict__ in, float* __restrict__ partial, int n) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int wave = gid / warpSize;
  const int lane = threadIdx.x % warpSize;
  float v = gid < n ? in[gid] : 0.f;
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(__activemask(), v, o);
  if (lane == 0) partial[wave] = v;
}

// Row scaling by the inverse RMS, one warp per row.
__global__ void rowRmsScale(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
  const int rowsPerBlock = blockDim.x / warpSize;
  const int row = blockIdx.x * rowsPerBlock + threadIdx.x / warpSize;
  const int lane = threadIdx.x % warpSize;
  if (row >= rows) return;
  const float* xr = x + static_cast<size_t>(row) * cols;
  float ss = 0.f;
  for (int c = lane; c < cols; c += warpSize) ss += xr[c] * xr[c];
  for (int o = warpSize / 2; o > 0; o /= 2) ss += __shfl_xor_sync(__activemask(), ss, o);
  const float inv = rsqrtf(ss / cols + 1e-6f);
  for (int c = lane * vectorWidth(); c < cols; c += warpSize * vectorWidth())
    for (int k = 0; k < vectorWidth() && c + k < cols; ++k) y[static_cast<size_t>(row) * cols + c + k] = xr[c + k] * inv;
}

// Row maximum staged through shared memory; the block is one warp.
template <int kPerLane>
__global__ void stageRowMax(const float* __restrict__ x, float* __restrict__ rowMax, int cols) {
  extern __shared__ float stage[];
  const int lane = threadIdx.x;
  const float* xr = x + static_cast<size_t>(blockIdx.x) * cols;
#pragma unroll
  for (int j = 0; j < kPerLane; ++j) {
    const int c = lane + j * warpSize;
    stage[lane * kPerLane + j] = c < cols ? xr[c] : -FLT_MAX;
  }
  __syncwarp();
  float m = -FLT_MAX;
  for (int j = 0; j < kPerLane; ++j) m = fmaxf(m, stage[lane * kPerLane + j]);
  for (int o = warpSize / 2; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(__activemask(), m, o));
  if (lane == 0) rowMax[blockIdx.x] = m;
}

// Maximum of each segment of `len` values, one warp per segment.
__global__ void segmentMax(const float* __restrict__ v, float* __restrict__ segMax, int len, int nSeg) {
  const int seg = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  const int lane = threadIdx.x % warpSize;
  if (seg >= nSeg) return;
  float m = -FLT_MAX;
  for (int i = lane; i < len; i += warpSize) m = fmaxf(m, v[static_cast<size_t>(seg) * len + i]);
  for (int o = warpSize / 2; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(__activemask(), m, o));
  if (lane == 0) segMax[seg] = m;
}

// 1D 5-point stencil with a shared halo.
constexpr int kRadius = 2;
__global__ void stencil1d(const float* __restrict__ in, float* __restrict__ out, int n) {
  extern __shared__ float halo[];
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int l = threadIdx.x + kRadius;
  halo[l] = g < n ? in[g] : 0.f;
  if (threadIdx.x < kRadius) {
    halo[l - kRadius] = g >= kRadius ? in[g - kRadius] : 0.f;
    const int r = g + blockDim.x;
    halo[l + blockDim.x] = r < n ? in[r] : 0.f;
  }
  __syncthreads();
  if (g < n) {
    float s = 0.f;
    for (int k = -kRadius; k <= kRadius; ++k) s += halo[l + k];
    out[g] = s / (2 * kRadius + 1);
  }
}

// Transpose through 32 x 32 tiles, 32 x 8 threads per block.
__global__ void transpose32(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  __shared__ float t[32][33];
  const int c = blockIdx.x * 32 + threadIdx.x, r0 = blockIdx.y * 32;
  for (int j = threadIdx.y; j < 32; j += blockDim.y)
    if (c < cols && r0 + j < rows) t[j][threadIdx.x] = in[static_cast<size_t>(r0 + j) * cols + c];
  __syncthreads();
  const int oc = r0 + threadIdx.x, or0 = blockIdx.x * 32;
  for (int j = threadIdx.y; j < 32; j += blockDim.y)
    if (oc < rows && or0 + j < cols) out[static_cast<size_t>(or0 + j) * rows + oc] = t[threadIdx.x][j];
}

static int lanesPerWarp(int dev) {
  int w = 0;
  cudaDeviceGetAttribute(&w, cudaDevAttrWarpSize, dev);
  return w;
}

int runPipeline(const float* hx, int rows, int cols, int rowsPerBlock, int segLen) {
  int dev = 0;
  cudaGetDevice(&dev);
  if (lanesPerWarp(dev) != 32)                                            // expect: W64-HOST-WARP-SIZE
    std::fprintf(stderr, "note: kernels were tuned for 32-lane warps\n");
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  const cudaDeviceProp* info = &prop;
  const bool manySMs = info->multiProcessorCount >= 32;                   // quiet: W64-HOST-WARP-SIZE

  const int n = rows * cols;
  float *dx = nullptr, *dy = nullptr, *dpart = nullptr, *dmax = nullptr, *dseg = nullptr;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice);

  // One partial per warp, summed on the host.
  const int nWarps = (n + 31) / 32;                                       // expect: W64-WARP-COUNT
  cudaMalloc(&dpart, nWarps * sizeof(float));
  wavePartialSums<<<(n + 255) / 256, 256>>>(dx, dpart, n);
  std::vector<float> part(nWarps);
  cudaMemcpy(part.data(), dpart, nWarps * sizeof(float), cudaMemcpyDeviceToHost);
  double total = 0.0;
  for (float p : part) total += p;

  // Output padded to whole warps of columns.
  const size_t padded = (static_cast<size_t>(n) + 31) / 32 * 32;         // quiet: W64-WARP-COUNT
  cudaMalloc(&dy, padded * sizeof(float));
  const int threads = 32 * rowsPerBlock;                                  // note: W64-BLOCK-SIZE
  const int blocks = (rows + rowsPerBlock - 1) / rowsPerBlock;
  rowRmsScale<<<blocks, threads>>>(dx, dy, rows, cols);
  rowRmsScale<<<(rows + 3) / 4, 4 * prop.warpSize>>>(dx, dy, rows, cols);   // quiet: W64-BLOCK-SIZE

  cudaMalloc(&dmax, rows * sizeof(float));
  const size_t shBytes = sizeof(float) * 32 * 4;                          // note: W64-BLOCK-SIZE
  if (info->warpSize == 32)                                               // expect: W64-HOST-WARP-SIZE
    stageRowMax<4><<<rows, prop.warpSize, shBytes>>>(dx, dmax, cols);
  else
    stageRowMax<2><<<rows, prop.warpSize, shBytes / 2>>>(dx, dmax, cols);

  const int nSeg = n / segLen;
  cudaMalloc(&dseg, nSeg * sizeof(float));
  const unsigned segThreads = static_cast<unsigned>(nSeg) * 32u;          // note: W64-BLOCK-SIZE
  const unsigned segBlocks = (segThreads + 255u) / 256u;
  segmentMax<<<segBlocks, manySMs ? 256 : 128>>>(dx, dseg, segLen, nSeg);

  stencil1d<<<(n + 159) / 160, 160, (160 + 2 * kRadius) * sizeof(float)>>>(dx, dy, n);   // note: W64-BLOCK-SIZE

  dim3 block(32, 8);                                                      // quiet: W64-BLOCK-SIZE
  dim3 grid((cols + 31) / 32, (rows + 31) / 32);
  transpose32<<<grid, block>>>(dx, dy, rows, cols);

  cudaDeviceSynchronize();
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dpart);
  cudaFree(dmax);
  cudaFree(dseg);
  return total > 0.0 ? 0 : 1;
}
