// Held out, round 12. Cause 3: host code.
// Domains: particle-in-cell (PIC) on a 2-D grid (cloud-in-cell charge deposition with
// per-wavefront energy diagnostics, per-cell moments, field gather and push), weighted
// reservoir sampling (A-ES keys, warp compaction of candidates, key histogram).
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - `lanesOf(dev) == 32`: lanesOf returns cudaDeviceProp::warpSize on every path, so the
//   comparison is a warp-size test (HOST-WARP-SIZE, "followed through up to four calls").
//   `256 / prop.warpSize` compares nothing (quiet); `warpSize == 32` in device code
//   selects the code written for the width it runs with (quiet).
// - `np / 32 + 1` sizes the energy buffer that depositCharge fills one slot per wavefront
//   (numbered by warpSize, after a shuffle): WARP-COUNT. `(n + 31) / 32` sizes the counts
//   of reservoirCandidates, which numbers its warps by 32 itself: quiet, and as a grid it
//   only divides (quiet BLOCK-SIZE).
// - `4 * 32` is a constant block of whole wavefronts: BLOCK-SIZE for gatherPerCell (it
//   shuffles and gives each wavefront a cell by warpSize, so (ncell + 3) / 4 blocks cover
//   half of the cells), quiet for reservoirCandidates (it divides by 32 itself).
// - `32 * warpsPerBlock` (a parameter: not a constant block) reaches a launch: BLOCK-SIZE
//   at the 32; the shared size `bins * (threads / 32)` is a host count of warps per block
//   (WARP-COUNT; a division is no BLOCK-SIZE product).
// - `ncell * 32` threads for a warp-per-cell kernel: BLOCK-SIZE at the 32 (cellMoments
//   works in 32-lane groups in its own part, so its device findings may be notes).
// - `32 * nTiles * sizeof(float)` only sizes a cudaMalloc: quiet.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cmath>

// ---------------------------------------------------------------------------------------
// Cloud-in-cell deposition, one particle per thread (x, y, vx, vy in a float4). Each
// wavefront also sums the kinetic energy of its particles into one diagnostic slot.
__global__ void depositCharge(const float4* __restrict__ xv, const float* __restrict__ q, int np, int nx,
                              int ny, float invDx, float invDy, float mass, float* __restrict__ rho,
                              double* __restrict__ warpEnergy) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  double e = 0.0;
  if (p < np) {
    const float4 s = xv[p];
    const float gx = s.x * invDx, gy = s.y * invDy;
    const int i = min(max(static_cast<int>(floorf(gx)), 0), nx - 2);
    const int j = min(max(static_cast<int>(floorf(gy)), 0), ny - 2);
    const float fx = gx - i, fy = gy - j, c = q[p];
    atomicAdd(&rho[j * nx + i], c * (1.f - fx) * (1.f - fy));
    atomicAdd(&rho[j * nx + i + 1], c * fx * (1.f - fy));
    atomicAdd(&rho[(j + 1) * nx + i], c * (1.f - fx) * fy);
    atomicAdd(&rho[(j + 1) * nx + i + 1], c * fx * fy);
    e = 0.5 * mass * (static_cast<double>(s.z) * s.z + static_cast<double>(s.w) * s.w);
  }
  for (int o = warpSize / 2; o > 0; o /= 2) e += __shfl_down_sync(0xffffffff, e, o);   // expect: W64-MASK32
  if (lane == 0) warpEnergy[p / warpSize] = e;
}

// Charge moments per cell (particles sorted by cell, cellStart[ncell + 1]): one warp per
// cell, lanes striding over the cell's particles.
__global__ void cellMoments(const float4* __restrict__ xv, const float* __restrict__ q,
                            const int* __restrict__ cellStart, int ncell, float2* __restrict__ dipole) {
  const int lane = threadIdx.x & 31;                                                 // expect: W64-LANE-MATH
  const int cell = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;                     // expect: W64-LANE-MATH
  if (cell >= ncell) return;
  float mx = 0.f, my = 0.f;
  for (int k = cellStart[cell] + lane; k < cellStart[cell + 1]; k += 32) {           // expect: W64-LANE-MATH
    mx += q[k] * xv[k].x;
    my += q[k] * xv[k].y;
  }
  for (int o = 16; o > 0; o >>= 1) {                                                 // expect: W64-SHFL-OFFSET
    mx += __shfl_xor_sync(0xffffffff, mx, o);                                        // expect: W64-MASK32
    my += __shfl_xor_sync(0xffffffff, my, o);                                        // expect: W64-MASK32
  }
  if (lane == 0) dipole[cell] = make_float2(mx, my);
}

// Gather E at the particles of one cell and push them (leapfrog): one wavefront per cell.
// The wavefront also finds the cell's largest speed for the CFL check.
__global__ void gatherPerCell(float4* __restrict__ xv, const int* __restrict__ cellStart, int ncell, int nx,
                              const float2* __restrict__ E, float qm, float dt, float* __restrict__ cellVmax) {
  const int lane = threadIdx.x % warpSize;
  const int cell = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (cell >= ncell) return;
  const int ci = cell % nx, cj = cell / nx;
  const float2 e00 = E[cj * nx + ci], e10 = E[cj * nx + ci + 1];
  const float2 e01 = E[(cj + 1) * nx + ci], e11 = E[(cj + 1) * nx + ci + 1];
  const int unroll = warpSize == 32 ? 4 : 2;                                         // quiet: W64-HOST-WARP-SIZE
  float vmax = 0.f;
  for (int base = cellStart[cell] + lane; base < cellStart[cell + 1]; base += warpSize * unroll) {
    for (int u = 0; u < unroll; ++u) {
      const int k = base + u * warpSize;
      if (k >= cellStart[cell + 1]) break;
      float4 s = xv[k];
      const float fx = s.x - floorf(s.x), fy = s.y - floorf(s.y);
      const float ex = (1 - fx) * (1 - fy) * e00.x + fx * (1 - fy) * e10.x + (1 - fx) * fy * e01.x + fx * fy * e11.x;
      const float ey = (1 - fx) * (1 - fy) * e00.y + fx * (1 - fy) * e10.y + (1 - fx) * fy * e01.y + fx * fy * e11.y;
      s.z += qm * ex * dt;
      s.w += qm * ey * dt;
      s.x += s.z * dt;
      s.y += s.w * dt;
      xv[k] = s;
      vmax = fmaxf(vmax, sqrtf(s.z * s.z + s.w * s.w));
    }
  }
  for (int o = warpSize / 2; o > 0; o /= 2) vmax = fmaxf(vmax, __shfl_xor_sync(0xffffffff, vmax, o));   // expect: W64-MASK32
  if (lane == 0) cellVmax[cell] = vmax;
}

// ---------------------------------------------------------------------------------------
// Weighted reservoir sampling (Efraimidis-Spirakis): key = log(u) / w, keep the k largest.
// Pass 1 keeps the items above a threshold and compacts them per warp.
__device__ __forceinline__ float hashUniform(unsigned long long seed, unsigned long long i) {
  unsigned long long z = seed + i * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (static_cast<float>(z >> 40) + 0.5f) * (1.0f / 16777216.0f);
}

__global__ void reservoirCandidates(const float* __restrict__ w, int n, float threshold, unsigned long long seed,
                                    float* __restrict__ keyOut, int* __restrict__ idxOut,
                                    int* __restrict__ warpCount, int capPerWarp) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;                                                 // expect: W64-LANE-MATH
  const int gw = g / 32;                                                             // expect: W64-LANE-MATH
  float key = -INFINITY;
  if (g < n && w[g] > 0.f) key = __logf(hashUniform(seed, g)) / w[g];
  const bool keep = key > threshold;
  const unsigned vote = __ballot_sync(0xffffffff, keep);                             // expect: W64-MASK32, W64-BALLOT-NARROW
  const int rank = __popc(vote & ((1u << lane) - 1));                                // expect: W64-BALLOT-NARROW
  if (keep && rank < capPerWarp) {
    keyOut[gw * capPerWarp + rank] = key;
    idxOut[gw * capPerWarp + rank] = g;
  }
  if (lane == 0) warpCount[gw] = min(__popc(vote), capPerWarp);                      // expect: W64-BALLOT-NARROW
}

// Pass 2: histogram of the kept keys over [lo, 0) to find the k-th largest key; one
// private histogram per wavefront in dynamic shared memory.
__global__ void keyHistogram(const float* __restrict__ keys, const int* __restrict__ warpCount, int capPerWarp,
                             int numWarps, float lo, int bins, unsigned* __restrict__ hist) {
  extern __shared__ unsigned sh[];
  const int perBlock = blockDim.x / warpSize;
  unsigned* mine = sh + (threadIdx.x / warpSize) * bins;
  for (int b = threadIdx.x; b < bins * perBlock; b += blockDim.x) sh[b] = 0u;
  __syncthreads();
  for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < numWarps * capPerWarp; s += gridDim.x * blockDim.x) {
    if (s % capPerWarp >= warpCount[s / capPerWarp]) continue;
    const int b = min(max(static_cast<int>((keys[s] - lo) / -lo * bins), 0), bins - 1);
    atomicAdd(&mine[b], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x) {
    unsigned t = 0;
    for (int w = 0; w < perBlock; ++w) t += sh[w * bins + b];
    atomicAdd(&hist[b], t);
  }
}

// ---------------------------------------------------------------------------------------
static int lanesOf(int dev) {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, dev);
  return p.warpSize;
}

double picStep(float4* xv, const float* q, int np, const int* cellStart, int nx, int ny, float dx, float dy,
               float mass, float qm, float dt, float* rho, const float2* E, float2* dipole, float* cellVmax,
               cudaStream_t st) {
  int dev = 0;
  cudaGetDevice(&dev);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  if (prop.warpSize != 32)                                                           // expect: W64-HOST-WARP-SIZE
    fprintf(stderr, "pic: kernels tuned for 32-lane warps, device has %d\n", prop.warpSize);
  const int rowsPerBlock = 256 / prop.warpSize;                                      // quiet: W64-HOST-WARP-SIZE
  const int sortTile = lanesOf(dev) == 32 ? 1024 : 2048;                             // expect: W64-HOST-WARP-SIZE
  const int ncell = nx * ny;
  const int nWarps = np / 32 + 1;                                                    // expect: W64-WARP-COUNT
  double* dEnergy = nullptr;
  cudaMalloc(&dEnergy, nWarps * sizeof(double));
  cudaMemsetAsync(dEnergy, 0, nWarps * sizeof(double), st);
  depositCharge<<<(np + 255) / 256, 256, 0, st>>>(xv, q, np, nx, ny, 1.f / dx, 1.f / dy, mass, rho, dEnergy);
  const long long momentThreads = static_cast<long long>(ncell) * 32;                // expect: W64-BLOCK-SIZE
  cellMoments<<<static_cast<int>((momentThreads + 255) / 256), 256, 0, st>>>(xv, q, cellStart, ncell, dipole);
  gatherPerCell<<<(ncell + 3) / 4, 4 * 32, 0, st>>>(xv, cellStart, ncell, nx, E, qm, dt, cellVmax);   // expect: W64-BLOCK-SIZE
  double* hostE = new double[nWarps];
  cudaMemcpyAsync(hostE, dEnergy, nWarps * sizeof(double), cudaMemcpyDeviceToHost, st);
  cudaStreamSynchronize(st);
  double total = 0.0;
  for (int w = 0; w < nWarps; ++w) total += hostE[w];
  delete[] hostE;
  cudaFree(dEnergy);
  (void)rowsPerBlock;
  (void)sortTile;
  return total;
}

int reservoirPass(const float* w, int n, float threshold, unsigned long long seed, int warpsPerBlock, int bins,
                  float lo, unsigned* hist, int nTiles, cudaStream_t st) {
  int dev = 0, ws = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, dev);
  const bool narrowWarps = ws == 32;                                                 // expect: W64-HOST-WARP-SIZE
  const int capPerWarp = narrowWarps ? 8 : 16;
  const int warpsNeeded = (n + 31) / 32;                                             // quiet: W64-WARP-COUNT, W64-BLOCK-SIZE
  float* keys = nullptr;
  int *idx = nullptr, *counts = nullptr;
  float* scratch = nullptr;
  cudaMalloc(&keys, static_cast<size_t>(warpsNeeded) * capPerWarp * sizeof(float));
  cudaMalloc(&idx, static_cast<size_t>(warpsNeeded) * capPerWarp * sizeof(int));
  cudaMalloc(&counts, warpsNeeded * sizeof(int));
  cudaMalloc(&scratch, 32 * nTiles * sizeof(float));                                 // quiet: W64-BLOCK-SIZE
  reservoirCandidates<<<(warpsNeeded + 3) / 4, 4 * 32, 0, st>>>(w, n, threshold, seed, keys, idx, counts,   // quiet: W64-BLOCK-SIZE
                                                               capPerWarp);
  const int threads = 32 * warpsPerBlock;                                            // expect: W64-BLOCK-SIZE
  const size_t shmem = sizeof(unsigned) * bins * (threads / 32);                     // expect: W64-WARP-COUNT
  keyHistogram<<<64, threads, shmem, st>>>(keys, counts, capPerWarp, warpsNeeded, lo, bins, hist);
  cudaStreamSynchronize(st);
  cudaFree(keys);
  cudaFree(idx);
  cudaFree(counts);
  cudaFree(scratch);
  return capPerWarp;
}
