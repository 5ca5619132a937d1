// Held out, round 2. Cause 3: host code.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

__global__ void warpSums(const float *in, float *out, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float v = g < n ? in[g] : 0.f;
  for (int o = warpSize / 2; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffff, v, o);                       // expect: W64-MASK32
  if (threadIdx.x % warpSize == 0) out[g / warpSize] = v;
}

static int deviceWarp() {
  int ws = 0;
  cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, 0);
  return ws;
}

int main() {
  if (deviceWarp() != 32) {                                        // expect: W64-HOST-WARP-SIZE
    fprintf(stderr, "this program needs 32-thread warps\n");
    return 1;
  }
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  const bool wide = prop.warpSize > 32;                            // expect: W64-HOST-WARP-SIZE
  const int n = 1 << 16, threads = 256;
  const int results = n / 32;                                      // expect: W64-WARP-COUNT
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, results * sizeof(float));
  warpSums<<<n / threads, threads>>>(in, out, n);
  std::vector<float> h(results);
  cudaMemcpy(h.data(), out, results * sizeof(float), cudaMemcpyDeviceToHost);
  double total = 0;
  for (float x : h) total += x;
  printf("%d %f %d\n", wide, total, threads / 4);                  // quiet: W64-BLOCK-SIZE
  return 0;
}
