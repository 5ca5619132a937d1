// Held out, round 5. Cause 5: consistent 32-lane groups (correct on 64 lanes as written).
// Ambiguous calls: the 32-bit masks are labelled expect (W64-MASK32 reports
// them, as a note, in such a unit); the launch `8 * 32` is whole wavefronts
// for a grouped kernel: quiet; `keysPerBlock * GROUP` (96 threads) is a note.
// The scan's shfl_up reads lane - d, which the in-group guard `lane >= d`
// keeps inside the group at width 64, so the unit stays consistent.
#include <cuda_runtime.h>

#define GROUP 32                                                              // note: W64-LANE-MATH

// Block-wide exclusive scan of flags (stream-compaction offsets): an
// inclusive scan per 32-lane group, then one slot per group in shared memory.
__global__ void groupScan(const int *flags, int *offsets, int *blockSums, int n) {
  __shared__ int groupTotal[32];                                              // note: W64-WARP-COUNT
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31, g = threadIdx.x >> 5;                    // note: W64-LANE-MATH
  const int own = i < n ? flags[i] : 0;
  int v = own;
  for (int d = 1; d < 32; d <<= 1) { const int up = __shfl_up_sync(0xffffffffu, v, d); if (lane >= d) v += up; } // note: W64-SHFL-OFFSET // expect: W64-MASK32
  if (lane == 31) groupTotal[g] = v;                                          // note: W64-LANE-MATH
  __syncthreads();
  if (threadIdx.x == 0) {
    int run = 0;
    for (int w = 0; w < (blockDim.x >> 5); ++w) {                             // note: W64-WARP-COUNT
      const int t = groupTotal[w];
      groupTotal[w] = run;
      run += t;
    }
    blockSums[blockIdx.x] = run;
  }
  __syncthreads();
  if (i < n) offsets[i] = groupTotal[g] + v - own;
}

// Attention scores: one 32-lane group per key, a dot product over the head
// dimension with a butterfly over the group.
__global__ void qkScores(const float *q, const float *k, float *score, int nKeys,
                         int headDim, float scale) {
  const int member = threadIdx.x % GROUP;                                     // note: W64-LANE-MATH
  const int key = blockIdx.x * (blockDim.x / GROUP) + threadIdx.x / GROUP;    // note: W64-WARP-COUNT, W64-LANE-MATH
  if (key >= nKeys) return;
  float acc = 0.f;
  for (int d = member; d < headDim; d += GROUP)                               // note: W64-LANE-MATH
    acc += q[d] * k[(size_t)key * headDim + d];
  for (int m = GROUP / 2; m > 0; m >>= 1) acc += __shfl_xor_sync(0xffffffff, acc, m); // note: W64-SHFL-OFFSET // expect: W64-MASK32
  if (member == 0) score[key] = acc * scale;
}

void launchAll(const int *flags, int *offsets, int *blockSums, int n, const float *q,
               const float *k, float *score, int nKeys, int headDim) {
  groupScan<<<(n + 255) / 256, 8 * 32>>>(flags, offsets, blockSums, n);       // quiet: W64-BLOCK-SIZE
  const int keysPerBlock = 3;
  qkScores<<<(nKeys + keysPerBlock - 1) / keysPerBlock, keysPerBlock * GROUP>>>( // note: W64-BLOCK-SIZE
      q, k, score, nKeys, headDim, 0.125f);
}
