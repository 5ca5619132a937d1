// Held out, round 9. Cause 5: consistent 32-lane groups, right at 64 lanes as written.
// Domains: k-means assignment, N-body particle binning (per-cell slab
// compaction), stencil residual norm.
// The unit shuffles only at the default width, by offsets in [0, 32): xor and
// down sweeps from 16, an up-scan to 16 guarded by the group lane. It takes no
// ballot, vote, activemask or match, never broadcasts from a lane, and never
// reads warpSize (the host reads only the SM count). So each 64-lane wavefront
// runs two independent groups numbered by the 32s, and every finding of the
// grouping must be a note.
// Ambiguous calls (labelled from the check pages, never checked with the tool):
// - kGroup = 32 has a name that says nothing of warps; it is read in shuffling
//   kernels, so it is reported at its definition (as a note, its first use
//   being lane math), each use labelled at its own line with the id the check
//   gives there.
// - GROUP_MASK holds the full 32-bit mask: a note at its definition and at
//   every call (dropped before HIP 6.2, through the group-mask shim after).
// - residualNorm's final fold runs inside `if (threadIdx.x < 32)`: its loop
//   from 16 is quiet (the check page's rule), its mask still a note.
// - kBlockThreads = 128 is a whole number of wavefronts (quiet); the slab
//   kernel's `32 * cellsPerBlock` is a launch shape computed with 32 (a note);
//   residualNorm's block of 96 is a constant no multiple of 64 (a note).
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdio>
#include <cstdlib>

#define GROUP_MASK 0xffffffffu                                                  // note: W64-MASK32
constexpr int kGroup = 32;                                                      // note: W64-LANE-MATH
constexpr int kBlockThreads = 128;                                              // quiet: W64-BLOCK-SIZE

// k-means assignment: one group of 32 threads per point, lanes stride the
// dimensions, an xor butterfly gives every lane the squared distance.
__global__ void __launch_bounds__(kBlockThreads)
kmeansAssignGroups(const float* __restrict__ pts, const float* __restrict__ cent, int n, int k, int dims,
                   int* __restrict__ assign, float* __restrict__ bestDist) {
  const int lane = threadIdx.x % kGroup;                                        // note: W64-LANE-MATH
  const int point = blockIdx.x * (kBlockThreads / kGroup) + threadIdx.x / kGroup;   // note: W64-WARP-COUNT, W64-LANE-MATH
  if (point >= n) return;
  const float* x = pts + static_cast<size_t>(point) * dims;
  float best = FLT_MAX;
  int bestC = -1;
  for (int c = 0; c < k; ++c) {
    const float* m = cent + static_cast<size_t>(c) * dims;
    float d2 = 0.f;
    for (int d = lane; d < dims; d += kGroup) { const float t = x[d] - m[d]; d2 = fmaf(t, t, d2); }   // note: W64-LANE-MATH
    for (int o = 16; o > 0; o >>= 1) d2 += __shfl_xor_sync(GROUP_MASK, d2, o);  // note: W64-SHFL-OFFSET, W64-MASK32
    if (d2 < best) { best = d2; bestC = c; }
  }
  if (lane == 0) { assign[point] = bestC; bestDist[point] = best; }
}

// Centroid update, accumulation pass: the lanes of a group add the point's
// coordinates to its centroid's sums; lane 0 counts the point.
__global__ void __launch_bounds__(kBlockThreads)
kmeansAccumulate(const float* __restrict__ pts, const int* __restrict__ assign, int n, int dims,
                 float* __restrict__ sums, int* __restrict__ counts) {
  const int lane = threadIdx.x & 31;                                            // note: W64-LANE-MATH
  const int point = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;               // note: W64-LANE-MATH
  if (point >= n) return;
  const int c = assign[point];
  for (int d = lane; d < dims; d += 32)                                         // note: W64-LANE-MATH
    atomicAdd(&sums[static_cast<size_t>(c) * dims + d], pts[static_cast<size_t>(point) * dims + d]);
  if (lane == 0) atomicAdd(&counts[c], 1);
}

// Per-cell compaction for N-body binning: group g walks the particles of cell
// g in rounds of 32 and keeps those inside the slab [zlo, zhi); write offsets
// come from an inclusive scan over the group, the round's total from a butterfly.
__global__ void compactSlabGroups(const float4* __restrict__ pos, const int* __restrict__ cellStart,
                                  const int* __restrict__ cellEnd, int numCells, float zlo, float zhi,
                                  int* __restrict__ out, int* __restrict__ outCount) {
  const int lane = threadIdx.x & 31;                                            // note: W64-LANE-MATH
  const int cell = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;                // note: W64-LANE-MATH
  if (cell >= numCells) return;
  const int beg = cellStart[cell], end = cellEnd[cell];
  int written = 0;
  for (int base = beg; base < end; base += 32) {                                // note: W64-LANE-MATH
    const int i = base + lane;
    const int keep = (i < end && pos[i].z >= zlo && pos[i].z < zhi) ? 1 : 0;
    int incl = keep;
    for (int d = 1; d < 32; d <<= 1) {                                          // note: W64-SHFL-OFFSET
      const int up = __shfl_up_sync(GROUP_MASK, incl, d);                       // note: W64-MASK32
      if (lane >= d) incl += up;
    }
    int total = keep;
    for (int o = 16; o > 0; o >>= 1) total += __shfl_xor_sync(GROUP_MASK, total, o);   // note: W64-SHFL-OFFSET, W64-MASK32
    if (keep) out[beg + written + incl - 1] = i;
    written += total;
  }
  if (lane == 0) outCount[cell] = written;
}

// Residual of the 5-point Poisson stencil, squared L2 norm per block: groups
// sum by xor, one shared slot per group, the first group folds the slots.
__global__ void residualNorm(const float* __restrict__ u, const float* __restrict__ f, int nx, int ny,
                             float h2inv, float* __restrict__ blockNorm) {
  __shared__ float slot[32];                                                    // note: W64-WARP-COUNT
  const int lane = threadIdx.x & 31, grp = threadIdx.x >> 5;                    // note: W64-LANE-MATH
  const int interior = (nx - 2) * (ny - 2);
  float r2 = 0.f;
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < interior; idx += gridDim.x * blockDim.x) {
    const int x = 1 + idx % (nx - 2), y = 1 + idx / (nx - 2);
    const size_t c = static_cast<size_t>(y) * nx + x;
    const float r = f[c] - h2inv * (4.f * u[c] - u[c - 1] - u[c + 1] - u[c - nx] - u[c + nx]);
    r2 = fmaf(r, r, r2);
  }
  for (int o = 16; o > 0; o >>= 1) r2 += __shfl_xor_sync(GROUP_MASK, r2, o);    // note: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) slot[grp] = r2;
  __syncthreads();
  if (threadIdx.x < 32) {
    float v = threadIdx.x < blockDim.x / 32 ? slot[threadIdx.x] : 0.f;          // note: W64-WARP-COUNT
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(GROUP_MASK, v, o);   // note: W64-MASK32 // quiet: W64-SHFL-OFFSET
    if (threadIdx.x == 0) blockNorm[blockIdx.x] = v;
  }
}

int main(int argc, char** argv) {
  const int n = 1 << 16, k = 64, dims = 96, numCells = 32768, nx = 1026, ny = 1026;
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  float *pts, *cent, *best, *sums, *u, *f, *norms;
  int *assign, *counts, *cellStart, *cellEnd, *out, *outCount;
  float4* pos;
  cudaMalloc(&pts, sizeof(float) * n * dims);
  cudaMalloc(&cent, sizeof(float) * k * dims);
  cudaMalloc(&best, sizeof(float) * n);
  cudaMalloc(&sums, sizeof(float) * k * dims);
  cudaMalloc(&assign, sizeof(int) * n);
  cudaMalloc(&counts, sizeof(int) * k);
  cudaMalloc(&pos, sizeof(float4) * n);
  cudaMalloc(&cellStart, sizeof(int) * numCells);
  cudaMalloc(&cellEnd, sizeof(int) * numCells);
  cudaMalloc(&out, sizeof(int) * n);
  cudaMalloc(&outCount, sizeof(int) * numCells);
  cudaMalloc(&u, sizeof(float) * nx * ny);
  cudaMalloc(&f, sizeof(float) * nx * ny);
  cudaMalloc(&norms, sizeof(float) * 4 * sms);

  const int pointsPerBlock = kBlockThreads / 32;                                // note: W64-WARP-COUNT
  const int assignBlocks = (n + pointsPerBlock - 1) / pointsPerBlock;
  kmeansAssignGroups<<<assignBlocks, kBlockThreads>>>(pts, cent, n, k, dims, assign, best);   // quiet: W64-BLOCK-SIZE
  cudaMemset(sums, 0, sizeof(float) * k * dims);
  cudaMemset(counts, 0, sizeof(int) * k);
  kmeansAccumulate<<<assignBlocks, kBlockThreads>>>(pts, assign, n, dims, sums, counts);

  const int cellsPerBlock = argc > 1 ? atoi(argv[1]) : 8;
  const int slabThreads = 32 * cellsPerBlock;                                   // note: W64-BLOCK-SIZE
  compactSlabGroups<<<(numCells + cellsPerBlock - 1) / cellsPerBlock, slabThreads>>>(
      pos, cellStart, cellEnd, numCells, 0.25f, 0.75f, out, outCount);

  residualNorm<<<4 * sms, 96>>>(u, f, nx, ny, 1.f, norms);                     // note: W64-BLOCK-SIZE
  cudaError_t err = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(err));
  cudaFree(pts); cudaFree(cent); cudaFree(best); cudaFree(sums); cudaFree(assign); cudaFree(counts);
  cudaFree(pos); cudaFree(cellStart); cudaFree(cellEnd); cudaFree(out); cudaFree(outCount);
  cudaFree(u); cudaFree(f); cudaFree(norms);
  return 0;
}
