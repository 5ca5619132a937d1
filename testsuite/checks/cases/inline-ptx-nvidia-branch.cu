// W64-INLINE-PTX: PTX in a branch only NVIDIA compiles take is never seen by
// the DCU compile: #if defined(__PTX__) (clang's CUDA parse defines it, hipcc
// for AMD does not) with portable code in the #else.
#include <cuda_runtime.h>

__device__ float fast_exp2(float x) {
  float y;
#if defined(__PTX__)
  asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));  // quiet
#else
  y = exp2f(x);
#endif
  return y;
}

__device__ float fast_rcp(float x) {
  float y;
#ifdef __NVPTX__
  asm volatile("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));  // quiet
#elif 1
  y = 1.f / x;
#endif
  return y;
}

__device__ unsigned lane_id() {
  unsigned lane;
#if defined(__PTX__) || 1
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));  // not only NVIDIA: reported
#endif
  return lane;
}

__global__ void k(float *out) {
  out[threadIdx.x] = fast_exp2(out[threadIdx.x]) + fast_rcp(2.f) + lane_id();
}
