// Tuning round 10. Cause 1: lane strides and per-lane splits.
// Sparse matrices (ELL and SELL-C-sigma), a molecular-dynamics neighbour-list
// build, k-means assignment and a segmented maximum.
// Ambiguous calls (labelled by the check pages):
// - ellSpmvRow steps its unsigned lane in a while loop (`k += 32u`): a lane
//   stride like the `for` form (expect), next to its lane and global warp id.
// - buildNeighbours numbers lanes by warpSize, but counts its rounds as
//   `(len + 31) / 32` and takes `first + lane + r * 32`: per-lane offsets by
//   32 around a lane by warpSize still assume 32 lanes (both lines expect).
//   Its `j += warpSize` copy loop, the 64-bit full mask and the `1ull << lane`
//   lane bit are quiet.
// - kmeansAssign: the per-lane share `(dim + 31) / 32` and `i * 32 + lane`
//   are both labelled (the share row of the LANE-MATH table); its xor
//   butterfly written upwards as a loop to 32 is a SHFL-OFFSET finding.
// - segmentMax: WARP_SIZE is reported at its definition (LANE-MATH) and every
//   use line is labelled with the id the check gives there; the contiguous
//   share `lane * chunk` with `chunk = (len + 31) / 32` sits on one line.
// - sellSpmv: the SELL slice height kSliceRows = 32 is a layout constant of a
//   kernel that does not shuffle (quiet, as a TILE-like name would be).
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

#define WARP_SIZE 32                                                        // expect: W64-LANE-MATH

// ---------------------------------------------------------------------------
// ELL SpMV (column-major slots), one warp per row.
__global__ void ellSpmvRow(const int* __restrict__ cols, const float* __restrict__ vals,
                           const float* __restrict__ x, float* __restrict__ y,
                           unsigned nRows, unsigned width) {
  const unsigned lane = threadIdx.x & 31u;                                  // expect: W64-LANE-MATH
  const unsigned row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;        // expect: W64-LANE-MATH
  if (row >= nRows) return;
  float acc = 0.f;
  unsigned k = lane;
  while (k < width) {
    const size_t slot = static_cast<size_t>(k) * nRows + row;
    const int c = cols[slot];
    if (c >= 0) acc += vals[slot] * __ldg(x + c);
    k += 32u;                                                               // expect: W64-LANE-MATH
  }
  for (int off = 16; off > 0; off >>= 1)                                    // expect: W64-SHFL-OFFSET
    acc += __shfl_down_sync(0xffffffffu, acc, off);                         // expect: W64-MASK32
  if (lane == 0) y[row] = acc;
}

// ---------------------------------------------------------------------------
// SELL-C-sigma SpMV: one thread per row, rows of a slice stored interleaved.
constexpr int kSliceRows = 32;   // C of SELL-C-sigma

__global__ void sellSpmv(const int* __restrict__ sliceStart, const int* __restrict__ sliceLen,
                         const int* __restrict__ cols, const float* __restrict__ vals,
                         const float* __restrict__ x, const int* __restrict__ perm,
                         float* __restrict__ y, int nRows) {
  const int slice = blockIdx.x * (blockDim.x / kSliceRows) + threadIdx.x / kSliceRows;   // quiet: W64-LANE-MATH, W64-WARP-COUNT
  const int r = threadIdx.x % kSliceRows;                                   // quiet: W64-LANE-MATH
  const int row = slice * kSliceRows + r;                                   // quiet: W64-LANE-MATH
  if (row >= nRows) return;
  const int base = sliceStart[slice];
  float acc = 0.f;
  for (int j = 0; j < sliceLen[slice]; ++j) {
    const int idx = base + j * kSliceRows + r;                              // quiet: W64-LANE-MATH
    acc += vals[idx] * x[cols[idx]];
  }
  y[perm[row]] = acc;
}

// ---------------------------------------------------------------------------
// Neighbour list from a cell list: one warp per atom, candidates of the 27
// surrounding cells are tested a warp-width at a time and compacted with a
// ballot.
constexpr unsigned long long kAllLanes64 = ~0ull;                          // quiet: W64-MASK32

__device__ __forceinline__ float dist2(float4 a, float4 b) {
  const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  return dx * dx + dy * dy + dz * dz;
}

__global__ void buildNeighbours(const float4* __restrict__ pos, const int* __restrict__ cellStart,
                                const int* __restrict__ cellEnd, const int* __restrict__ cellOf,
                                int* __restrict__ nbr, int* __restrict__ nbrCount,
                                int maxNbr, int nAtoms, float rc2, int3 dims) {
  const int lane = threadIdx.x % warpSize;
  const int atom = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (atom >= nAtoms) return;
  const float4 pi = pos[atom];
  const int home = cellOf[atom];
  const int hx = home % dims.x, hy = (home / dims.x) % dims.y, hz = home / (dims.x * dims.y);
  int found = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int cx = (hx + dx + dims.x) % dims.x, cy = (hy + dy + dims.y) % dims.y;
        const int cz = (hz + dz + dims.z) % dims.z;
        const int c = (cz * dims.y + cy) * dims.x + cx;
        const int first = cellStart[c], last = cellEnd[c];
        const int rounds = (last - first + 31) / 32;                        // expect: W64-LANE-MATH
        for (int r = 0; r < rounds; ++r) {
          const int cand = first + lane + r * 32;                           // expect: W64-LANE-MATH
          const bool near = cand < last && cand != atom && dist2(pi, pos[cand]) < rc2;
          const unsigned long long bits = __ballot_sync(kAllLanes64, near); // quiet: W64-MASK32, W64-BALLOT-NARROW
          const int slot = found + __popcll(bits & ((1ull << lane) - 1ull));// quiet: W64-BALLOT-NARROW
          if (near && slot < maxNbr) nbr[static_cast<size_t>(atom) * maxNbr + slot] = cand;
          found += __popcll(bits);
        }
      }
  if (lane == 0) nbrCount[atom] = found < maxNbr ? found : maxNbr;
  // Pad the unused tail of the row with -1.
  for (int j = found + lane; j < maxNbr; j += warpSize)                     // quiet: W64-LANE-MATH
    nbr[static_cast<size_t>(atom) * maxNbr + j] = -1;
}

// ---------------------------------------------------------------------------
// k-means assignment: one warp per point, each lane holds a share of the dims.
__global__ void kmeansAssign(const float* __restrict__ pts, const float* __restrict__ cent,
                             int* __restrict__ label, int nPts, int nCent, int dim) {
  const int lane = threadIdx.x & 31;                                        // expect: W64-LANE-MATH
  const int p = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);        // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (p >= nPts) return;
  float best = 3.402823466e38f;
  int bestC = -1;
  for (int c = 0; c < nCent; ++c) {
    float d2 = 0.f;
    for (int i = 0; i < (dim + 31) / 32; ++i) {                             // expect: W64-LANE-MATH
      const int d = i * 32 + lane;                                          // expect: W64-LANE-MATH
      if (d < dim) {
        const float t = pts[static_cast<size_t>(p) * dim + d] - cent[static_cast<size_t>(c) * dim + d];
        d2 += t * t;
      }
    }
    for (int m = 1; m < 32; m <<= 1) d2 += __shfl_xor_sync(~0u, d2, m);     // expect: W64-SHFL-OFFSET, W64-MASK32
    if (d2 < best) { best = d2; bestC = c; }
  }
  if (lane == 0) label[p] = bestC;
}

// ---------------------------------------------------------------------------
// Segmented maximum over CSR-style segments: one warp per segment, each lane
// scans a contiguous chunk, chunk maxima meet in a butterfly.
__global__ void segmentMax(const float* __restrict__ v, const size_t* __restrict__ segOff,
                           float* __restrict__ out, size_t nSeg) {
  const size_t gtid = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t seg = gtid / WARP_SIZE;                                      // expect: W64-LANE-MATH
  const unsigned lane = static_cast<unsigned>(gtid % WARP_SIZE);            // expect: W64-LANE-MATH
  if (seg >= nSeg) return;
  const size_t begin = segOff[seg], len = segOff[seg + 1] - begin;
  const size_t chunk = (len + 31) / 32, first = begin + lane * chunk;       // expect: W64-LANE-MATH
  const size_t stop = first + chunk < begin + len ? first + chunk : begin + len;
  float m = -3.402823466e38f;
  size_t i = first;
  if (i < stop) {
    do {
      m = fmaxf(m, v[i]);
    } while (++i < stop);
  }
  for (int o = WARP_SIZE / 2; o > 0; o /= 2)                               // expect: W64-SHFL-OFFSET
    m = fmaxf(m, __shfl_xor_sync(0xFFFFFFFFu, m, o));                       // expect: W64-MASK32
  if (lane == 0) out[seg] = m;
}
