// Held out, round 11. Cause 3: host code.
// Domains: batched tridiagonal systems by parallel cyclic reduction (PCR), histogram
// equalisation of 8-bit images, Jones-Plassmann graph colouring.
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - solveTridiagonalBatch: `prop.warpSize != 32` is HOST-WARP-SIZE whatever the kernel
//   does. Its launch `4 * 32` is a constant block of whole wavefronts built from 32s for
//   a kernel that divides by 32 itself (pcrSolve32): "the block is right as it is" (quiet).
// - equaliseHistogram: `(threads / 32) * 256 * sizeof(unsigned)` is "threads / 32 in host
//   code", a warp count (WARP-COUNT's first list); the 32 only divides, so it is no
//   BLOCK-SIZE shape even though it reaches the shared-memory argument (quiet).
//   `dim3 block(rowsPerBlock * 32)` is a constant whole-wavefront block built from 32s
//   for heRemapRows, which shuffles and numbers its rows by warpSize (BLOCK-SIZE), and
//   `rowsPerBlock * 32 * kVec` staging bytes reach the launch's shared-memory size
//   (BLOCK-SIZE at the 32).
// - colorGraph: `blocks * threads / 32` sizes a cudaMalloc buffer passed to
//   jpColorRound, which votes and numbers its warps by warpSize (WARP-COUNT, warning).
//   `ws == 32` on the cudaDevAttrWarpSize attribute and `laneWidth(dev) == (1 << 5)`
//   through a helper returning prop.warpSize are HOST-WARP-SIZE.
// - heHistogram's `__match_any_sync(__activemask(), ...)`: the match result in 32 bits,
//   its __ffs and __popc are BALLOT-NARROW; __activemask() is no 32-bit mask (quiet).
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <vector>

constexpr int kVec = 4;

// Tridiagonal systems of exactly 32 unknowns, one warp per system, one row per lane:
// a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i]. Parallel cyclic reduction.
__global__ void pcrSolve32(const float* __restrict__ A, const float* __restrict__ B,
                           const float* __restrict__ C, const float* __restrict__ D, int numSys,
                           float* __restrict__ X) {
  const int lane = threadIdx.x & 31;                                              // expect: W64-LANE-MATH
  const int sys = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;              // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (sys >= numSys) return;
  const int at = sys * 32 + lane;                                                 // expect: W64-LANE-MATH
  float a = A[at], b = B[at], c = C[at], d = D[at];
  for (int s = 1; s < 32; s <<= 1) {                                              // expect: W64-SHFL-OFFSET
    const float am = __shfl_up_sync(0xffffffffu, a, s), bm = __shfl_up_sync(0xffffffffu, b, s), cm = __shfl_up_sync(0xffffffffu, c, s), dm = __shfl_up_sync(0xffffffffu, d, s);   // expect: W64-MASK32
    const float ap = __shfl_down_sync(0xffffffffu, a, s), bp = __shfl_down_sync(0xffffffffu, b, s), cp = __shfl_down_sync(0xffffffffu, c, s), dp = __shfl_down_sync(0xffffffffu, d, s);   // expect: W64-MASK32
    const bool hasLo = lane >= s, hasHi = lane + s < 32;                          // expect: W64-LANE-MATH
    const float k1 = hasLo ? a / bm : 0.f, k2 = hasHi ? c / bp : 0.f;
    a = hasLo ? -am * k1 : 0.f;
    c = hasHi ? -cp * k2 : 0.f;
    b = b - (hasLo ? cm * k1 : 0.f) - (hasHi ? ap * k2 : 0.f);
    d = d - (hasLo ? dm * k1 : 0.f) - (hasHi ? dp * k2 : 0.f);
  }
  X[at] = d / b;
}

// 256-bin histogram with one private copy per warp in dynamic shared memory
// (blockDim.x / warpSize copies); lanes holding the same bin merge their increments.
__global__ void heHistogram(const uint8_t* __restrict__ img, int n, unsigned* __restrict__ hist) {
  extern __shared__ unsigned priv[];
  const int warps = blockDim.x / warpSize;
  const int warp = threadIdx.x / warpSize;
  for (int i = threadIdx.x; i < warps * 256; i += blockDim.x) priv[i] = 0;
  __syncthreads();
  unsigned* h = priv + warp * 256;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const unsigned bin = img[i];
    const unsigned peers = __match_any_sync(__activemask(), bin);                  // expect: W64-BALLOT-NARROW // quiet: W64-MASK32
    const int leader = __ffs(peers) - 1;                                          // expect: W64-BALLOT-NARROW
    if (static_cast<int>(threadIdx.x % warpSize) == leader) atomicAdd(&h[bin], __popc(peers));   // expect: W64-BALLOT-NARROW
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    unsigned s = 0;
    for (int w = 0; w < warps; ++w) s += priv[w * 256 + b];
    atomicAdd(&hist[b], s);
  }
}

// Remap through the equalisation LUT: one warp per image row. Each warp stages
// warpSize * kVec mapped pixels in shared memory so that a lane writes kVec neighbours;
// the row's mean after remapping is kept for exposure statistics.
__global__ void heRemapRows(const uint8_t* __restrict__ src, int width, int height,
                            const uint8_t* __restrict__ lut, uint8_t* __restrict__ dst,
                            float* __restrict__ rowMean) {
  extern __shared__ uint8_t stage[];
  const int lane = threadIdx.x % warpSize;
  const int wib = threadIdx.x / warpSize;
  const int row = blockIdx.x * (blockDim.x / warpSize) + wib;
  if (row >= height) return;
  uint8_t* my = stage + wib * warpSize * kVec;
  const uint8_t* s = src + static_cast<size_t>(row) * width;
  uint8_t* d = dst + static_cast<size_t>(row) * width;
  float sum = 0.f;
  for (int x0 = 0; x0 < width; x0 += warpSize * kVec) {
    for (int k = lane; k < warpSize * kVec; k += warpSize) my[k] = x0 + k < width ? lut[s[x0 + k]] : 0;
    __syncwarp();
    const int x = x0 + lane * kVec;
    for (int k = 0; k < kVec; ++k)
      if (x + k < width) { d[x + k] = my[lane * kVec + k]; sum += my[lane * kVec + k]; }
    __syncwarp();
  }
  for (int o = warpSize / 2; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);   // expect: W64-MASK32
  if (lane == 0) rowMean[row] = sum / width;
}

// Jones-Plassmann round: one warp per uncoloured vertex (grid-stride); the vertex takes
// this round's colour when no neighbour still uncoloured (or coloured in this round)
// has a larger priority. changed[globalWarp] counts the vertices the warp coloured.
__global__ void jpColorRound(const int* __restrict__ rowPtr, const int* __restrict__ col,
                             const uint32_t* __restrict__ prio, int nv, int round,
                             int* __restrict__ color, int* __restrict__ changed) {
  const int gwarp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  const int lane = threadIdx.x % warpSize;
  const int totalWarps = gridDim.x * (blockDim.x / warpSize);
  int did = 0;
  for (int v = gwarp; v < nv; v += totalWarps) {
    if (color[v] >= 0) continue;
    bool beaten = false;
    for (int e = rowPtr[v] + lane; e < rowPtr[v + 1]; e += warpSize) {
      const int u = col[e];
      const int cu = color[u];
      beaten |= (cu < 0 || cu == round) && (prio[u] > prio[v] || (prio[u] == prio[v] && u > v));
    }
    if (!__any_sync(0xffffffffu, beaten)) {                                       // expect: W64-MASK32
      if (lane == 0) color[v] = round;
      ++did;
    }
  }
  if (lane == 0) changed[gwarp] = did;
}

// ---------------------------------------------------------------- host
static int laneWidth(int dev) {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, dev);
  return p.warpSize;
}

bool usePcrPath(int dev) { return laneWidth(dev) == (1 << 5); }                   // expect: W64-HOST-WARP-SIZE

bool solveTridiagonalBatch(const float* dA, const float* dB, const float* dC, const float* dD, int numSys,
                           float* dX, cudaStream_t st) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  if (prop.warpSize != 32) {                                                      // expect: W64-HOST-WARP-SIZE
    std::fprintf(stderr, "pcrSolve32 needs 32-lane warps\n");
    return false;
  }
  pcrSolve32<<<(numSys + 3) / 4, 4 * 32, 0, st>>>(dA, dB, dC, dD, numSys, dX);    // quiet: W64-BLOCK-SIZE
  return cudaGetLastError() == cudaSuccess;
}

void equaliseHistogram(const uint8_t* dImg, int width, int height, uint8_t* dOut, unsigned* dHist,
                       uint8_t* dLut, float* dRowMean, cudaStream_t st) {
  const int n = width * height;
  const int threads = 256;
  const size_t privBytes = (threads / 32) * 256 * sizeof(unsigned);               // expect: W64-WARP-COUNT // quiet: W64-BLOCK-SIZE
  cudaMemsetAsync(dHist, 0, 256 * sizeof(unsigned), st);
  heHistogram<<<120, threads, privBytes, st>>>(dImg, n, dHist);

  std::vector<unsigned> h(256);
  cudaMemcpyAsync(h.data(), dHist, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost, st);
  cudaStreamSynchronize(st);
  unsigned cdfMin = 0;
  for (int b = 0; b < 256 && !cdfMin; ++b) cdfMin = h[b];
  std::vector<uint8_t> lut(256);
  unsigned cdf = 0;
  for (int b = 0; b < 256; ++b) {
    cdf += h[b];
    lut[b] = (cdf <= cdfMin || static_cast<unsigned>(n) == cdfMin)
                 ? 0 : static_cast<uint8_t>(255.0 * (cdf - cdfMin) / (n - cdfMin) + 0.5);
  }
  cudaMemcpyAsync(dLut, lut.data(), 256, cudaMemcpyHostToDevice, st);

  const int rowsPerBlock = 4;
  const dim3 block(rowsPerBlock * 32);                                            // expect: W64-BLOCK-SIZE
  const dim3 grid((height + rowsPerBlock - 1) / rowsPerBlock);
  const size_t stageBytes = static_cast<size_t>(rowsPerBlock) * 32 * kVec;        // expect: W64-BLOCK-SIZE
  heRemapRows<<<grid, block, stageBytes, st>>>(dImg, width, height, dLut, dOut, dRowMean);
}

int colorGraph(const int* dRowPtr, const int* dCol, const uint32_t* dPrio, int nv, int* dColor, int dev,
               cudaStream_t st) {
  int ws = 0;
  cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, dev);
  const bool narrow = (ws == 32);                                                 // expect: W64-HOST-WARP-SIZE
  const int threads = narrow ? 256 : 512;
  const int blocks = 160;
  const int totalWarps = blocks * threads / 32;                                   // expect: W64-WARP-COUNT
  int* dChanged = nullptr;
  cudaMalloc(&dChanged, totalWarps * sizeof(int));
  std::vector<int> changed(totalWarps);
  cudaMemsetAsync(dColor, 0xff, nv * sizeof(int), st);
  int round = 0, colored = 0;
  while (colored < nv) {
    jpColorRound<<<blocks, threads, 0, st>>>(dRowPtr, dCol, dPrio, nv, round, dColor, dChanged);
    cudaMemcpyAsync(changed.data(), dChanged, totalWarps * sizeof(int), cudaMemcpyDeviceToHost, st);
    cudaStreamSynchronize(st);
    for (int w = 0; w < totalWarps; ++w) colored += changed[w];
    ++round;
  }
  cudaFree(dChanged);
  return round;
}
