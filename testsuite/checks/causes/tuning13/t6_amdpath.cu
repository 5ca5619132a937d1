// Tuning round 13. Cause 6: a project that carries its own AMD path.
// Domains: lattice Boltzmann D2Q9 (BGK collision with a per-wavefront mass
// reduction, halo packing one wavefront per population, solid-node counts,
// an equilibrium initialisation), Huffman decoding of independently coded
// chunks (a lane per chunk, output offsets from a scan over the lanes).
// The LBM module defines its wavefront width, full mask and lane-mask type per
// platform under __HIP_PLATFORM_AMD__; the Huffman module has a project macro
// of its own (HUFF_USE_ROCM, which also pulls in the HIP header).
// Ambiguous calls (labelled from the check pages only, never run):
// - HUFF_LANES 32 sits in the branch that the project macro removes: the
//   pages say such a finding names the -D flag, so it is read as reported
//   (expect at the definition, W64-LANE-MATH: its first use is lane math)
//   and each use labelled at its own line.
// - lbmPackHalo numbers its lanes by kWaveLanes, defined only in the CUDA
//   branch: that lane is the wavefront's, and its literal stride of 32 is
//   reported (the pages' rule for such constants).
// - `#if !defined(__HIP_PLATFORM_AMD__)` around a host warp-size test is a
//   branch the AMD compile drops: quiet; the same test outside it is not.
// - smId's `%smid` under `#ifdef __CUDA_ARCH__` is a device-pass branch the
//   AMD compile takes: an error (any PTX there), labelled expect. fastExp2's
//   PTX under `#if __CUDA_ARCH__ >= 700` is a value test: quiet.
// - the lane-mask typedef of the CUDA branch is labelled quiet at its
//   declaration and at the ballots stored through it.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#if defined(__HIP_PLATFORM_AMD__)
#define LBM_WAVE 64
#define LBM_ALL_LANES 0xffffffffffffffffull
typedef unsigned long long lbm_lanemask_t;
constexpr int kWaveLanes = 64;
#else
#define LBM_WAVE 32                                                                       // quiet: W64-LANE-MATH
#define LBM_ALL_LANES 0xffffffffu                                                         // quiet: W64-MASK32
typedef unsigned int lbm_lanemask_t;                                                      // quiet: W64-BALLOT-NARROW
constexpr int kWaveLanes = 32;                                                            // quiet: W64-LANE-MATH
#endif

#ifdef HUFF_USE_ROCM
#include <hip/hip_runtime.h>
#define HUFF_LANES 64
#else
#define HUFF_LANES 32                                                                     // expect: W64-LANE-MATH
#endif

__constant__ int c_cx[9] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
__constant__ int c_cy[9] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
__constant__ float c_w[9] = {4.f / 9, 1.f / 9, 1.f / 9, 1.f / 9, 1.f / 9, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36};

__device__ __forceinline__ int laneCount(lbm_lanemask_t m) {
#if defined(__HIP_PLATFORM_AMD__)
  return __popcll(m);
#else
  return __popc(m);                                                                       // quiet: W64-BALLOT-NARROW
#endif
}

__device__ __forceinline__ unsigned laneId() {
#if defined(__HIP_PLATFORM_AMD__)
  return __lane_id();
#else
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));                                       // quiet: W64-INLINE-PTX
  return id;
#endif
}

__device__ __forceinline__ unsigned smId() {
  unsigned id = 0;
#ifdef __CUDA_ARCH__
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));                                         // expect: W64-INLINE-PTX
#endif
  return id;
}

__device__ __forceinline__ float fastExp2(float x) {
  float y;
#if __CUDA_ARCH__ >= 700
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));                                   // quiet: W64-INLINE-PTX
#else
  y = exp2f(x);
#endif
  return y;
}

// BGK collision; each wavefront sums its cells' density, one slot per wavefront.
__global__ void __launch_bounds__(256)
lbmCollide(float* __restrict__ f, int nCells, float omega, float* __restrict__ blockMass) {
  __shared__ float part[256 / LBM_WAVE];                                                  // quiet: W64-WARP-COUNT
  const int lane = threadIdx.x % LBM_WAVE;                                                // quiet: W64-LANE-MATH
  const int wave = threadIdx.x / LBM_WAVE;                                                // quiet: W64-LANE-MATH
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float rho = 0.f;
  if (i < nCells) {
    float fi[9], ux = 0.f, uy = 0.f;
    for (int q = 0; q < 9; ++q) {
      fi[q] = f[static_cast<size_t>(q) * nCells + i];
      rho += fi[q];
      ux += c_cx[q] * fi[q];
      uy += c_cy[q] * fi[q];
    }
    ux /= rho;
    uy /= rho;
    const float uu = ux * ux + uy * uy;
    for (int q = 0; q < 9; ++q) {
      const float cu = c_cx[q] * ux + c_cy[q] * uy;
      const float feq = c_w[q] * rho * (1.f + 3.f * cu + 4.5f * cu * cu - 1.5f * uu);
      f[static_cast<size_t>(q) * nCells + i] = fi[q] - omega * (fi[q] - feq);
    }
  }
  for (int o = LBM_WAVE / 2; o > 0; o >>= 1) rho += __shfl_down_sync(LBM_ALL_LANES, rho, o);   // quiet: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) part[wave] = rho;
  __syncthreads();
  if (wave == 0) {
    float m = lane < blockDim.x / LBM_WAVE ? part[lane] : 0.f;                            // quiet: W64-WARP-COUNT
    for (int o = LBM_WAVE / 2; o > 0; o >>= 1) m += __shfl_down_sync(LBM_ALL_LANES, m, o);    // quiet: W64-SHFL-OFFSET, W64-MASK32
    if (lane == 0) blockMass[blockIdx.x] = m;
  }
}

// Halo rows of each population, one wavefront per population.
__global__ void lbmPackHalo(const float* __restrict__ f, int nx, int ny, float* __restrict__ halo) {
  const int lane = threadIdx.x % kWaveLanes;                                              // quiet: W64-LANE-MATH
  const int q = (blockIdx.x * blockDim.x + threadIdx.x) / kWaveLanes;                     // quiet: W64-LANE-MATH
  if (q >= 9) return;
  const float* fq = f + static_cast<size_t>(q) * nx * ny;
  for (int x = lane; x < nx; x += 32) {                                                   // expect: W64-LANE-MATH
    halo[q * 2 * nx + x] = fq[x];
    halo[q * 2 * nx + nx + x] = fq[static_cast<size_t>(ny - 1) * nx + x];
  }
}

// Solid nodes per grid, one ballot per wavefront.
__global__ void lbmCountSolid(const uint8_t* __restrict__ solid, int nCells, int* __restrict__ count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const lbm_lanemask_t s = __ballot_sync(LBM_ALL_LANES, i < nCells && solid[i]);          // quiet: W64-BALLOT-NARROW, W64-MASK32
  if (laneId() == 0) atomicAdd(count, laneCount(s));
}

// Equilibrium at rest with a barometric density profile along y.
__global__ void lbmInitEquilibrium(float* __restrict__ f, int nx, int ny, float rho0, float k) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nx * ny) return;
  const float rho = rho0 * fastExp2(-k * static_cast<float>(i / nx));
  for (int q = 0; q < 9; ++q) f[static_cast<size_t>(q) * nx * ny + i] = c_w[q] * rho;
}

// Huffman: a lane decodes one chunk (bit offsets from the encoder's index),
// the lanes' symbol counts are scanned for the output offsets.
__global__ void huffDecodeChunks(const uint32_t* __restrict__ bits, const uint32_t* __restrict__ chunkBeg,
                                 const uint32_t* __restrict__ chunkEnd, const uint16_t* __restrict__ lut, int lutBits,
                                 int nChunks, const int* __restrict__ groupBase, uint16_t* __restrict__ out,
                                 int* __restrict__ groupCount, int* __restrict__ overflow, int* __restrict__ smLoad) {
  const int lane = threadIdx.x % HUFF_LANES;                                              // expect: W64-LANE-MATH
  const int group = (blockIdx.x * blockDim.x + threadIdx.x) / HUFF_LANES;                 // expect: W64-LANE-MATH
  const int chunk = group * HUFF_LANES + lane;                                            // expect: W64-LANE-MATH
  uint16_t local[16];
  int n = 0;
  if (chunk < nChunks) {
    uint32_t pos = chunkBeg[chunk];
    const uint32_t end = chunkEnd[chunk];
    while (pos < end && n < 16) {
      const uint32_t w = pos >> 5, sh = pos & 31;                                           // quiet: W64-LANE-MATH
      const uint64_t win = ((static_cast<uint64_t>(bits[w + 1]) << 32) | bits[w]) >> sh;
      const uint16_t e = lut[win & ((1u << lutBits) - 1u)];
      local[n++] = e >> 4;
      pos += e & 15u;
    }
  }
  const lbm_lanemask_t spill = __ballot_sync(LBM_ALL_LANES, n == 16);                     // quiet: W64-BALLOT-NARROW, W64-MASK32
  if (lane == 0 && spill) atomicAdd(overflow, laneCount(spill));
  int incl = n;
  for (int d = 1; d < HUFF_LANES; d <<= 1) {                                              // expect: W64-SHFL-OFFSET
    const int up = __shfl_up_sync(0xffffffffu, incl, d);                                  // expect: W64-MASK32
    if (lane >= d) incl += up;
  }
  const int base = groupBase[group] + incl - n;
  for (int j = 0; j < n; ++j) out[base + j] = local[j];
  if (lane == HUFF_LANES - 1) groupCount[group] = incl;                                   // expect: W64-LANE-MATH
  if (lane == 0) atomicAdd(&smLoad[smId() & 255], 1);
}

int main(int argc, char** argv) {
  const int nx = 512, ny = 512, nCells = nx * ny, nChunks = argc > 1 ? atoi(argv[1]) : 1 << 16;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  if (prop.warpSize != kWaveLanes) {                                                      // quiet: W64-HOST-WARP-SIZE
    std::fprintf(stderr, "built for %d-lane wavefronts, device has %d\n", kWaveLanes, prop.warpSize);
    return 1;
  }
#if !defined(__HIP_PLATFORM_AMD__)
  if (prop.warpSize == 32) std::puts("CUDA build: 32-lane decode groups");                // quiet: W64-HOST-WARP-SIZE
#endif
  const bool narrowGroups = prop.warpSize == 32;                                          // expect: W64-HOST-WARP-SIZE

  float *f, *halo, *mass;
  uint8_t* solid;
  uint32_t *bits, *cbeg, *cend;
  uint16_t *lut, *out;
  int *count, *gbase, *gcount, *overflow, *smLoad;
  cudaMalloc(&f, sizeof(float) * 9 * nCells);
  cudaMalloc(&halo, sizeof(float) * 9 * 2 * nx);
  cudaMalloc(&mass, sizeof(float) * (nCells / 256 + 1));
  cudaMalloc(&solid, nCells);
  cudaMalloc(&count, sizeof(int));
  cudaMalloc(&bits, sizeof(uint32_t) * (nChunks * 8 + 2));
  cudaMalloc(&cbeg, sizeof(uint32_t) * nChunks);
  cudaMalloc(&cend, sizeof(uint32_t) * nChunks);
  cudaMalloc(&lut, sizeof(uint16_t) << 12);
  cudaMalloc(&out, sizeof(uint16_t) * nChunks * 16);
  cudaMalloc(&gbase, sizeof(int) * nChunks);
  cudaMalloc(&gcount, sizeof(int) * nChunks);
  cudaMalloc(&overflow, sizeof(int));
  cudaMalloc(&smLoad, sizeof(int) * 256);

  lbmInitEquilibrium<<<(nCells + 255) / 256, 256>>>(f, nx, ny, 1.f, 1e-3f);
  lbmCollide<<<(nCells + 255) / 256, 256>>>(f, nCells, 1.6f, mass);
  const int waveThreads = kWaveLanes * 4;                                                 // quiet: W64-BLOCK-SIZE
  lbmPackHalo<<<3, waveThreads>>>(f, nx, ny, halo);
  lbmCountSolid<<<(nCells + 255) / 256, 256>>>(solid, nCells, count);
  huffDecodeChunks<<<(nChunks + 255) / 256, 256>>>(bits, cbeg, cend, lut, 12, nChunks, gbase, out, gcount,
                                                   overflow, smLoad);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("%s%s\n", narrowGroups ? "[32] " : "", cudaGetErrorString(err));
  cudaFree(f); cudaFree(halo); cudaFree(mass); cudaFree(solid); cudaFree(count); cudaFree(bits);
  cudaFree(cbeg); cudaFree(cend); cudaFree(lut); cudaFree(out); cudaFree(gbase); cudaFree(gcount);
  cudaFree(overflow); cudaFree(smLoad);
  return 0;
}
