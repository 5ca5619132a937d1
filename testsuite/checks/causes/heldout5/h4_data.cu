// Held out, round 5. Cause 4: a thread index used as data (hard negatives only).
// Ambiguous calls: transposeFlat's `threadIdx.x >> 5` / `threadIdx.x & 31` are
// the row and column of a 32x32 tile in a kernel without warp-level code:
// quiet. Its launch's dynamic shared-memory size `32 * 33 * sizeof(float)`
// is a padded tile, not a per-lane size: quiet for W64-BLOCK-SIZE too.
#include <cuda_runtime.h>

// BFS level step on a bitmap frontier: vertex v is bit v % 32 of word v / 32.
__global__ void bfsExpand(const unsigned *frontier, unsigned *next, const int *rowPtr,
                          const int *adj, int *level, int depth, int nVerts) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nVerts) return;
  if (!(frontier[v >> 5] & (1u << (v & 31)))) return;                         // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
  for (int e = rowPtr[v]; e < rowPtr[v + 1]; ++e) {
    const int u = adj[e];
    if (atomicCAS(&level[u], -1, depth + 1) == -1) atomicOr(&next[u / 32], 1u << (u % 32));
  }
}

// Radix sort with 5-bit digits: a 32-bin histogram per block and pass,
// stored digit-major so that the scan over blocks is contiguous.
__global__ void digitHistogram(const unsigned *keys, unsigned *blockHist, int n, int shift) {
  __shared__ unsigned bins[32];                                               // quiet: W64-WARP-COUNT
  for (int b = threadIdx.x; b < 32; b += blockDim.x) bins[b] = 0;             // quiet: W64-LANE-MATH
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&bins[(keys[i] >> shift) & 31], 1u);                            // quiet: W64-LANE-MATH
  __syncthreads();
  if (threadIdx.x < 32) blockHist[threadIdx.x * gridDim.x + blockIdx.x] = bins[threadIdx.x]; // quiet: W64-LANE-MATH
}

// 32x32 tile transpose with a flat block of 1024 threads.
__global__ void transposeFlat(const float *in, float *out, int n) {
  extern __shared__ float tile[];                                             // 32 rows of 33
  const int r = threadIdx.x >> 5, c = threadIdx.x & 31;                       // quiet: W64-LANE-MATH
  const int bx = blockIdx.x * 32, by = blockIdx.y * 32;
  tile[r * 33 + c] = in[(by + r) * n + bx + c];
  __syncthreads();
  out[(bx + r) * n + by + c] = tile[c * 33 + r];
}

// Slab allocator: thread w claims the lowest free slot of its 32-slot word.
__global__ void claimSlots(unsigned *freeBits, int *slotOut, int *freeLeft, int nWords) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= nWords) return;
  const unsigned avail = freeBits[w];
  const int bit = __ffs(avail) - 1;                                           // quiet: W64-BALLOT-NARROW
  slotOut[w] = bit < 0 ? -1 : w * 32 + bit;                                   // quiet: W64-LANE-MATH
  if (bit >= 0) {
    freeBits[w] = avail & ~(1u << bit);
    atomicAdd(freeLeft, __popc(avail) - 1);                                   // quiet: W64-BALLOT-NARROW
  }
}

void transposeSquare(const float *in, float *out, int n) {
  dim3 grid(n / 32, n / 32);                                                  // quiet: W64-WARP-COUNT, W64-BLOCK-SIZE
  transposeFlat<<<grid, 32 * 32, 32 * 33 * sizeof(float)>>>(in, out, n);      // quiet: W64-BLOCK-SIZE
}
