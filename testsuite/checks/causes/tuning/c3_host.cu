// Cause 3: host code that assumes 32-lane warps.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void warpRows(const float *a, float *out, int rows) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int lane = threadIdx.x % warpSize;
  if (warp >= rows) return;
  float v = 0.f;
  for (int c = lane; c < 256; c += warpSize)
    v += a[warp * 256 + c];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);                   // expect: W64-MASK32
  if (lane == 0) out[warp] = v;
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  if (prop.warpSize != 32) {                                   // expect: W64-HOST-WARP-SIZE
    fprintf(stderr, "needs 32-lane warps\n");
    return 1;
  }
  int ws = 0;
  cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, 0);
  bool narrow = (ws == 32);                                    // expect: W64-HOST-WARP-SIZE
  int rows = 1000;
  int warpsPerBlock = 8;
  int threads = warpsPerBlock * 32;                            // expect: W64-BLOCK-SIZE
  int blocks = (rows + warpsPerBlock - 1) / warpsPerBlock;
  float *a, *out;
  cudaMalloc(&a, rows * 256 * sizeof(float));
  cudaMalloc(&out, rows * sizeof(float));
  warpRows<<<blocks, threads>>>(a, out, rows);
  cudaDeviceSynchronize();
  printf("%d\n", narrow);
  return 0;
}
