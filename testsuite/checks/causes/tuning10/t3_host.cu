// Tuning round 10. Cause 3: host code.
// Row norms for a cosine-similarity search, per-warp hit counters, an
// AQLM-style codebook GEMV with a shared-memory stage, a per-row arg-max
// template and a block reduction, with their launchers and device checks.
// Ambiguous calls (labelled by the check pages):
// - requireWarp32 / pickPath / queryLanes: a warp size from
//   cudaDeviceProp::warpSize, from a local copy of it, and from a helper whose
//   only return is an attribute read, compared with 32 (also written `2 * 16`,
//   an expression that evaluates to 32): warnings. `prop.warpSize == 64` and
//   the device-side `warpSize == 32` stay quiet.
// - launchRowNorms / launchRowNormsFlat: block and grid sizes computed with 32
//   for a kernel that numbers its rows by warpSize (notes at the 32).
//   launchPadded rounds a count to whole warps, `(n + 31) / 32 * 32` (quiet).
// - launchCodebook: the shared-memory bytes `8 * 32 * kRowsPerBlock` (note at
//   the 32) and the constant block `kRowsPerBlock * 32` of whole wavefronts for
//   a kernel that shuffles and splits its work by warpSize (note at the launch).
// - countAboveHost: `(n + 31) / 32` warps sizes a cudaMalloc buffer that
//   countAbove fills one slot per warpSize lanes: WARP-COUNT at the count.
// - launchBlockReduce: a host warps-per-block `threads / 32` (WARP-COUNT).
// - launchArgMax<THREADS>: the instantiation with 96 is reported where the
//   argument is written and lists the launch in the template (both labelled);
//   the 256 instantiation is quiet. launchWithBlock(32 * 3) passes a
//   parameter (not followed, quiet); `<<<1, 1>>>` and dim3(32, 8) are quiet,
//   dim3(16, 6) is a 96-thread block (note).
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <vector>

// ---------------------------------------------------------------------------
// Kernels.
__global__ void rowNorms(const float* __restrict__ a, float* __restrict__ norms, int rows, int cols) {
  const int lane = threadIdx.x % warpSize;
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (row >= rows) return;
  const int unroll = (warpSize == 32) ? 2 : 1;                              // quiet: W64-HOST-WARP-SIZE
  float s = 0.f;
  for (int c = lane; c < cols; c += warpSize * unroll) {
    const float v0 = a[static_cast<size_t>(row) * cols + c];
    s += v0 * v0;
    if (unroll == 2 && c + warpSize < cols) {
      const float v1 = a[static_cast<size_t>(row) * cols + c + warpSize];
      s += v1 * v1;
    }
  }
  for (int o = warpSize / 2; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);   // expect: W64-MASK32
  if (lane == 0) norms[row] = sqrtf(s);
}

__global__ void countAbove(const float* __restrict__ x, float thr, int* __restrict__ warpCounts, int n) {
  const int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  const bool hit = gtid < n && x[gtid] > thr;
  const unsigned long long votes = __ballot_sync(0xffffffffu, hit);         // expect: W64-MASK32
  if (threadIdx.x % warpSize == 0) warpCounts[gtid / warpSize] = __popcll(votes);
}

__global__ void codebookGemv(const uint16_t* __restrict__ codes, const float* __restrict__ book,
                             const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
  extern __shared__ float stage[];
  const int lane = threadIdx.x % warpSize;
  const int wave = threadIdx.x / warpSize;
  const int row = blockIdx.x * (blockDim.x / warpSize) + wave;
  if (row >= rows) return;
  float* mine = stage + wave * warpSize * 8;
  float acc = 0.f;
  for (int c0 = lane * 8; c0 < cols; c0 += warpSize * 8) {
    const uint16_t code = codes[(static_cast<size_t>(row) * cols + c0) / 8];
    for (int e = 0; e < 8; ++e) mine[lane * 8 + e] = book[code * 8 + e];
    for (int e = 0; e < 8 && c0 + e < cols; ++e) acc += mine[lane * 8 + e] * x[c0 + e];
  }
  for (int o = warpSize / 2; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);   // expect: W64-MASK32
  if (lane == 0) y[row] = acc;
}

template <int THREADS>
__global__ void rowArgMax(const float* __restrict__ s, int* __restrict__ idx, int cols) {
  __shared__ float bv[THREADS];
  __shared__ int bi[THREADS];
  const float* r = s + static_cast<size_t>(blockIdx.x) * cols;
  float v = -3.402823466e38f;
  int k = -1;
  for (int c = threadIdx.x; c < cols; c += THREADS)
    if (r[c] > v) { v = r[c]; k = c; }
  bv[threadIdx.x] = v;
  bi[threadIdx.x] = k;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int t = 1; t < THREADS; ++t)
      if (bv[t] > v) { v = bv[t]; k = bi[t]; }
    idx[blockIdx.x] = k;
  }
}

__global__ void blockReduce(const float* __restrict__ in, float* __restrict__ out, int n) {
  extern __shared__ float perWave[];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f;
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);   // expect: W64-MASK32
  if (threadIdx.x % warpSize == 0) perWave[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int w = 0; w < static_cast<int>(blockDim.x / warpSize); ++w) s += perWave[w];
    out[blockIdx.x] = s;
  }
}

__global__ void fillOnes(float* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1.f;
}

__global__ void scaleImage(float* img, int w, int h, float k) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) img[static_cast<size_t>(y) * w + x] *= k;
}

// ---------------------------------------------------------------------------
// Device checks.
static int queryLanes(int dev) {
  int lanes = 0;
  cudaDeviceGetAttribute(&lanes, cudaDevAttrWarpSize, dev);
  return lanes;
}

static bool requireWarp32(int dev) {
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, dev);
  if (prop.warpSize != 32) {                                                // expect: W64-HOST-WARP-SIZE
    std::fprintf(stderr, "device %d: kernels are tuned for 32-thread warps\n", dev);
    return false;
  }
  return true;
}

static int pickPath(int dev) {
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, dev);
  const int ws = prop.warpSize;
  const bool narrow = ws == 32;                                             // expect: W64-HOST-WARP-SIZE
  if (prop.warpSize == 64) return 2;                                        // quiet: W64-HOST-WARP-SIZE
  if (queryLanes(dev) == 2 * 16) return narrow ? 1 : 0;                     // expect: W64-HOST-WARP-SIZE
  return 0;
}

// ---------------------------------------------------------------------------
// Launchers.
void launchRowNorms(const float* a, float* norms, int rows, int cols, int warpsPerBlock, cudaStream_t st) {
  const int threads = 32 * warpsPerBlock;                                   // expect: W64-BLOCK-SIZE
  const int blocks = (rows + warpsPerBlock - 1) / warpsPerBlock;
  rowNorms<<<blocks, threads, 0, st>>>(a, norms, rows, cols);
}

void launchRowNormsFlat(const float* a, float* norms, int rows, int cols) {
  const unsigned totalThreads = static_cast<unsigned>(rows) * 32u;          // expect: W64-BLOCK-SIZE
  const unsigned blocks = (totalThreads + 255u) / 256u;
  rowNorms<<<blocks, 256>>>(a, norms, rows, cols);
}

void launchPadded(float* p, int n) {
  const int padded = (n + 31) / 32 * 32;                                    // quiet: W64-BLOCK-SIZE
  fillOnes<<<padded / 256 + 1, 256>>>(p, n);
}

void launchCodebook(const uint16_t* codes, const float* book, const float* x, float* y, int rows, int cols) {
  constexpr int kRowsPerBlock = 4;
  const size_t stageBytes = sizeof(float) * 8 * 32 * kRowsPerBlock;         // expect: W64-BLOCK-SIZE
  const int grid = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  codebookGemv<<<grid, kRowsPerBlock * 32, stageBytes>>>(codes, book, x, y, rows, cols);   // expect: W64-BLOCK-SIZE
}

int countAboveHost(const float* dX, float thr, int n) {
  const int nWarps = (n + 31) / 32;                                         // expect: W64-WARP-COUNT
  int* dCounts = nullptr;
  cudaMalloc(&dCounts, nWarps * sizeof(int));
  countAbove<<<(n + 255) / 256, 256>>>(dX, thr, dCounts, n);
  std::vector<int> h(nWarps);
  cudaMemcpy(h.data(), dCounts, nWarps * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dCounts);
  int total = 0;
  for (int c : h) total += c;
  return total;
}

void launchBlockReduce(const float* in, float* out, int n, int threadsPerBlock) {
  const int warpsPerBlock = threadsPerBlock / 32;                           // expect: W64-WARP-COUNT
  const int blocks = (n + threadsPerBlock - 1) / threadsPerBlock;
  blockReduce<<<blocks, threadsPerBlock, warpsPerBlock * sizeof(float)>>>(in, out, n);
}

template <int THREADS>
void launchArgMax(const float* s, int* idx, int rows, int cols, cudaStream_t st) {
  rowArgMax<THREADS><<<rows, THREADS, 0, st>>>(s, idx, cols);               // expect: W64-BLOCK-SIZE
}

static void launchWithBlock(float* p, int n, int block) {
  fillOnes<<<(n + block - 1) / block, block>>>(p, n);
}

int main() {
  const int dev = 0;
  if (!requireWarp32(dev)) return 1;
  const int path = pickPath(dev);
  const int rows = 4096, cols = 1024, n = rows * cols;
  float *a = nullptr, *norms = nullptr, *scratch = nullptr;
  int* idx = nullptr;
  cudaMalloc(&a, static_cast<size_t>(n) * sizeof(float));
  cudaMalloc(&norms, rows * sizeof(float));
  cudaMalloc(&scratch, 32 * rows * sizeof(float));                          // quiet: W64-BLOCK-SIZE
  cudaMalloc(&idx, rows * sizeof(int));
  launchWithBlock(a, n, 32 * 3);                                            // quiet: W64-BLOCK-SIZE
  if (path == 1) launchRowNorms(a, norms, rows, cols, 8, 0);
  else launchRowNormsFlat(a, norms, rows, cols);
  launchArgMax<96>(a, idx, rows, cols, 0);                                  // expect: W64-BLOCK-SIZE
  launchArgMax<256>(a, idx, rows, cols, 0);                                 // quiet: W64-BLOCK-SIZE
  fillOnes<<<1, 1>>>(scratch, 1);                                           // quiet: W64-BLOCK-SIZE
  scaleImage<<<dim3(cols / 32, rows / 8), dim3(32, 8)>>>(a, cols, rows, 0.5f);   // quiet: W64-BLOCK-SIZE
  scaleImage<<<dim3(cols / 16, rows / 6 + 1), dim3(16, 6)>>>(a, cols, rows, 2.f); // expect: W64-BLOCK-SIZE
  launchBlockReduce(a, scratch, n, 256);
  std::printf("above: %d\n", countAboveHost(a, 0.5f, n));
  cudaDeviceSynchronize();
  cudaFree(a); cudaFree(norms); cudaFree(scratch); cudaFree(idx);
  return 0;
}
