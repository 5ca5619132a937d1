// Tuning round 14. Cause 5: consistent 32-lane groups, right at 64 lanes as written.
// Domains: sparse Cholesky with supernodes (a syrk-style update of pairs of
// panel rows, column norms of the diagonal block, column offsets of supernodes
// of at most 32 columns), polynomial multiplication by NTT (length-32
// transforms in registers with xor butterflies, a four-step transpose, the
// pointwise product).
// Labels were written from docs/checks only; the tool was never run on this file.
// The unit never reads warpSize, takes no ballot, vote, activemask, match or
// reduce, passes no shuffle width and broadcasts from no lane: every shuffle is
// a down or xor by an offset below 32 (loops from 16, `o; o >>= 1`, and a scan
// by 1..16). So it works in consistent 32-lane groups, and what the checks find
// about them is a note (`note:`), masks included. Ambiguous calls:
// - SN_GROUP (32, a name without warp/lane/wave) is reported at its definition;
//   its first use is lane math (LANE-MATH at the definition), each use line is
//   labelled with the id its check gives there.
// - `threadIdx.x / SN_GROUP` and `blockDim.x / SN_GROUP` on one line: LANE-MATH
//   and WARP-COUNT.
// - The scan loop `for (d = 1; d < 32; d <<= 1)` over `__shfl_down_sync` is a
//   scan up to 32 (SHFL-OFFSET), and `lane + d < 32` a last-lane test.
// - Launches: `32 * groupsPerBlock` (runtime count) is a launch shape computed
//   with 32 (note); `<<<ncols, 96>>>` a constant block no multiple of 64
//   (note); `4 * SN_GROUP` and the `kNttThreads = 32 * 8` block are constant
//   blocks of whole wavefronts for kernels that divide by 32 themselves: quiet.
// - TILE_DIM / BLOCK_ROWS in the transpose (no shuffles there): tile sizes, quiet.
#include <cuda_runtime.h>
#include <cstdint>

#define SN_GROUP 32                                                                 // note: W64-LANE-MATH
#define TILE_DIM 32
#define BLOCK_ROWS 8

// ------------------------------------------------------ supernodal Cholesky ----

// L(ti, tj) -= <panel row i, panel row j> over the k columns of the supernode
// (column-major panel, leading dimension ld); one group of SN_GROUP threads per pair.
__global__ void sn_syrk_pairs(const double* __restrict__ panel, int ld, int k, const int2* __restrict__ pairs,
                              int npairs, const int* __restrict__ target, double* __restrict__ Lx) {
  const int lane = threadIdx.x & (SN_GROUP - 1);                                   // note: W64-LANE-MATH
  const int grp = (blockIdx.x * blockDim.x + threadIdx.x) / SN_GROUP;              // note: W64-LANE-MATH
  if (grp >= npairs) return;
  const double* ri = panel + pairs[grp].x;
  const double* rj = panel + pairs[grp].y;
  double s = 0.0;
  for (int c = lane; c < k; c += SN_GROUP) s += ri[static_cast<size_t>(c) * ld] * rj[static_cast<size_t>(c) * ld];   // note: W64-LANE-MATH
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);      // note: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) atomicAdd(&Lx[target[grp]], -s);
}

// Euclidean norm of every column of the diagonal block (pivot growth check).
__global__ void sn_column_norms(const double* __restrict__ panel, int ld, int nrows, double* __restrict__ colNorm) {
  __shared__ double part[32];                                                       // note: W64-WARP-COUNT
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;                      // note: W64-LANE-MATH
  const double* col = panel + static_cast<size_t>(blockIdx.x) * ld;
  double s = 0.0;
  for (int r = threadIdx.x; r < nrows; r += blockDim.x) s += col[r] * col[r];
  for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);            // note: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) part[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = lane < (blockDim.x >> 5) ? part[lane] : 0.0;                                // note: W64-WARP-COUNT
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);          // note: W64-SHFL-OFFSET, W64-MASK32
    if (lane == 0) colNorm[blockIdx.x] = sqrt(s);
  }
}

// Suffix sums of the column counts of each supernode (at most SN_GROUP columns,
// one lane per column): colOffset[c] = nonzeros in columns c.. of the supernode.
__global__ void sn_col_offsets(const int* __restrict__ colCount, const int* __restrict__ snStart, int nsuper,
                               int* __restrict__ colOffset) {
  const int lane = threadIdx.x % SN_GROUP;                                          // note: W64-LANE-MATH
  const int sn = blockIdx.x * (blockDim.x / SN_GROUP) + threadIdx.x / SN_GROUP;     // note: W64-LANE-MATH, W64-WARP-COUNT
  if (sn >= nsuper) return;
  const int c0 = snStart[sn], width = snStart[sn + 1] - c0;
  int v = lane < width ? colCount[c0 + lane] : 0;
  for (int d = 1; d < 32; d <<= 1) {                                                // note: W64-SHFL-OFFSET
    const int o = __shfl_down_sync(0xffffffffu, v, d);                              // note: W64-MASK32
    if (lane + d < 32) v += o;                                                      // note: W64-LANE-MATH
  }
  if (lane < width) colOffset[c0 + lane] = v;
}

// ------------------------------------------------------------------ NTT ----

namespace ntt {

constexpr uint32_t kP = 998244353u;

__device__ __forceinline__ uint32_t mulmod(uint32_t a, uint32_t b) {
  return static_cast<uint32_t>(static_cast<uint64_t>(a) * b % kP);
}
__device__ __forceinline__ uint32_t addmod(uint32_t a, uint32_t b) { const uint32_t s = a + b; return s >= kP ? s - kP : s; }
__device__ __forceinline__ uint32_t submod(uint32_t a, uint32_t b) { return a >= b ? a - b : a + kP - b; }

// Forward length-32 NTT, one coefficient per lane, decimation in frequency
// (output in bit-reversed order); tw[j] = w32^j.
__global__ void ntt32_forward(uint32_t* __restrict__ a, const uint32_t* __restrict__ tw, int nvec) {
  const int lane = threadIdx.x & 31;                                                // note: W64-LANE-MATH
  const int vec = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);              // note: W64-WARP-COUNT, W64-LANE-MATH
  if (vec >= nvec) return;
  uint32_t* v = a + static_cast<size_t>(vec) * 32;                                  // note: W64-LANE-MATH
  uint32_t x = v[lane];
  for (int half = 16; half > 0; half >>= 1) {                                       // note: W64-SHFL-OFFSET
    const uint32_t y = __shfl_xor_sync(0xffffffffu, x, half);                       // note: W64-MASK32
    const uint32_t w = tw[(lane & (half - 1)) * (16 / half)];
    x = (lane & half) ? mulmod(submod(y, x), w) : addmod(x, y);
  }
  v[lane] = x;
}

// Four-step NTT: transpose of a rows x cols matrix of residues through a padded tile.
__global__ void transpose_residues(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, int rows, int cols) {
  __shared__ uint32_t tile[TILE_DIM][TILE_DIM + 1];                                 // quiet: W64-WARP-COUNT
  const int x = blockIdx.x * TILE_DIM + threadIdx.x;                                // quiet: W64-LANE-MATH
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)                                    // quiet: W64-LANE-MATH
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[static_cast<size_t>(y + j) * cols + x];
  __syncthreads();
  const int tx = blockIdx.y * TILE_DIM + threadIdx.x;                               // quiet: W64-LANE-MATH
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (tx < rows && y + j < cols) out[static_cast<size_t>(y + j) * rows + tx] = tile[threadIdx.x][threadIdx.y + j];
}

// Pointwise product of two transformed polynomials, scaled by the twiddles of step 3.
__global__ void pointwise(const uint32_t* __restrict__ fa, const uint32_t* __restrict__ fb,
                          const uint32_t* __restrict__ step, uint32_t* __restrict__ fc, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    fc[i] = mulmod(mulmod(fa[i], fb[i]), step[i]);
}

}  // namespace ntt

constexpr int kNttThreads = 32 * 8;                                                 // quiet: W64-BLOCK-SIZE

void supernode_update(const double* panel, int ld, int k, const int2* pairs, int npairs, const int* target,
                      double* Lx, int nrows, int ncols, double* colNorm, const int* colCount, const int* snStart,
                      int nsuper, int* colOffset, int groupsPerBlock, cudaStream_t s) {
  const int threads = 32 * groupsPerBlock;                                          // note: W64-BLOCK-SIZE
  sn_syrk_pairs<<<(npairs + groupsPerBlock - 1) / groupsPerBlock, threads, 0, s>>>(panel, ld, k, pairs, npairs, target, Lx);
  sn_column_norms<<<ncols, 96, 0, s>>>(panel, ld, nrows, colNorm);                  // note: W64-BLOCK-SIZE
  sn_col_offsets<<<(nsuper + 3) / 4, 4 * SN_GROUP, 0, s>>>(colCount, snStart, nsuper, colOffset);   // quiet: W64-BLOCK-SIZE
}

void poly_multiply_step(uint32_t* a, uint32_t* b, const uint32_t* tw, const uint32_t* step, uint32_t* scratch,
                        uint32_t* c, int rows, int cols, cudaStream_t s) {
  const int nvec = rows * cols / 32;                                                // quiet: W64-WARP-COUNT
  ntt::ntt32_forward<<<(nvec + 7) / 8, kNttThreads, 0, s>>>(a, tw, nvec);
  ntt::ntt32_forward<<<(nvec + 7) / 8, kNttThreads, 0, s>>>(b, tw, nvec);
  const dim3 tb(TILE_DIM, BLOCK_ROWS);                                              // quiet: W64-BLOCK-SIZE
  const dim3 tg((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
  ntt::transpose_residues<<<tg, tb, 0, s>>>(a, scratch, rows, cols);
  ntt::transpose_residues<<<tg, tb, 0, s>>>(b, a, rows, cols);
  ntt::pointwise<<<(rows * cols + 255) / 256, 256, 0, s>>>(scratch, a, step, c, rows * cols);
}
