// Cause 5: a design built on consistent 32-lane groups, correct on a 64-lane
// wavefront as written: XOR butterflies from offset 16, lane and group ids by
// 32, per-group slots, host sizes by 32, an odd-sized tail.
#include <cuda_runtime.h>

#define GROUP 32                                                 // note: W64-LANE-MATH

__device__ float groupReduce(float v) {
  for (int o = GROUP / 2; o > 0; o >>= 1)                      // note: W64-SHFL-OFFSET
    v += __shfl_xor_sync(0xffffffff, v, o);                    // expect: W64-MASK32
  return v;
}

__global__ void blockSum(const float *in, float *out, int n) {
  __shared__ float slots[1024 / GROUP];                        // note: W64-WARP-COUNT
  int tid = threadIdx.x;
  int lane = tid % GROUP;                                      // note: W64-LANE-MATH
  int group = tid / GROUP;                                     // note: W64-LANE-MATH
  int i = blockIdx.x * blockDim.x + tid;
  float v = i < n ? in[i] : 0.f;
  v = groupReduce(v);
  if (lane == 0) slots[group] = v;
  __syncthreads();
  if (group == 0) {
    int groups = (blockDim.x + GROUP - 1) / GROUP;             // note: W64-WARP-COUNT
    v = lane < groups ? slots[lane] : 0.f;
    v = groupReduce(v);
    if (lane == 0) atomicAdd(out, v);
  }
}

__global__ void rowMax(const float *a, float *m, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); // note: W64-WARP-COUNT, W64-LANE-MATH
  int lane = threadIdx.x & 31;                                 // note: W64-LANE-MATH
  if (row >= rows) return;
  float v = -1e30f;
  for (int c = lane; c < cols; c += 32)                        // note: W64-LANE-MATH
    v = fmaxf(v, a[row * cols + c]);
  for (int o = 16; o; o >>= 1)                                 // note: W64-SHFL-OFFSET
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));           // expect: W64-MASK32
  if (lane == 0) m[row] = v;
}

void launch(const float *in, float *out, int n, const float *a, float *m, int rows, int cols) {
  int threads = 8 * GROUP;                                     // note: W64-BLOCK-SIZE
  blockSum<<<(n + threads - 1) / threads, threads>>>(in, out, n);
  rowMax<<<(rows + 3) / 4, 4 * 32>>>(a, m, rows, cols);         // quiet: W64-BLOCK-SIZE
}
