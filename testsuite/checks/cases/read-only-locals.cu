// W64-SHFL-OFFSET through a local that keeps its initial value: int width =
// 32 read as width / 2 or lanes >> 1, and a second variable of the loop's
// init (for (int d = 1, span = 32; d < span; ...)). Quiet where the local
// changes before the loop (its value there is unknown), where it is passed
// by reference or assigned in code the CUDA parse skips (a branch for AMD),
// and where a local copy of a named constant is folded into that constant's
// own finding.
#include <cuda_runtime.h>

__device__ void adjust(int &w) { w = w * 2; }

__global__ void scanSpan(const int *in, int *out) {
  int v = in[threadIdx.x];
  for (int d = 1, span = 32; d < span; d <<= 1) {
    int b = __shfl_up_sync(0xffffffff, v, d);
    if ((threadIdx.x & 31) >= d) v += b;
  }
  out[threadIdx.x] = v;
}

__global__ void reduceWidth(const float *in, float *out) {
  float v = in[threadIdx.x];
  int width = 32;
  for (int o = width / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  out[threadIdx.x] = v;
}

__global__ void reduceLanesWhile(const float *in, float *out) {
  float v = in[threadIdx.x];
  int lanes = 32;
  int o = lanes >> 1;
  while (o) { v += __shfl_xor_sync(0xffffffff, v, o); o >>= 1; }
  out[threadIdx.x] = v;
}

__global__ void widthChanged(const float *in, float *out, int n) {
  float v = in[threadIdx.x];
  int width = 32;
  if (n > 1024) width = 8;
  for (int o = width / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o, width);
  out[threadIdx.x] = v;
}

__global__ void widthByReference(const float *in, float *out) {
  float v = in[threadIdx.x];
  int width = 8;
  adjust(width);
  for (int o = width / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o, width);
  out[threadIdx.x] = v;
}

#define WARP 32
__global__ void copyOfNamed(const float *in, float *out) {
  float v = in[threadIdx.x];
  int perWarp = WARP;
  for (int o = perWarp / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  out[threadIdx.x] = v;
}

__global__ void reduceRows(const float *in, float *out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x % warpSize == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / warpSize] = v;
}

void launchRows(const float *in, float *out, int n) {
  int wave = 32;
#ifdef __HIP_PLATFORM_AMD__
  wave = 64;
#endif
  reduceRows<<<n / (8 * wave), 8 * wave>>>(in, out);
}

int main() { return 0; }
