// Tuning round 14. Cause 3: host code.
// Domains: particle-in-cell charge deposit (cloud-in-cell, 2-D periodic grid),
// ray-tracing BVH refit (Karras layout, bottom-up with arrival counters) and
// the per-wavefront scene bounds that seed it.
// Labels were written from docs/checks only; the tool was never run on this file.
// The kernels that do warp work number their lanes and warps by warpSize; the
// 32s are on the host. Ambiguous calls:
// - PIC_WARP_THREADS is used only on the host, in a shared-memory size
//   `depThreads / PIC_WARP_THREADS`: LANE-MATH at the definition, WARP-COUNT at
//   the use (a host warp count). The same launch's `warpsPerBlock * 32` threads
//   (also the source of that size) is BLOCK-SIZE at the 32.
// - lanesPerWarp() is a constexpr function returning 32: `deviceWarpSize(dev) >
//   lanesPerWarp()` compares the warp size (through a helper's return) with an
//   expression that evaluates to 32. Its own `return 32;` is no finding.
// - warpsFor(n) returns n / 32 and is only used for a grid (a 32 that only
//   divides; the pages follow locals, not helper returns): quiet.
// - `nLeaves / 32 + 1` wave boxes for sceneBounds (shuffles, one box per
//   warpSize lanes): a host warp count inside a sum (WARP-COUNT).
// - `nParticles / 32 + 1` escapee slots for countEscapees, which numbers its
//   groups by `>> 5` itself and does no warp work: quiet on the host; the
//   kernel's `i >> 5` is a note (no warp-level work, a kernel).
// - `boundsWarps * 32` in a const dim3 for sceneBounds (a constant block of
//   whole wavefronts, kernel shuffles and splits by warpSize): BLOCK-SIZE; its
//   shared-memory size `sizeof(float4) * 32 * boundsWarps` too.
// - launchRefit<96>: template block size, labelled at the point of
//   instantiation and at the launch (its related location); <256> is quiet.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define PIC_WARP_THREADS 32                                                         // expect: W64-LANE-MATH

struct Particle { float x, y, q; };
struct Aabb { float3 lo, hi; };
struct Node { int left, right, parent; Aabb box; };

__device__ __forceinline__ Aabb merge(const Aabb& a, const Aabb& b) {
  return Aabb{make_float3(fminf(a.lo.x, b.lo.x), fminf(a.lo.y, b.lo.y), fminf(a.lo.z, b.lo.z)),
              make_float3(fmaxf(a.hi.x, b.hi.x), fmaxf(a.hi.y, b.hi.y), fmaxf(a.hi.z, b.hi.z))};
}

// Cloud-in-cell deposit; each block also leaves its total charge (diagnostic).
__global__ void depositCharge(const Particle* __restrict__ p, int n, int nx, int ny, float* __restrict__ rho,
                              float* __restrict__ blockCharge) {
  extern __shared__ float waveSum[];
  if (warpSize != 32 && warpSize != 64) __trap();                                   // quiet: W64-HOST-WARP-SIZE
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  float q = 0.f;
  if (i < n) {
    const float fx = p[i].x, fy = p[i].y;
    const int ix = static_cast<int>(floorf(fx)), iy = static_cast<int>(floorf(fy));
    const float wx = fx - ix, wy = fy - iy;
    const int x0 = (ix % nx + nx) % nx, y0 = (iy % ny + ny) % ny, x1 = (x0 + 1) % nx, y1 = (y0 + 1) % ny;
    q = p[i].q;
    atomicAdd(&rho[y0 * nx + x0], q * (1.f - wx) * (1.f - wy));
    atomicAdd(&rho[y0 * nx + x1], q * wx * (1.f - wy));
    atomicAdd(&rho[y1 * nx + x0], q * (1.f - wx) * wy);
    atomicAdd(&rho[y1 * nx + x1], q * wx * wy);
  }
  for (int o = warpSize / 2; o > 0; o >>= 1) q += __shfl_down_sync(__activemask(), q, o);   // quiet: W64-MASK32, W64-SHFL-OFFSET
  if (lane == 0) waveSum[wave] = q;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int w = 0; w < blockDim.x / warpSize; ++w) s += waveSum[w];
    blockCharge[blockIdx.x] = s;
  }
}

// Flags particles that left the domain, counted per group of 32 threads.
__global__ void countEscapees(const Particle* __restrict__ p, int n, int nx, int ny, int* __restrict__ groupEsc) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const bool out = p[i].x < 0.f || p[i].x >= nx || p[i].y < 0.f || p[i].y >= ny;
  if (out) atomicAdd(&groupEsc[i >> 5], 1);                                         // note: W64-LANE-MATH
}

// Field from the charge by central differences on the periodic grid.
__global__ void efield(const float* __restrict__ rho, int nx, int ny, float2* __restrict__ e) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny) return;
  const float dx = rho[y * nx + (x + 1) % nx] - rho[y * nx + (x + nx - 1) % nx];
  const float dy = rho[((y + 1) % ny) * nx + x] - rho[((y + ny - 1) % ny) * nx + x];
  e[y * nx + x] = make_float2(-0.5f * dx, -0.5f * dy);
}

__device__ __forceinline__ float waveMin(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v = fminf(v, __shfl_xor_sync(0xffffffffu, v, o));   // expect: W64-MASK32
  return v;
}
__device__ __forceinline__ float waveMax(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));   // expect: W64-MASK32
  return v;
}

// One box (and one centroid) per wavefront of leaves.
__global__ void sceneBounds(const Aabb* __restrict__ leaves, int n, Aabb* __restrict__ waveBox,
                            float4* __restrict__ waveCentroid) {
  extern __shared__ float4 stage[];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize, gw = i / warpSize;
  const Aabb b = i < n ? leaves[i] : Aabb{make_float3(1e30f, 1e30f, 1e30f), make_float3(-1e30f, -1e30f, -1e30f)};
  stage[threadIdx.x] = i < n ? make_float4(0.5f * (b.lo.x + b.hi.x), 0.5f * (b.lo.y + b.hi.y), 0.5f * (b.lo.z + b.hi.z), 1.f)
                             : make_float4(0.f, 0.f, 0.f, 0.f);
  const Aabb r{make_float3(waveMin(b.lo.x), waveMin(b.lo.y), waveMin(b.lo.z)),
               make_float3(waveMax(b.hi.x), waveMax(b.hi.y), waveMax(b.hi.z))};
  __syncwarp();
  if (lane == 0) {
    float4 c = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int k = 0; k < warpSize; ++k) {
      const float4 s = stage[threadIdx.x + k];
      c.x += s.x; c.y += s.y; c.z += s.z; c.w += s.w;
    }
    waveBox[gw] = r;
    waveCentroid[gw] = c;
  }
}

template <int kBlock>
__global__ void refitBVH(Node* __restrict__ nodes, const Aabb* __restrict__ leafBox, int nLeaves, int* __restrict__ visits) {
  const int leaf = blockIdx.x * kBlock + threadIdx.x;
  if (leaf >= nLeaves) return;
  const int node = nLeaves - 1 + leaf;
  nodes[node].box = leafBox[leaf];
  int parent = nodes[node].parent;
  while (parent >= 0) {
    __threadfence();
    if (atomicAdd(&visits[parent], 1) == 0) return;
    nodes[parent].box = merge(nodes[nodes[parent].left].box, nodes[nodes[parent].right].box);
    parent = nodes[parent].parent;
  }
}

template <int kBlock>
void launchRefit(Node* nodes, const Aabb* leafBox, int nLeaves, int* visits, cudaStream_t s) {
  refitBVH<kBlock><<<(nLeaves + kBlock - 1) / kBlock, kBlock, 0, s>>>(nodes, leafBox, nLeaves, visits);   // expect: W64-BLOCK-SIZE
}

static int deviceWarpSize(int dev) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  return prop.warpSize;
}

constexpr int lanesPerWarp() { return 32; }                                         // quiet: W64-LANE-MATH, W64-HOST-WARP-SIZE

static int warpsFor(int n) { return n / 32; }                                       // quiet: W64-WARP-COUNT, W64-BLOCK-SIZE

int main(int argc, char** argv) {
  const int dev = 0;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  const cudaDeviceProp* pp = &prop;
  if (pp->warpSize != 32) printf("%s: deposit tuned for 32-thread warps\n", pp->name);   // expect: W64-HOST-WARP-SIZE
  int attrWarp = 0;
  cudaDeviceGetAttribute(&attrWarp, cudaDevAttrWarpSize, dev);
  const bool narrow = 32 == attrWarp;                                               // expect: W64-HOST-WARP-SIZE
  const bool wide = deviceWarpSize(dev) > lanesPerWarp();                           // expect: W64-HOST-WARP-SIZE
  if (prop.multiProcessorCount >= 32) printf("%d SMs\n", prop.multiProcessorCount);   // quiet: W64-HOST-WARP-SIZE

  // Particle-in-cell step.
  const int nx = 512, ny = 512, nParticles = argc > 1 ? atoi(argv[1]) : (1 << 22);
  Particle* dP; float *dRho, *dBlockCharge, *dScratch; float2* dE; int* dEsc;
  cudaMalloc(&dP, nParticles * sizeof(Particle));
  cudaMalloc(&dRho, nx * ny * sizeof(float));
  cudaMalloc(&dE, nx * ny * sizeof(float2));
  cudaMalloc(&dScratch, 32 * static_cast<size_t>(nx) * sizeof(float));               // quiet: W64-BLOCK-SIZE
  cudaMemset(dRho, 0, nx * ny * sizeof(float));
  const int warpsPerBlock = narrow ? 8 : 4;
  const int depThreads = warpsPerBlock * 32;                                        // expect: W64-BLOCK-SIZE
  const int depBlocks = (nParticles + depThreads - 1) / depThreads;
  const size_t depSmem = depThreads / PIC_WARP_THREADS * sizeof(float);            // expect: W64-WARP-COUNT
  cudaMalloc(&dBlockCharge, depBlocks * sizeof(float));
  depositCharge<<<depBlocks, depThreads, depSmem>>>(dP, nParticles, nx, ny, dRho, dBlockCharge);
  const int nGroups = nParticles / 32 + 1;                                          // quiet: W64-WARP-COUNT
  cudaMalloc(&dEsc, nGroups * sizeof(int));
  cudaMemset(dEsc, 0, nGroups * sizeof(int));
  countEscapees<<<(nParticles + 255) / 256, 256>>>(dP, nParticles, nx, ny, dEsc);
  const dim3 tb(32, 8);                                                             // quiet: W64-BLOCK-SIZE
  const dim3 grid2d(warpsFor(nx + 31), (ny + 7) / 8);                               // quiet: W64-BLOCK-SIZE
  efield<<<grid2d, tb>>>(dRho, nx, ny, dE);

  // BVH: scene bounds per wavefront, then the refit.
  const int nLeaves = 1 << 20;
  Aabb *dLeaves, *dWaveBox; float4* dWaveCentroid; Node* dNodes; int* dVisits;
  const int paddedLeaves = (nLeaves + 31) / 32 * 32;                                // quiet: W64-WARP-COUNT
  cudaMalloc(&dLeaves, paddedLeaves * sizeof(Aabb));
  cudaMalloc(&dNodes, (2 * nLeaves - 1) * sizeof(Node));
  cudaMalloc(&dVisits, nLeaves * sizeof(int));
  const int nWaves = nLeaves / 32 + 1;                                              // expect: W64-WARP-COUNT
  cudaMalloc(&dWaveBox, nWaves * sizeof(Aabb));
  cudaMalloc(&dWaveCentroid, nWaves * sizeof(float4));
  const int boundsWarps = 8;
  const dim3 boundsBlock(boundsWarps * 32);                                         // expect: W64-BLOCK-SIZE
  const size_t boundsSmem = sizeof(float4) * 32 * boundsWarps;                      // expect: W64-BLOCK-SIZE
  sceneBounds<<<(nLeaves + 255) / 256, boundsBlock, boundsSmem>>>(dLeaves, nLeaves, dWaveBox, dWaveCentroid);
  const int wideThreads = prop.warpSize * boundsWarps;
  sceneBounds<<<(nLeaves + wideThreads - 1) / wideThreads, wideThreads, wideThreads * sizeof(float4)>>>(dLeaves, nLeaves, dWaveBox, dWaveCentroid);   // quiet: W64-BLOCK-SIZE
  cudaMemset(dVisits, 0, nLeaves * sizeof(int));
  if (wide) launchRefit<256>(dNodes, dLeaves, nLeaves, dVisits, 0);                 // quiet: W64-BLOCK-SIZE
  else launchRefit<96>(dNodes, dLeaves, nLeaves, dVisits, 0);                       // expect: W64-BLOCK-SIZE
  std::vector<float> hCharge(depBlocks);
  cudaMemcpy(hCharge.data(), dBlockCharge, depBlocks * sizeof(float), cudaMemcpyDeviceToHost);
  double total = 0.0;
  for (float c : hCharge) total += c;
  printf("total charge %.3f\n", total);
  cudaFree(dP); cudaFree(dRho); cudaFree(dE); cudaFree(dScratch); cudaFree(dBlockCharge); cudaFree(dEsc);
  cudaFree(dLeaves); cudaFree(dNodes); cudaFree(dVisits); cudaFree(dWaveBox); cudaFree(dWaveCentroid);
  return 0;
}
