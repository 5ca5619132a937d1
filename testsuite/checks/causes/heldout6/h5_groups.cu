// Held out, round 6. Cause 5: consistent 32-lane groups (correct on 64 lanes as written).
// Every shuffle is at the default width and reads an offset in [0, 32) (xor
// butterflies and a shfl_down tree whose leader reads only its own group);
// nothing reads the whole warp and nothing reads warpSize. A 64-lane wavefront
// runs two independent teams, which the math by 32 numbers: notes.
// Ambiguous calls (labelled as a demanding GPU engineer would expect):
// - the full masks are labelled `expect: W64-MASK32` as in earlier rounds
//   (a note at the default HIP version in any unit).
// - `blockMax<<<120, 8 * 32>>>` (whole wavefronts, consistent groups) is
//   quiet for W64-BLOCK-SIZE; the 5-team launch of 160 threads is a note.
#include <cfloat>
#include <cuda_runtime.h>

using index_t = int;
struct Team { static constexpr index_t kSize = 32; };                // note: W64-LANE-MATH

// argmax of (value, column) across a team, ties to the lower column.
__device__ __forceinline__ void teamArgmax(float &v, int &col) {
#pragma unroll
  for (int m = Team::kSize >> 1; m > 0; m >>= 1) {                    // note: W64-SHFL-OFFSET
    const float ov = __shfl_xor_sync(0xffffffffu, v, m);               // expect: W64-MASK32
    const int oc = __shfl_xor_sync(0xffffffffu, col, m);              // expect: W64-MASK32
    if (ov > v || (ov == v && oc < col)) { v = ov; col = oc; }
  }
}

// One team per row of logits.
__global__ void rowArgmax(const float *logits, int *best, float *bestVal, int rows, int cols) {
  const int team = threadIdx.x >> 5, member = threadIdx.x & (Team::kSize - 1); // note: W64-LANE-MATH
  const int row = blockIdx.x * (blockDim.x >> 5) + team;              // note: W64-WARP-COUNT
  if (row >= rows) return;
  float v = -FLT_MAX;
  int col = 0x7fffffff;
  for (int c = member; c < cols; c += Team::kSize) {                  // note: W64-LANE-MATH
    const float x = logits[(size_t)row * cols + c];
    if (x > v) { v = x; col = c; }
  }
  teamArgmax(v, col);
  if (member == 0) { best[row] = col; bestVal[row] = v; }
}

__device__ __forceinline__ float groupMax(float v) {
  for (int o = 16; o; o >>= 1)                                         // note: W64-SHFL-OFFSET
    v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, o));                 // expect: W64-MASK32
  return v;
}

// Block maximum through one shared slot per team.
__global__ void blockMax(const float *x, float *out, int n) {
  __shared__ float slot[32];                                           // note: W64-WARP-COUNT
  const int g = threadIdx.x / Team::kSize, l = threadIdx.x % Team::kSize; // note: W64-LANE-MATH
  float v = -FLT_MAX;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    v = fmaxf(v, x[i]);
  v = groupMax(v);
  if (l == 0) slot[g] = v;
  __syncthreads();
  if (g == 0) {
    v = l < blockDim.x / 32 ? slot[l] : -FLT_MAX;                      // note: W64-WARP-COUNT
    v = groupMax(v);
    if (l == 0) out[blockIdx.x] = v;
  }
}

void launchArgmax(const float *logits, int *best, float *bestVal, float *blockPeaks,
                  int rows, int cols) {
  constexpr int teamsPerBlock = 5;
  rowArgmax<<<(rows + teamsPerBlock - 1) / teamsPerBlock, teamsPerBlock * Team::kSize>>>( // note: W64-BLOCK-SIZE
      logits, best, bestVal, rows, cols);
  blockMax<<<120, 8 * 32>>>(bestVal, blockPeaks, rows);                // quiet: W64-BLOCK-SIZE
}
