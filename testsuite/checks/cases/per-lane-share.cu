// W64-LANE-MATH on each lane's share of a row, counted for 32 lanes through a
// variable: a loop bound (int chunk = (len + 31) / 32; i < chunk; i * 32 +
// lane) or a contiguous share (lane * perLane). Quiet where the share is not
// a lane's (a tile count) and where the lane is numbered by warpSize with no
// stride of 32 (lanes 32-63 then find no work: slower, not wrong).
#include <cuda_runtime.h>

__global__ void strided(const float *in, float *out, int len) {
  int lane = threadIdx.x & 31;
  int chunk = (len + 31) / 32;
  float s = 0;
  for (int i = 0; i < chunk; ++i) {
    int c = i * 32 + lane;
    if (c < len) s += in[blockIdx.x * len + c];
  }
  out[threadIdx.x] = __shfl_down_sync(0xffffffff, s, 1);
}

__global__ void contiguous(const float *m, float *out) {
  int laneId = threadIdx.x % 32;
  const int perLane = 256 / 32;
  float best = 0.f;
  for (int j = 0; j < perLane; ++j)
    best = fmaxf(best, m[blockIdx.x * 256 + laneId * perLane + j]);
  out[threadIdx.x] = __shfl_xor_sync(0xffffffff, best, 1);
}

__global__ void tiles(const float *in, float *out, int len) {
  int tilesPerRow = len / 32;
  float s = 0;
  for (int t = 0; t < tilesPerRow; ++t) s += in[t * 32];
  out[blockIdx.x] = s;
}

__global__ void wavefrontLanes(const float *in, float *out, int len) {
  int lane = threadIdx.x % warpSize;
  int chunk = (len + 31) / 32;
  float s = 0;
  for (int i = lane * chunk; i < min(len, (lane + 1) * chunk); ++i) s += in[i];
  out[threadIdx.x] = __shfl_down_sync(0xffffffff, s, 1);
}

int main() { return 0; }
