// W64-HOST-WARP-SIZE: host tests of the device's warp size against 32.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(float *p) { p[threadIdx.x] = 1.f; }

static int warpWidth(int device) {
  int ws = 0;
  cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, device);
  return ws;
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  if (prop.warpSize != 32) { // reported
    fprintf(stderr, "needs 32-lane warps\n");
    return 1;
  }
  const cudaDeviceProp *p = &prop;
  int width = p->warpSize;
  bool narrow = 32 == width; // reported: through a variable
  int attr = 0;
  cudaDeviceGetAttribute(&attr, cudaDevAttrWarpSize, 0);
  if (attr == 32) // reported: the attribute
    narrow = true;
  int threads = 0;
  cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerBlock, 0);
  if (threads == 32) // another attribute: quiet
    return 2;
  if (warpWidth(0) > 32) // a function that returns the attribute: followed
    return 3;
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  fill<<<1, 64>>>(d);
  printf("%d\n", narrow);
  return 0;
}

// A comparison with a constant wider than int64_t is no warp size (and must
// not stop the check).
bool allSet(unsigned long long bits) { return bits == 0xffffffffffffffffull; }
