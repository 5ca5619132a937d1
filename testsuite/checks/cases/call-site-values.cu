// Values a function gets from its calls: a lambda's width that every call
// passes as 32 (`width / 2` is then an offset of 16), a lane test written
// `lane + d < 32`, and shared-memory bytes of 8 floats per lane of 32 lanes,
// where sizeof(float) * 8 is 32 bits, not 32 lanes.
#include <cuda_runtime.h>

__global__ void bestScore(const int *scores, int *best) {
  auto groupMax = [](int v, int width) {
    for (int o = width / 2; o >= 1; o /= 2) v = max(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
  };
  int lane = threadIdx.x & 31;
  int s = groupMax(scores[threadIdx.x], 32);
  for (int d = 1; d < 32; d *= 2) {
    int below = __shfl_down_sync(0xffffffff, s, d);
    if (lane + d < 32) s = max(s, below);
  }
  if (lane == 0) best[threadIdx.x / 32] = groupMax(s, 32);
}

__global__ void staged(float *y) {
  extern __shared__ float stage[];
  float v = y[threadIdx.x];
  v += __shfl_xor_sync(0xffffffff, v, 16);
  stage[threadIdx.x] = v;
  y[threadIdx.x] = stage[threadIdx.x ^ 1] + warpSize;
}

void launch(const int *scores, int *best, float *y, int rows) {
  bestScore<<<1, 256>>>(scores, best);
  const size_t stageBytes = sizeof(float) * 8 * 32 * 4;
  staged<<<rows, 128, stageBytes>>>(y);
}
