// Consistent 32-lane groups at HIP 6.4: their full 32-bit shuffle masks
// become the caller's group (cu2dcu_group_mask), so a block of 32 threads
// or a group that returns early never trips HIP's mask check. The same
// design as checks/cases/lane-groups-consistent.cu; at HIP 5.2 the masks
// are dropped.
#include <cuda_runtime.h>

#define GROUP_SIZE 32

__device__ float groupSum(float v) {
  for (int o = 16; o; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}

__global__ void blockSum(const float *in, float *out, int n) {
  __shared__ float slots[32];
  int lane = threadIdx.x & 31;
  int group = threadIdx.x >> 5;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = groupSum(i < n ? in[i] : 0.f);
  if (lane == 0)
    slots[group] = v;
  __syncthreads();
  if (group == 0) {
    v = lane < blockDim.x / 32 ? slots[lane] : 0.f;
    v = groupSum(v);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void rowSums(const float *a, float *sums, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / GROUP_SIZE) + threadIdx.x / GROUP_SIZE;
  int lane = threadIdx.x % GROUP_SIZE;
  if (row >= rows)
    return;
  float v = 0.f;
  for (int c = lane; c < cols; c += 32)
    v += a[row * cols + c];
  v = groupSum(v);
  if (lane == 0)
    sums[row] = v;
}

void launch(const float *in, float *out, int n, const float *a, float *sums, int rows, int cols) {
  blockSum<<<(n + 255) / 256, 256>>>(in, out, n);
  rowSums<<<(rows + 3) / 4, 4 * 32>>>(a, sums, rows, cols);
}
