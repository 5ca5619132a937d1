// W64-LANE-MATH on half-warp splits: `lane < 16` on a lane numbered by
// warpSize, where the code pairs lanes with shuffles by 16, splits a 32-lane
// warp; on a 64-lane wavefront it selects a quarter. Quiet where the lane is
// numbered in 32-lane groups (the split belongs to that design) and where no
// shuffle pairs lanes by 16 (16 is then a size of the code's own).
#include <cuda_runtime.h>

__global__ void upperHalfWrites(float *x) {
  int lane = threadIdx.x % warpSize;
  float v = x[threadIdx.x];
  v += __shfl_xor_sync(0xffffffff, v, 16);
  if (lane < 16) x[threadIdx.x] = v;
}

__global__ void rotateHalves(float *x) {
  int lane = threadIdx.x & (warpSize - 1);
  float v = x[threadIdx.x];
  float other = __shfl_sync(0xffffffff, v, lane + 16);
  if (lane >= 16) x[threadIdx.x] = other;
}

__global__ void groupsOf32(float *x) {
  int lane = threadIdx.x & 31;
  float v = x[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 16);
  if (lane < 16) x[threadIdx.x] = v;
}

__global__ void sixteenColumns(float *x, const float *table) {
  int lane = threadIdx.x % warpSize;
  float v = __shfl_sync(0xffffffff, x[threadIdx.x], 0);
  if (lane < 16) x[threadIdx.x] = v * table[lane];
}

int main() { return 0; }
