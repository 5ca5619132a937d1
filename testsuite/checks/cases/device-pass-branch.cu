// Code under #ifdef __CUDA_ARCH__ (and the #else of #ifndef __CUDA_ARCH__)
// exists only in the device pass; the AST is parsed as the host pass sees the
// file, so the token scan reports the warp-32 assumptions there, at lower
// confidence: the translation turns the test into __HIP_DEVICE_COMPILE__, so
// the AMD compile builds that code. #if __CUDA_ARCH__ >= 700 stays, false on AMD.
#include <cuda_runtime.h>

__device__ float rowReduce(float v) {
#ifdef __CUDA_ARCH__
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
#endif
  return v;
}

__device__ int laneOf() {
#if __CUDA_ARCH__ >= 700
  return threadIdx.x % 32;
#else
  return 0;
#endif
}

__host__ __device__ int slotOf(int i) {
#ifndef __CUDA_ARCH__
  return i;
#else
  return threadIdx.x >> 5;
#endif
}

__global__ void sums(const float *in, float *out) {
  float v = rowReduce(in[threadIdx.x]);
  if (laneOf() == 0) out[slotOf(0)] = v;
}

int main() { return 0; }
