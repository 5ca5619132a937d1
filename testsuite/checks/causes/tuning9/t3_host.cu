// Tuning round 9. Cause 3: host code.
// An inference runtime's host side: device checks, launch planning for
// kernels that work per wavefront (they read warpSize), scratch buffers.
// Ambiguous calls and why they are labelled as they are:
// - requireDevice / pickReducePath / logDevice compare the device's warp
//   size with 32 three ways: `prop.warpSize != 32`, a helper whose every
//   return is `p.warpSize` (`laneWidth(dev) == 32`), and an attribute read
//   compared with a constant of another name (`kNvWidth`, 32): HOST-WARP-SIZE
//   at each comparison. `kNvWidth`'s own line stays unlabelled (a host
//   constant with no warp name and no shuffle near it). `prop.warpSize > 64`
//   and device code testing `warpSize == 32` are quiet.
// - planRows: `32 * rowsPerBlock` (a parameter times 32) flows into the block
//   size of rowL2, a kernel that splits its rows by warpSize (expect
//   BLOCK-SIZE at the 32); the grid line divides only (quiet).
// - planAttention: `threads / 32` is a host warp count of a block-size name
//   that sizes the dynamic shared memory: WARP-COUNT (host warp counts are
//   filed there, see causes README on heldout2 h3:29); it only divides, so no
//   BLOCK-SIZE. `rows * 32u` feeds the grid through a second local (expect
//   BLOCK-SIZE).
// - reduceAll: `n / 32` sizes a cudaMalloc buffer that the same function
//   hands to blockPartials, which shuffles and numbers its warps by
//   warpSize: WARP-COUNT. `(n + 255) / 256` and `32 * n` bytes of a buffer
//   that never reaches a launch are quiet.
// - Constant block sizes: `<<<g, 96>>>`, `dim3(32, 3)` and the instantiation
//   `runScan<96>` (reported where the argument is written) expect; 256,
//   `dim3(32, 6)` (192) and `4 * 32` for a kernel without warp work quiet.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstddef>

// ---------------------------------------------------------------- device

__device__ __forceinline__ float waveSum(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down_sync(__activemask(), v, o);
  return v;
}

// One wavefront per row: lanes by warpSize, rows per block from blockDim.
__global__ void rowL2(const float* __restrict__ x, float* __restrict__ out, int rows, int dim) {
  const int lane = threadIdx.x % warpSize;
  const int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= rows) return;
  float s = 0.f;
  for (int j = lane; j < dim; j += warpSize) s += x[static_cast<size_t>(row) * dim + j] * x[static_cast<size_t>(row) * dim + j];
  s = waveSum(s);
  if (lane == 0) out[row] = sqrtf(s);
}

// Attention scores with a per-wavefront slice of dynamic shared memory.
__global__ void attnScores(const float* __restrict__ q, const float* __restrict__ k,
                           float* __restrict__ s, int rows, int dim) {
  extern __shared__ float slice[];
  const int lane = threadIdx.x % warpSize;
  const int wave = threadIdx.x / warpSize;
  const int row = blockIdx.x * (blockDim.x / warpSize) + wave;
  if (row >= rows) return;
  float* mine = slice + static_cast<size_t>(wave) * dim;
  for (int j = lane; j < dim; j += warpSize) mine[j] = q[j];
  __syncwarp();
  // Two columns per lane on 32-lane warps, one on wider wavefronts.
  const int step = (warpSize == 32) ? 2 : 1;                                  // quiet: W64-HOST-WARP-SIZE
  const float* kr = k + static_cast<size_t>(row) * dim;
  float acc = 0.f;
  for (int j = lane * step; j < dim; j += warpSize * step) {
    acc += mine[j] * kr[j];
    if (step == 2 && j + 1 < dim) acc += mine[j + 1] * kr[j + 1];
  }
  acc = waveSum(acc);
  if (lane == 0) s[row] = acc;
}

// One partial sum per wavefront, stored at the wavefront's global index.
__global__ void blockPartials(const float* __restrict__ x, float* __restrict__ partial, int n) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = gid < n ? x[gid] : 0.f;
  v = waveSum(v);
  if (threadIdx.x % warpSize == 0) partial[gid / warpSize] = v;
}

template <int kBlock>
__global__ void scanBlocks(const int* __restrict__ in, int* __restrict__ out, int n) {
  __shared__ int buf[kBlock];
  const int i = blockIdx.x * kBlock + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int d = 1; d < kBlock; d <<= 1) {
    const int t = threadIdx.x >= d ? buf[threadIdx.x - d] : 0;
    __syncthreads();
    buf[threadIdx.x] += t;
    __syncthreads();
  }
  if (i < n) out[i] = buf[threadIdx.x];
}

__global__ void scaleInPlace(float* __restrict__ x, float a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

__global__ void stencil2d(const float* __restrict__ in, float* __restrict__ out, int nx, int ny) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x <= 0 || y <= 0 || x >= nx - 1 || y >= ny - 1) return;
  const size_t c = static_cast<size_t>(y) * nx + x;
  out[c] = 0.25f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx]);
}

// ------------------------------------------------------------------ host

static int laneWidth(int dev) {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, dev);
  return p.warpSize;
}

constexpr int kNvWidth = 32;

int requireDevice(int dev) {
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, dev) != cudaSuccess) return -1;
  if (prop.major < 7) { fprintf(stderr, "needs sm_70 or newer\n"); return -1; }
  if (prop.warpSize != 32) { fprintf(stderr, "kernels assume 32-lane warps\n"); return -2; }   // expect: W64-HOST-WARP-SIZE
  if (prop.warpSize > 64) return -3;                                          // quiet: W64-HOST-WARP-SIZE
  return 0;
}

enum class ReducePath { Shuffle, Shared };

ReducePath pickReducePath(int dev) {
  return laneWidth(dev) == 32 ? ReducePath::Shuffle : ReducePath::Shared;    // expect: W64-HOST-WARP-SIZE
}

void logDevice(int dev) {
  int ws = 0, sms = 0;
  cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  const bool narrow = (ws == kNvWidth);                                       // expect: W64-HOST-WARP-SIZE
  printf("device %d: %d SMs, warp %d%s\n", dev, sms, ws, narrow ? "" : " (wide)");
}

void planRows(const float* x, float* out, int rows, int dim, int rowsPerBlock, cudaStream_t s) {
  const int threads = 32 * rowsPerBlock;                                      // expect: W64-BLOCK-SIZE
  const int grid = (rows + rowsPerBlock - 1) / rowsPerBlock;                  // quiet: W64-BLOCK-SIZE
  rowL2<<<grid, threads, 0, s>>>(x, out, rows, dim);
}

void planAttention(const float* q, const float* k, float* scores, int rows, int dim, cudaStream_t s) {
  const int threadsPerBlock = 256;
  const int slices = threadsPerBlock / 32;                                    // expect: W64-WARP-COUNT // quiet: W64-BLOCK-SIZE
  const size_t shmem = static_cast<size_t>(slices) * dim * sizeof(float);
  const unsigned lanesNeeded = static_cast<unsigned>(rows) * 32u;             // expect: W64-BLOCK-SIZE
  const unsigned grid = (lanesNeeded + threadsPerBlock - 1) / threadsPerBlock;
  attnScores<<<grid, threadsPerBlock, shmem, s>>>(q, k, scores, rows, dim);
}

float reduceAll(const float* x, int n, cudaStream_t s) {
  const int parts = n / 32;                                                   // expect: W64-WARP-COUNT
  float* partial = nullptr;
  cudaMalloc(&partial, parts * sizeof(float));
  unsigned char* flags = nullptr;
  cudaMalloc(&flags, 32 * static_cast<size_t>(n));                            // quiet: W64-BLOCK-SIZE
  blockPartials<<<(n + 255) / 256, 256, 0, s>>>(x, partial, n);               // quiet: W64-BLOCK-SIZE
  float h = 0.f;
  cudaMemcpyAsync(&h, partial, sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  cudaFree(flags);
  cudaFree(partial);
  return h;
}

template <int kBlock>
void runScan(const int* in, int* out, int n, cudaStream_t s) {
  scanBlocks<kBlock><<<(n + kBlock - 1) / kBlock, kBlock, 0, s>>>(in, out, n);
}

void runAll(float* x, const int* ids, int* pref, int n, int nx, int ny, int dev, cudaStream_t s) {
  if (requireDevice(dev) != 0) return;
  runScan<96>(ids, pref, n, s);                                               // expect: W64-BLOCK-SIZE
  runScan<256>(ids, pref, n, s);                                              // quiet: W64-BLOCK-SIZE
  scaleInPlace<<<(n + 95) / 96, 96, 0, s>>>(x, 0.5f, n);                      // expect: W64-BLOCK-SIZE
  scaleInPlace<<<(n + 127) / 128, 4 * 32, 0, s>>>(x, 2.0f, n);                // quiet: W64-BLOCK-SIZE
  stencil2d<<<dim3((nx + 31) / 32, (ny + 2) / 3), dim3(32, 3), 0, s>>>(x, x, nx, ny);   // expect: W64-BLOCK-SIZE
  stencil2d<<<dim3((nx + 31) / 32, (ny + 5) / 6), dim3(32, 6), 0, s>>>(x, x, nx, ny);   // quiet: W64-BLOCK-SIZE
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  const int perBlock = 4 * prop.warpSize;
  rowL2<<<(ny + 3) / 4, perBlock, 0, s>>>(x, x, ny, nx);                      // quiet: W64-BLOCK-SIZE
  const size_t tileBytes = sizeof(float[32]);                                 // quiet: W64-BLOCK-SIZE
  attnScores<<<ny, perBlock, 4 * tileBytes, s>>>(x, x, x, ny, 32);
}
