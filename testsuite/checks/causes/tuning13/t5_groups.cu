// Tuning round 13. Cause 5: consistent 32-lane groups, right at 64 lanes as written.
// Domains: cellular Potts model (contact energy per cell from its boundary
// pixels, collection of flip candidates along lattice rows), depthwise 3x3
// convolution with fused per-row statistics, lattice Boltzmann (D2Q9) mass
// residual per block through a cooperative-groups tile of 32.
// The unit shuffles only at the default width by offsets in [0, 32): xor
// butterflies from 16 (one unrolled), an up-scan counted from 1, a broadcast
// from lane 0, and the tile's shfl_down. It takes no ballot, vote,
// activemask, match or reduce, never broadcasts from a fixed lane in 1-31
// (so it is not one of explicit groups) and never reads warpSize (the host
// reads only the SM count). Every finding of the grouping must be a note.
// Ambiguous calls (labelled from the check pages only, never run):
// - kTeamLanes is an enumerator named like a lane count: a definition site
//   (note), every use labelled at its own line with its check's id.
// - TEAM_ALL holds the full 32-bit mask under a name without "mask": a note
//   at its definition and at every call (the group-mask shim).
// - depthwiseRowStats unrolls its xor reduction over two lines; the unrolled
//   sequence is labelled at its first line (offset 16), the second line has
//   only its masks.
// - the tile `cg::tiled_partition<32>` is a note; its loop runs from
//   `team.size() / 2` and is left unlabelled (no 32 written there).
// - lbmMassResidual folds the group slots inside `if (threadIdx.x < 32)`:
//   its loop from 16 is quiet (the check page's rule), the mask a note.
// - `teams * kTeamLanes` (192) is a constant block no multiple of 64 built
//   from the enumerator: labelled W64-BLOCK-SIZE at the launch.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>

namespace cg = cooperative_groups;

#define TEAM_ALL 0xffffffffu                                                             // note: W64-MASK32
enum { kTeamLanes = 32 };                                                                // note: W64-LANE-MATH
constexpr int kPottsThreads = 256;                                                       // quiet: W64-BLOCK-SIZE

// Potts contact energy: one team per cell strides the cell's boundary pixels;
// each unlike neighbour adds J(type, type').
__global__ void __launch_bounds__(kPottsThreads)
pottsContactEnergy(const int* __restrict__ sigma, const int* __restrict__ cellType, const int* __restrict__ bndStart,
                   const int* __restrict__ bndPix, const float* __restrict__ J, int nTypes, int nx, int nCells,
                   float* __restrict__ energy) {
  const int lane = threadIdx.x % kTeamLanes;                                             // note: W64-LANE-MATH
  const int cell = blockIdx.x * (kPottsThreads / kTeamLanes) + threadIdx.x / kTeamLanes; // note: W64-WARP-COUNT, W64-LANE-MATH
  if (cell >= nCells) return;
  const int tc = cellType[cell];
  float e = 0.f;
  for (int k = bndStart[cell] + lane; k < bndStart[cell + 1]; k += kTeamLanes) {         // note: W64-LANE-MATH
    const int p = bndPix[k];
    const int nbs[4] = {p - 1, p + 1, p - nx, p + nx};
    for (int q = 0; q < 4; ++q) {
      const int s = sigma[nbs[q]];
      if (s != cell) e += J[tc * nTypes + (s >= 0 ? cellType[s] : 0)];
    }
  }
  for (int o = kTeamLanes / 2; o > 0; o >>= 1) e += __shfl_xor_sync(TEAM_ALL, e, o);    // note: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) energy[cell] = 0.5f * e;
}

// Flip candidates: one team per lattice row walks it in tiles of 32 pixels and
// appends the pixels whose right neighbour belongs to another cell.
__global__ void collectFlipCandidates(const int* __restrict__ sigma, int nx, int ny, int* __restrict__ cand,
                                      int* __restrict__ nCand) {
  const int lane = threadIdx.x & (kTeamLanes - 1);                                       // note: W64-LANE-MATH
  const int y = (blockIdx.x * blockDim.x + threadIdx.x) / kTeamLanes;                    // note: W64-LANE-MATH
  if (y >= ny) return;
  for (int x0 = 0; x0 < nx; x0 += kTeamLanes) {                                          // note: W64-LANE-MATH
    const int x = x0 + lane;
    const int p = y * nx + x;
    const int flag = (x + 1 < nx && sigma[p] != sigma[p + 1]) ? 1 : 0;
    int incl = flag;
    for (int d = 1; d < kTeamLanes; d <<= 1) {                                           // note: W64-SHFL-OFFSET
      const int up = __shfl_up_sync(TEAM_ALL, incl, d);                                  // note: W64-MASK32
      if (lane >= d) incl += up;
    }
    int tot = flag;
    for (int o = 16; o; o >>= 1) tot += __shfl_xor_sync(TEAM_ALL, tot, o);               // note: W64-SHFL-OFFSET, W64-MASK32
    int base = 0;
    if (lane == 0 && tot > 0) base = atomicAdd(nCand, tot);
    base = __shfl_sync(TEAM_ALL, base, 0);                                               // note: W64-MASK32
    if (flag) cand[base + incl - 1] = p;
  }
}

// Depthwise 3x3 convolution, one team per (channel, row); each lane computes
// the outputs x0 + lane of each tile of 32 columns, the team sums the row's
// outputs and squares for the following normalisation.
__global__ void depthwiseRowStats(const float* __restrict__ in, const float* __restrict__ w3x3,
                                  const float* __restrict__ bias, float* __restrict__ out, float2* __restrict__ rowStats,
                                  int C, int H, int W) {
  const int lane = threadIdx.x & 31;                                                     // note: W64-LANE-MATH
  const int rowId = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;                        // note: W64-LANE-MATH
  if (rowId >= C * H) return;
  const int c = rowId / H, y = rowId % H;
  const float* wc = w3x3 + c * 9;
  const float* plane = in + static_cast<size_t>(c) * H * W;
  float s = 0.f, ss = 0.f;
  for (int x0 = 0; x0 < W; x0 += 32) {                                                   // note: W64-LANE-MATH
    const int x = x0 + lane;
    if (x >= W) continue;
    float acc = bias[c];
    for (int dy = -1; dy <= 1; ++dy) {
      const int yy = y + dy;
      if (yy < 0 || yy >= H) continue;
      for (int dx = -1; dx <= 1; ++dx) {
        const int xx = x + dx;
        if (xx >= 0 && xx < W) acc = fmaf(wc[(dy + 1) * 3 + dx + 1], plane[yy * W + xx], acc);
      }
    }
    out[(static_cast<size_t>(c) * H + y) * W + x] = acc;
    s += acc;
    ss = fmaf(acc, acc, ss);
  }
  s += __shfl_xor_sync(TEAM_ALL, s, 16); s += __shfl_xor_sync(TEAM_ALL, s, 8); s += __shfl_xor_sync(TEAM_ALL, s, 4);   // note: W64-SHFL-OFFSET, W64-MASK32
  s += __shfl_xor_sync(TEAM_ALL, s, 2);  s += __shfl_xor_sync(TEAM_ALL, s, 1);                                           // note: W64-MASK32
  for (int o = 16; o > 0; o /= 2) ss += __shfl_xor_sync(TEAM_ALL, ss, o);                // note: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) rowStats[rowId] = make_float2(s / W, ss / W);
}

// Lattice Boltzmann (D2Q9): |sum_q f_q - rho0| summed per block. Each tile of
// 32 threads reduces through the tile, one shared slot per tile, the first
// 32 threads fold the slots.
__global__ void lbmMassResidual(const float* __restrict__ f, int nCells, float rho0, float* __restrict__ blockOut) {
  __shared__ float teamSlot[32];                                                         // note: W64-WARP-COUNT
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> team = cg::tiled_partition<32>(block);                       // note: W64-SHFL-OFFSET
  float r = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nCells; i += gridDim.x * blockDim.x) {
    float rho = 0.f;
    for (int q = 0; q < 9; ++q) rho += f[static_cast<size_t>(q) * nCells + i];
    r += fabsf(rho - rho0);
  }
  for (int o = team.size() / 2; o > 0; o >>= 1) r += team.shfl_down(r, o);
  if (team.thread_rank() == 0) teamSlot[threadIdx.x >> 5] = r;                           // note: W64-LANE-MATH
  block.sync();
  if (threadIdx.x < 32) {
    float v = threadIdx.x < (blockDim.x >> 5) ? teamSlot[threadIdx.x] : 0.f;             // note: W64-WARP-COUNT
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(TEAM_ALL, v, o);              // note: W64-MASK32 // quiet: W64-SHFL-OFFSET
    if (threadIdx.x == 0) blockOut[blockIdx.x] = v;
  }
}

int main(int argc, char** argv) {
  const int nx = 1024, ny = 1024, nCells = 20000, nTypes = 3, C = 96, H = 112, W = 112, nLbm = 512 * 512;
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  int *sigma, *cellType, *bndStart, *bndPix, *cand, *nCand;
  float *J, *energy, *in, *w3, *bias, *out, *f, *resid;
  float2* rowStats;
  cudaMalloc(&sigma, sizeof(int) * nx * ny);
  cudaMalloc(&cellType, sizeof(int) * nCells);
  cudaMalloc(&bndStart, sizeof(int) * (nCells + 1));
  cudaMalloc(&bndPix, sizeof(int) * nx * ny);
  cudaMalloc(&J, sizeof(float) * nTypes * nTypes);
  cudaMalloc(&energy, sizeof(float) * nCells);
  cudaMalloc(&cand, sizeof(int) * nx * ny);
  cudaMalloc(&nCand, sizeof(int));
  cudaMalloc(&in, sizeof(float) * C * H * W);
  cudaMalloc(&out, sizeof(float) * C * H * W);
  cudaMalloc(&w3, sizeof(float) * C * 9);
  cudaMalloc(&bias, sizeof(float) * C);
  cudaMalloc(&rowStats, sizeof(float2) * C * H);
  cudaMalloc(&f, sizeof(float) * 9 * nLbm);
  cudaMalloc(&resid, sizeof(float) * 2 * sms);

  const int cellsPerBlock = kPottsThreads / kTeamLanes;                                  // note: W64-WARP-COUNT
  pottsContactEnergy<<<(nCells + cellsPerBlock - 1) / cellsPerBlock, kPottsThreads>>>(   // quiet: W64-BLOCK-SIZE
      sigma, cellType, bndStart, bndPix, J, nTypes, nx, nCells, energy);

  const int rowsPerBlock = argc > 1 ? atoi(argv[1]) : 4;
  const int flipThreads = rowsPerBlock * 32;                                             // note: W64-BLOCK-SIZE
  cudaMemset(nCand, 0, sizeof(int));
  collectFlipCandidates<<<(ny + rowsPerBlock - 1) / rowsPerBlock, flipThreads>>>(sigma, nx, ny, cand, nCand);

  const int teams = 6;
  depthwiseRowStats<<<(C * H + teams - 1) / teams, teams * kTeamLanes>>>(in, w3, bias, out, rowStats, C, H, W);   // note: W64-BLOCK-SIZE

  lbmMassResidual<<<2 * sms, 160>>>(f, nLbm, 1.f, resid);                               // note: W64-BLOCK-SIZE
  int h = 0;
  cudaMemcpy(&h, nCand, sizeof(int), cudaMemcpyDeviceToHost);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("%d flip candidates, %s\n", h, cudaGetErrorString(err));
  cudaFree(sigma); cudaFree(cellType); cudaFree(bndStart); cudaFree(bndPix); cudaFree(J); cudaFree(energy);
  cudaFree(cand); cudaFree(nCand); cudaFree(in); cudaFree(out); cudaFree(w3); cudaFree(bias); cudaFree(rowStats);
  cudaFree(f); cudaFree(resid);
  return 0;
}
