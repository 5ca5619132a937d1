// Held out, round 10. Cause 3: host code (warp-size tests, sizes and launch shapes
// computed with 32).
// Domains: 3D convolution (direct and channel-reduced), cloth / mass-spring
// simulation, weighted reservoir sampling (A-Res).
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - Host warp-size tests: `prop.warpSize != 32`, `32 == laneWidth(dev)` (a helper
//   whose only return is a cudaDevAttrWarpSize attribute, operands swapped) and
//   `pp->warpSize > 32` through a pointer (a relational test, still a comparison of
//   the warp size with 32) are findings; `prop.warpSize * 4` (no 32) and
//   `prop.multiProcessorCount >= 32` (not the warp size) are quiet, as is device
//   code that compares warpSize with 32.
// - conv3dChannels splits its work by warpSize and shuffles, so its constant block
//   `32 * warpsPerBlock` (128) is reported; clothClusterBounds divides by 32 itself,
//   so its `4 * 32` block is quiet.
// - `static_cast<long long>(nv) * 32` reaches the grid of clothGatherForces through
//   a local (one wavefront per vertex): labelled where the 32 is written.
// - nv / 32 + 1 sizes the partials of clothEnergyPartials, a kernel that shuffles
//   and numbers its wavefronts by warpSize: WARP-COUNT. (nv + 31) / 32 sizes the
//   output of clothClusterBounds, which divides by 32 itself: quiet.
// - reservoirSample: `threads / 32` (a host warp count from the block size, sizing
//   the per-wavefront outputs) and the shared-memory size `kRes * 32 * warps` are
//   on separate lines, WARP-COUNT and BLOCK-SIZE.
// - WARP_SIZE is only used by a launch (`WARP_SIZE * 3`): the definition carries
//   LANE-MATH (the definition scan's id), the launch BLOCK-SIZE (its related use).
// - The trail buffer `sizeof(float3) * 32 * nv` never reaches a launch (quiet).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <vector>

#define WARP_SIZE 32                                                           // expect: W64-LANE-MATH
constexpr int kRes = 4;

__constant__ float cTaps[27];

// Single-channel 3x3x3 convolution with clamped borders, one thread per voxel.
__global__ void conv3dDirect(const float* __restrict__ in, float* __restrict__ out, int nx, int ny, int nz) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz) return;
  float acc = 0.f;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int xx = min(max(x + dx, 0), nx - 1), yy = min(max(y + dy, 0), ny - 1), zz = min(max(z + dz, 0), nz - 1);
        acc += cTaps[(dz + 1) * 9 + (dy + 1) * 3 + dx + 1] * in[(static_cast<size_t>(zz) * ny + yy) * nx + xx];
      }
  out[(static_cast<size_t>(z) * ny + y) * nx + x] = acc;
}

// Multi-channel 3x3x3 convolution for one output channel: one wavefront per output
// voxel, its lanes splitting the cin * 27 products.
__global__ void conv3dChannels(const float* __restrict__ in, const float* __restrict__ w, float* __restrict__ out,
                               int cin, int nx, int ny, int nz) {
  const int lane = threadIdx.x % warpSize;
  const int vox = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (vox >= nx * ny * nz) return;
  const int x = vox % nx, y = (vox / nx) % ny, z = vox / (nx * ny);
  float acc = 0.f;
  for (int t = lane; t < cin * 27; t += warpSize) {
    const int c = t / 27, k = t % 27;
    const int xx = x + k % 3 - 1, yy = y + (k / 3) % 3 - 1, zz = z + k / 9 - 1;
    if (xx >= 0 && xx < nx && yy >= 0 && yy < ny && zz >= 0 && zz < nz)
      acc += w[t] * in[((static_cast<size_t>(c) * nz + zz) * ny + yy) * nx + xx];
  }
  for (int o = warpSize / 2; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffff, acc, o);   // expect: W64-MASK32
  if (lane == 0) out[vox] = acc;
}

struct Spring { int a, b; float rest, k; };

// Spring forces gathered per vertex: one wavefront per vertex walks its incident
// springs (CSR); the lanes' partial forces are summed with shuffles.
__global__ void clothGatherForces(const float3* __restrict__ pos, const int* __restrict__ adjPtr,
                                  const int* __restrict__ adjSpring, const Spring* __restrict__ springs,
                                  int nv, float3* __restrict__ force) {
  const int lane = threadIdx.x % warpSize;
  const int v = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (v >= nv) return;
  const float3 pv = pos[v];
  float3 f = make_float3(0.f, 0.f, 0.f);
  for (int e = adjPtr[v] + lane; e < adjPtr[v + 1]; e += warpSize) {
    const Spring s = springs[adjSpring[e]];
    const float3 q = pos[s.a == v ? s.b : s.a];
    const float3 d = make_float3(q.x - pv.x, q.y - pv.y, q.z - pv.z);
    const float len = fmaxf(sqrtf(d.x * d.x + d.y * d.y + d.z * d.z), 1e-9f);
    const float mag = s.k * (len - s.rest) / len;
    f.x += mag * d.x; f.y += mag * d.y; f.z += mag * d.z;
  }
  const auto live = __activemask();                                            // quiet: W64-BALLOT-NARROW
  for (int o = warpSize / 2; o > 0; o >>= 1) {
    f.x += __shfl_down_sync(live, f.x, o);                                     // quiet: W64-MASK32
    f.y += __shfl_down_sync(live, f.y, o);                                     // quiet: W64-MASK32
    f.z += __shfl_down_sync(live, f.z, o);                                     // quiet: W64-MASK32
  }
  if (lane == 0) force[v] = f;
}

// Verlet integration, one thread per vertex (no warp-level work).
__global__ void clothIntegrate(float3* __restrict__ pos, float3* __restrict__ prev, const float3* __restrict__ force,
                               const float* __restrict__ invMass, int nv, float dt, float damping) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nv) return;
  const float3 p = pos[i], q = prev[i], f = force[i];
  const float a = invMass[i] * dt * dt;
  prev[i] = p;
  pos[i] = make_float3(p.x + (p.x - q.x) * damping + f.x * a, p.y + (p.y - q.y) * damping + (f.y - 9.81f / invMass[i]) * a,
                       p.z + (p.z - q.z) * damping + f.z * a);
}

// Kinetic energy, one partial per wavefront (lane 0 of each writes it).
__global__ void clothEnergyPartials(const float3* __restrict__ vel, const float* __restrict__ mass, int nv,
                                    float* __restrict__ partials) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  float e = 0.f;
  if (g < nv) { const float3 v = vel[g]; e = 0.5f * mass[g] * (v.x * v.x + v.y * v.y + v.z * v.z); }
  for (int o = warpSize / 2; o > 0; o >>= 1) e += __shfl_xor_sync(0xffffffff, e, o);   // expect: W64-MASK32
  if (g % warpSize == 0 && g < nv) partials[g / warpSize] = e;
}

// Largest displacement from the rest pose per cluster of 32 consecutive vertices
// (broad-phase refit); the kernel numbers its clusters by 32 itself.
__global__ void clothClusterBounds(const float3* __restrict__ pos, const float3* __restrict__ rest, int nv,
                                   float* __restrict__ maxDisp) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int cluster = g / 32;                                                  // expect: W64-LANE-MATH
  float m = 0.f;
  if (g < nv) { const float3 p = pos[g], r = rest[g]; m = sqrtf((p.x - r.x) * (p.x - r.x) + (p.y - r.y) * (p.y - r.y) + (p.z - r.z) * (p.z - r.z)); }
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));   // expect: W64-SHFL-OFFSET, W64-MASK32
  if ((g & 31) == 0 && g < nv) maxDisp[cluster] = m;                           // expect: W64-LANE-MATH
}

// Weighted reservoir sampling (A-Res), one block per stream: each thread keeps the
// kRes largest keys u^(1/w) of its strided share; each wavefront then merges its
// lanes' lists in kRes rounds of argmax, one output list per wavefront.
__global__ void reservoirSelect(const float* __restrict__ w, const float* __restrict__ u,
                                const int* __restrict__ streamPtr, int* __restrict__ picks,
                                float* __restrict__ keys) {
  extern __shared__ float2 buf[];
  const int s = blockIdx.x;
  float2* mine = buf + threadIdx.x * kRes;
  for (int r = 0; r < kRes; ++r) mine[r] = make_float2(-1.f, -1.f);
  for (int i = streamPtr[s] + threadIdx.x; i < streamPtr[s + 1]; i += blockDim.x) {
    const float key = __powf(u[i], 1.f / w[i]);
    if (key <= mine[kRes - 1].x) continue;
    int r = kRes - 1;
    while (r > 0 && mine[r - 1].x < key) { mine[r] = mine[r - 1]; --r; }
    mine[r] = make_float2(key, __int_as_float(i));
  }
  const int logLanes = warpSize == 32 ? 5 : 6;                                 // quiet: W64-HOST-WARP-SIZE, W64-LANE-MATH
  const int lane = threadIdx.x & (warpSize - 1);
  const int wave = threadIdx.x >> logLanes;                                    // quiet: W64-LANE-MATH
  const int waves = blockDim.x / warpSize;
  int head = 0;
  for (int r = 0; r < kRes; ++r) {
    float best = head < kRes ? mine[head].x : -1.f;
    int who = lane;
    for (int o = warpSize / 2; o > 0; o >>= 1) {
      const float ob = __shfl_xor_sync(0xffffffff, best, o);                  // expect: W64-MASK32
      const int ow = __shfl_xor_sync(0xffffffff, who, o);                     // expect: W64-MASK32
      if (ob > best || (ob == best && ow < who)) { best = ob; who = ow; }
    }
    const size_t at = (static_cast<size_t>(s) * waves + wave) * kRes + r;
    if (lane == who) { picks[at] = best >= 0.f ? __float_as_int(mine[head].y) : -1; keys[at] = best; ++head; }
  }
}

static int laneWidth(int dev) {
  int ws = 0;
  cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, dev);
  return ws;
}

void convForward(const float* in, const float* w, float* out, float* out1, int cin, int nx, int ny, int nz) {
  const dim3 grid((nx + 15) / 16, (ny + 1) / 2, (nz + 2) / 3);
  conv3dDirect<<<grid, dim3(16, 2, 3)>>>(in, out1, nx, ny, nz);               // expect: W64-BLOCK-SIZE
  const int warpsPerBlock = 4;
  const int threads = 32 * warpsPerBlock;                                      // expect: W64-BLOCK-SIZE
  const int nvox = nx * ny * nz;
  conv3dChannels<<<(nvox + warpsPerBlock - 1) / warpsPerBlock, threads>>>(in, w, out, cin, nx, ny, nz);
}

struct Cloth { float3 *pos, *prev, *rest, *vel, *force, *trail; float *invMass, *mass; int *adjPtr, *adjSpring; Spring* springs; int nv; };

void clothStep(Cloth& c, float dt, int threads) {
  const long long lanes = static_cast<long long>(c.nv) * 32;                   // expect: W64-BLOCK-SIZE
  clothGatherForces<<<static_cast<int>((lanes + threads - 1) / threads), threads>>>(c.pos, c.adjPtr, c.adjSpring,
                                                                                   c.springs, c.nv, c.force);
  clothIntegrate<<<(c.nv + 95) / 96, WARP_SIZE * 3>>>(c.pos, c.prev, c.force, c.invMass, c.nv, dt, 0.99f);   // expect: W64-BLOCK-SIZE
}

float clothKineticEnergy(const Cloth& c) {
  const int nPartials = c.nv / 32 + 1;                                         // expect: W64-WARP-COUNT
  float* dPartials = nullptr;
  cudaMalloc(&dPartials, nPartials * sizeof(float));
  cudaMemset(dPartials, 0, nPartials * sizeof(float));
  clothEnergyPartials<<<(c.nv + 255) / 256, 256>>>(c.vel, c.mass, c.nv, dPartials);
  std::vector<float> h(nPartials);
  cudaMemcpy(h.data(), dPartials, nPartials * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dPartials);
  float e = 0.f;
  for (float p : h) e += p;
  return e;
}

float* clothRefit(const Cloth& c) {
  const int nClusters = (c.nv + 31) / 32;                                      // quiet: W64-WARP-COUNT, W64-BLOCK-SIZE
  float* dMax = nullptr;
  cudaMalloc(&dMax, nClusters * sizeof(float));
  clothClusterBounds<<<(c.nv + 127) / 128, 4 * 32>>>(c.pos, c.rest, c.nv, dMax);   // quiet: W64-BLOCK-SIZE
  return dMax;
}

void reservoirSample(const float* w, const float* u, const int* streamPtr, int numStreams, int** picks, float** keys) {
  const int threads = 256;
  const int warps = threads / 32;                                              // expect: W64-WARP-COUNT
  const size_t smem = sizeof(float2) * kRes * 32 * warps;                      // expect: W64-BLOCK-SIZE
  cudaMalloc(picks, sizeof(int) * numStreams * warps * kRes);
  cudaMalloc(keys, sizeof(float) * numStreams * warps * kRes);
  reservoirSelect<<<numStreams, threads, smem>>>(w, u, streamPtr, *picks, *keys);
}

int main() {
  int dev = 0;
  cudaSetDevice(dev);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  if (prop.warpSize != 32)                                                     // expect: W64-HOST-WARP-SIZE
    std::fprintf(stderr, "note: kernels tuned for 32-lane warps (device has %d)\n", prop.warpSize);
  if (32 == laneWidth(dev)) std::printf("using the shuffle-reduced convolution\n");   // expect: W64-HOST-WARP-SIZE
  const cudaDeviceProp* pp = &prop;
  const bool wide = pp->warpSize > 32;                                         // expect: W64-HOST-WARP-SIZE
  const int threadsHint = prop.warpSize * 4;                                   // quiet: W64-BLOCK-SIZE, W64-HOST-WARP-SIZE
  if (prop.multiProcessorCount >= 32) std::printf("large device\n");           // quiet: W64-HOST-WARP-SIZE
  Cloth c{};
  c.nv = 64 * 64;
  cudaMalloc(&c.trail, sizeof(float3) * 32 * c.nv);                            // quiet: W64-BLOCK-SIZE
  clothStep(c, 1e-3f, wide ? 2 * threadsHint : threadsHint);
  std::printf("kinetic energy %g\n", clothKineticEnergy(c));
  cudaFree(clothRefit(c));
  return 0;
}
