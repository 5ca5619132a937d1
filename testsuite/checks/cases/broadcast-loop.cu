// W64-SHFL-OFFSET on a loop that broadcasts from every lane of a 32-lane warp
// in turn (for (k = 0; k < 32; ++k) __shfl_sync(m, x, k)): on a 64-lane
// wavefront lanes 32-63 are never read. Its fix (k < warpSize) makes 64 lanes
// pair up, a change of design, so --fix-wave64 does not apply it. Quiet with
// warpSize as the bound, with an explicit width, and for a loop whose counter
// is not a source lane.
#include <cuda_runtime.h>

__global__ void allPairs(const float *x, float *out) {
  int lane = threadIdx.x % warpSize;
  float mine = x[blockIdx.x * blockDim.x + threadIdx.x], acc = 0.f;
  for (int k = 0; k < 32; ++k) acc += mine * __shfl_sync(0xffffffff, mine, k);
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc + lane;
}

__global__ void allPairsWavefront(const float *x, float *out) {
  float mine = x[blockIdx.x * blockDim.x + threadIdx.x], acc = 0.f;
  for (int k = 0; k < warpSize; ++k) acc += mine * __shfl_sync(0xffffffff, mine, k);
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void allPairsGroups(const float *x, float *out) {
  float mine = x[blockIdx.x * blockDim.x + threadIdx.x], acc = 0.f;
  for (int k = 0; k < 32; ++k) acc += mine * __shfl_sync(0xffffffff, mine, k, 32);
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc + warpSize;
}

__global__ void repeated(const float *x, float *out) {
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int k = 0; k < 32; ++k) v = 0.5f * (v + __shfl_down_sync(0xffffffff, v, 1));
  out[blockIdx.x * blockDim.x + threadIdx.x] = v + warpSize;
}

int main() { return 0; }
