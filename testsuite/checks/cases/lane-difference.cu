// W64-LANE-MATH on a lane spelled as a difference, tid - warp * 32 or
// tid - (warp << 5): the stride of 32 over it assumes 32 lanes, as over
// tid % 32. Quiet where the warp index is counted by warpSize.
#include <cuda_runtime.h>

__global__ void rowsByDifference(const float *u, float *rowSum, int nx) {
  const int warp = threadIdx.x >> 5;
  const int lane = threadIdx.x - (warp << 5);
  float s = 0.f;
  for (int x = lane; x < nx; x += 32) s += u[blockIdx.x * nx + x];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
  if (lane == 0) rowSum[blockIdx.x * (blockDim.x / 32) + warp] = s;
}

__global__ void rowsByProduct(const float *u, float *rowSum, int nx) {
  const int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  const int gwarp = gtid / 32;
  const int lane = gtid - 32 * gwarp;
  float s = 0.f;
  for (int x = lane; x < nx; x += 32) s += u[gwarp * nx + x];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
  if (lane == 0) rowSum[gwarp] = s;
}

__global__ void rowsByWavefront(const float *u, float *rowSum, int nx) {
  const int warp = threadIdx.x / warpSize;
  const int lane = threadIdx.x - warp * warpSize;
  float s = 0.f;
  for (int x = lane; x < nx; x += warpSize) s += u[blockIdx.x * nx + x];
  for (int o = warpSize / 2; o > 0; o >>= 1) s += __shfl_down(s, o);
  if (lane == 0) rowSum[blockIdx.x * (blockDim.x / warpSize) + warp] = s;
}

int main() { return 0; }
