// Held out, round 9. Cause 3: host code.
// Domains: Monte Carlo option pricing, image histogram equalization.
// The kernels number their lanes and warps by warpSize (they are per-wavefront
// code); the 32s are on the host.
// Ambiguous calls (labelled from the check pages, never checked with the tool):
// - WARP_SIZE is used only on the host, in a shared-memory size
//   (`threads / WARP_SIZE` histograms): LANE-MATH at the definition, and
//   WARP-COUNT (a host warp count) at the use.
// - `threads = 32 * warpsPerBlock` with a runtime warpsPerBlock: a launch shape
//   computed with 32 (BLOCK-SIZE at the 32). The launch itself has no 32.
// - `totalWarps = blocks * threads / 32` sizes the cudaMalloc'd per-warp
//   partials that mcPartials writes one per warpSize lanes (WARP-COUNT).
// - `4 * 32` threads for mcPartials (shuffles, splits by warpSize): a constant
//   block of whole wavefronts built from 32s (BLOCK-SIZE).
// - runLut<160>: a template block size no multiple of 64; labelled at the point
//   of instantiation and at the launch in the template (its related location).
//   runLut<256> is quiet.
// - kTunedFor = 32 (a name that says nothing of warps) compared with the
//   device's warp size: the finding is at the comparison; the definition is
//   unlabelled.
// - queryWarp() returns the attribute; `queryWarp(dev) <= 32` is a test of the
//   warp size against 32 through a call.
// - Hard negatives: `(w + 31) / 32` blocks (a 32 that only divides), a
//   cudaMalloc of 32 * n bytes that never reaches a launch, the device-side
//   assert on warpSize, a launch shape built from prop.warpSize, a comparison
//   of the SM count with 32, and sizeof(unsigned) * 8 bits.
#include <cuda_runtime.h>
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define WARP_SIZE 32                                                              // expect: W64-LANE-MATH

// Each warp simulates `pathsPerLane * warpSize` paths of one option and writes
// one partial sum per warp.
__global__ void mcPartials(const float* __restrict__ spot, const float* __restrict__ strike, int numOptions,
                           int pathsPerLane, float rate, float vol, float T, float* __restrict__ partials) {
  assert(warpSize == 32 || warpSize == 64);                                       // quiet: W64-HOST-WARP-SIZE
  const int lane = threadIdx.x % warpSize;
  const int gw = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  const int opt = gw % numOptions;
  const float drift = (rate - 0.5f * vol * vol) * T, diff = vol * sqrtf(T);
  uint32_t s = 0x9E3779B9u ^ (gw * 747796405u + lane * 2891336453u);
  float acc = 0.f;
  for (int p = 0; p < pathsPerLane; ++p) {
    s = s * 1664525u + 1013904223u; const float u1 = (s >> 8) * (1.f / 16777216.f) + 1e-7f;
    s = s * 1664525u + 1013904223u; const float u2 = (s >> 8) * (1.f / 16777216.f);
    const float z = sqrtf(-2.f * logf(u1)) * cospif(2.f * u2);
    acc += fmaxf(spot[opt] * expf(drift + diff * z) - strike[opt], 0.f);
  }
  for (int o = warpSize / 2; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);   // expect: W64-MASK32
  if (lane == 0) partials[gw] = acc;
}

// Per-warp privatised 256-bin histograms in dynamic shared memory.
__global__ void histPerWarp(const uint8_t* __restrict__ img, int n, unsigned* __restrict__ hist) {
  extern __shared__ unsigned sh[];
  const int warp = threadIdx.x / warpSize, nWarps = blockDim.x / warpSize;
  for (int i = threadIdx.x; i < nWarps * 256; i += blockDim.x) sh[i] = 0u;
  __syncthreads();
  unsigned* mine = sh + warp * 256;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&mine[img[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    unsigned s = 0;
    for (int w = 0; w < nWarps; ++w) s += sh[w * 256 + b];
    atomicAdd(&hist[b], s);
  }
}

// Equalization LUT from the histogram: a serial CDF by thread 0, bins filled by the block.
template <int kBlock>
__global__ void lutKernel(const unsigned* __restrict__ hist, int n, uint8_t* __restrict__ lut) {
  __shared__ unsigned cdf[256];
  __shared__ unsigned cdfMin;
  if (threadIdx.x == 0) {
    unsigned run = 0; cdfMin = 0;
    for (int b = 0; b < 256; ++b) { run += hist[b]; cdf[b] = run; if (!cdfMin && run) cdfMin = run; }
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += kBlock) {
    const float den = fmaxf(1.f, static_cast<float>(n - cdfMin));
    lut[b] = static_cast<uint8_t>(fminf(255.f, roundf((cdf[b] - cdfMin) * 255.f / den)));
  }
}

__global__ void applyLut(const uint8_t* __restrict__ img, const uint8_t* __restrict__ lut, uint8_t* __restrict__ out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[static_cast<size_t>(y) * w + x] = lut[img[static_cast<size_t>(y) * w + x]];
}

template <int kBlock>
void runLut(const unsigned* hist, int n, uint8_t* lut) {
  lutKernel<kBlock><<<1, kBlock>>>(hist, n, lut);                                 // expect: W64-BLOCK-SIZE
}

static int queryWarp(int dev) {
  int ws = 0;
  cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, dev);
  return ws;
}

constexpr int kTunedFor = 32;

int main(int argc, char** argv) {
  const int dev = 0;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  if (prop.warpSize != 32) { fprintf(stderr, "kernels tuned for 32-thread warps\n"); return 1; }   // expect: W64-HOST-WARP-SIZE
  const bool narrowWarps = queryWarp(dev) <= 32;                                  // expect: W64-HOST-WARP-SIZE
  const int devWarp = prop.warpSize;
  if (devWarp != kTunedFor) printf("note: launch shapes were tuned for %d lanes\n", kTunedFor);   // expect: W64-HOST-WARP-SIZE
  if (prop.multiProcessorCount < 32) printf("small device: %d SMs\n", prop.multiProcessorCount);   // quiet: W64-HOST-WARP-SIZE

  // Monte Carlo: one warp per option and replica.
  const int numOptions = 1000, replicas = 16, pathsPerLane = 256;
  const int warpsPerBlock = argc > 1 ? atoi(argv[1]) : 4;
  const int threads = 32 * warpsPerBlock;                                         // expect: W64-BLOCK-SIZE
  const int blocks = (numOptions * replicas + warpsPerBlock - 1) / warpsPerBlock;
  const int totalWarps = blocks * threads / 32;                                   // expect: W64-WARP-COUNT
  float *dSpot, *dStrike, *dPartials;
  cudaMalloc(&dSpot, numOptions * sizeof(float));
  cudaMalloc(&dStrike, numOptions * sizeof(float));
  cudaMalloc(&dPartials, totalWarps * sizeof(float));
  std::vector<float> hSpot(numOptions, 100.f), hStrike(numOptions);
  for (int i = 0; i < numOptions; ++i) hStrike[i] = 80.f + 0.04f * i;
  cudaMemcpy(dSpot, hSpot.data(), numOptions * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dStrike, hStrike.data(), numOptions * sizeof(float), cudaMemcpyHostToDevice);
  mcPartials<<<blocks, threads>>>(dSpot, dStrike, numOptions, pathsPerLane, 0.03f, 0.2f, 1.f, dPartials);
  if (!narrowWarps) mcPartials<<<(numOptions + 3) / 4, 4 * 32>>>(dSpot, dStrike, numOptions, pathsPerLane, 0.03f, 0.2f, 1.f, dPartials);   // expect: W64-BLOCK-SIZE
  const int wideThreads = prop.warpSize * warpsPerBlock;
  mcPartials<<<blocks, wideThreads>>>(dSpot, dStrike, numOptions, pathsPerLane, 0.03f, 0.2f, 1.f, dPartials);   // quiet: W64-BLOCK-SIZE
  std::vector<float> hPartials(totalWarps);
  cudaMemcpy(hPartials.data(), dPartials, totalWarps * sizeof(float), cudaMemcpyDeviceToHost);
  std::vector<double> price(numOptions, 0.0);
  for (int w = 0; w < totalWarps; ++w) price[w % numOptions] += hPartials[w];
  printf("price[0] = %f\n", price[0] * expf(-0.03f) / (replicas * pathsPerLane * devWarp));

  // Histogram equalization of a w x h 8-bit image.
  const int w = 1920, h = 1080, n = w * h;
  uint8_t *dImg, *dOut, *dLut;
  unsigned *dHist, *dScratch;
  cudaMalloc(&dImg, n);
  cudaMalloc(&dOut, n);
  cudaMalloc(&dLut, 256);
  cudaMalloc(&dHist, 256 * sizeof(unsigned));
  cudaMalloc(&dScratch, 32 * static_cast<size_t>(n) / 8);                         // quiet: W64-BLOCK-SIZE
  cudaMemset(dImg, 7, n);
  cudaMemset(dHist, 0, 256 * sizeof(unsigned));
  const int histThreads = 256;
  const size_t histSmem = 256 * sizeof(unsigned) * (histThreads / WARP_SIZE);     // expect: W64-WARP-COUNT
  histPerWarp<<<2 * prop.multiProcessorCount, histThreads, histSmem>>>(dImg, n, dHist);
  runLut<160>(dHist, n, dLut);                                                    // expect: W64-BLOCK-SIZE
  runLut<256>(dHist, n, dLut);                                                    // quiet: W64-BLOCK-SIZE
  const dim3 tb(32, 8);                                                           // quiet: W64-BLOCK-SIZE
  const dim3 grid((w + 31) / 32, (h + 7) / 8);                                    // quiet: W64-BLOCK-SIZE
  applyLut<<<grid, tb>>>(dImg, dLut, dOut, w, h);
  const size_t bitsPerWord = sizeof(unsigned) * 8;                                // quiet: W64-BLOCK-SIZE
  printf("bitmap words for the image: %zu\n", (static_cast<size_t>(n) + bitsPerWord - 1) / bitsPerWord);
  cudaDeviceSynchronize();
  cudaFree(dSpot); cudaFree(dStrike); cudaFree(dPartials);
  cudaFree(dImg); cudaFree(dOut); cudaFree(dLut); cudaFree(dHist); cudaFree(dScratch);
  return 0;
}
