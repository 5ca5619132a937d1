// W64-WARP-COUNT on the host: a buffer of one value per warp, counted with
// 32 lanes, for a kernel that numbers its warps by warpSize. With 64-lane
// wavefronts the kernel writes half of the values, and the host reads the
// rest unwritten.
#include <cuda_runtime.h>

__global__ void warpSums(const float *in, float *out, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float v = g < n ? in[g] : 0.f;
  for (int o = warpSize / 2; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x % warpSize == 0)
    out[g / warpSize] = v;
}

// Numbers its warps with 32 itself: its own findings carry the change.
__global__ void warpSums32(const float *in, float *out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x % 32 == 0)
    out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;
}

__global__ void scale(float *p) { p[threadIdx.x] *= 2.f; }

void run(const float *in, int n) {
  const int results = n / 32; // a count for warpSums's buffer: reported
  float *out, *out32, *tiles;
  cudaMalloc(&out, results * sizeof(float));
  warpSums<<<n / 256, 256>>>(in, out, n);
  cudaMalloc(&out32, n / 32 * sizeof(float)); // warpSums32 counts with 32 too: quiet here
  warpSums32<<<n / 256, 256>>>(in, out32);
  cudaMalloc(&tiles, n / 32 * sizeof(float)); // a kernel without warps: quiet
  scale<<<n / 256, 256>>>(tiles);
}
