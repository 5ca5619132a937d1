// Held out. Cause 3: host code.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void perWarp(const int *in, int *out, int n) {
  int gw = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int lane = threadIdx.x % warpSize;
  int v = gw * warpSize + lane < n ? in[gw * warpSize + lane] : 0;
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o); // expect: W64-MASK32
  if (lane == 0) out[gw] = v;
}

static bool checkDevice() {
  int dev = 0;
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, dev);
  if (p.warpSize == 32) return true;                            // expect: W64-HOST-WARP-SIZE
  printf("unsupported warp size %d\n", p.warpSize);
  return false;
}

int main() {
  if (!checkDevice()) return 1;
  const int n = 1 << 20;
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n / 32 * sizeof(int));                       // expect: W64-WARP-COUNT
  const int block = 128;
  const int grid = n / 32 / (block / 32);                       // expect: W64-WARP-COUNT
  perWarp<<<grid, block>>>(in, out, n);
  cudaDeviceSynchronize();
  return 0;
}
