// W64-INLINE-PTX in code the parse did not compile: the PTX reading a lane
// mask sits in an #ifdef branch that this configuration skips (bscan's
// lanemask_lt). The token-level scan reports it, at lower confidence. PTX in
// branches only NVIDIA compiles take, non-warp PTX, and PTX the AST check
// already reports are left alone.
#include <cuda_runtime.h>

__device__ unsigned lanemask_lt() {
#ifdef USE_PTX
  unsigned mask;
  asm("mov.u32 %0, %lanemask_lt;" : "=r"(mask));
  return mask;
#else
  const unsigned lane = threadIdx.x & (warpSize - 1);
  return (1u << lane) - 1;
#endif
}

__device__ unsigned lane_id() {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__device__ float load(const float *p) {
#ifdef USE_PTX
  float v;
  asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p));  // quiet: not warp PTX
  return v;
#else
  return *p;
#endif
}

__device__ unsigned warp_of() {
#ifdef __NVPTX__
  unsigned w;
  asm("mov.u32 %0, %%warpid;" : "=r"(w));  // quiet: NVIDIA compiles only
  return w;
#else
  return threadIdx.x / warpSize;
#endif
}

__global__ void k(unsigned *out, const float *in) {
  out[threadIdx.x] = lanemask_lt() + lane_id() + warp_of() + unsigned(load(in));
}
