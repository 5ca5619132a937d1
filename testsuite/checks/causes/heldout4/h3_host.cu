// Held out, round 4. Cause 3: host code.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void warpCounts(const int *flags, int *perWarp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int p = i < n && flags[i];
  unsigned long long any = __ballot_sync(0xffffffff, p);             // expect: W64-MASK32
  if (threadIdx.x % warpSize == 0) perWarp[i / warpSize] = __popcll(any);
}

int main() {
  int dev = 0, width = 0;
  cudaDeviceGetAttribute(&width, cudaDevAttrWarpSize, dev);
  const bool wide = width > 32;                                      // expect: W64-HOST-WARP-SIZE
  const int n = 1 << 16, threads = 128;
  int *flags, *perWarp;
  cudaMalloc(&flags, n * sizeof(int));
  cudaMalloc(&perWarp, (n / 32) * sizeof(int));                      // expect: W64-WARP-COUNT
  warpCounts<<<n / threads, threads>>>(flags, perWarp, n);
  printf("%s\n", wide ? "wide" : "narrow");
  return 0;
}
