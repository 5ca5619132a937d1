// Held out, round 3. Cause 3: host code.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void perWarpMax(const float *in, float *out, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = gid < n ? in[gid] : -1e30f;
  for (int o = warpSize / 2; o > 0; o /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));              // expect: W64-MASK32
  if (threadIdx.x % warpSize == 0) out[gid / warpSize] = v;
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  if (prop.warpSize != 32) {                                       // expect: W64-HOST-WARP-SIZE
    printf("unexpected warp size\n");
    return 1;
  }
  const int n = 1 << 18;
  const size_t nWarps = n >> 5;                                    // expect: W64-WARP-COUNT
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, nWarps * sizeof(float));
  perWarpMax<<<n / 256, 8 * 32>>>(in, out, n);                     // expect: W64-BLOCK-SIZE
  float *h = new float[nWarps];
  cudaMemcpy(h, out, nWarps * sizeof(float), cudaMemcpyDeviceToHost);
  float best = h[0];
  for (size_t w = 1; w < nWarps; ++w) best = best > h[w] ? best : h[w];
  printf("%f\n", best);
  return 0;
}
