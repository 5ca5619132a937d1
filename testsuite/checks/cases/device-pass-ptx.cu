// PTX in device-pass branches (#ifdef __CUDA_ARCH__, #if __CUDA_ARCH__ >= N):
// the translation turns the test into __HIP_DEVICE_COMPILE__, so the AMD
// device compile takes the branch, and no PTX assembles there, lane-level or
// not. The host-pass AST never holds this code; the token scan reports it.
#include <cuda_runtime.h>

__device__ unsigned smId() {
  unsigned id = 0;
#ifdef __CUDA_ARCH__
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
#endif
  return id;
}

__device__ float fastExp2(float x) {
  float y = x;
#if __CUDA_ARCH__ >= 700
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
#endif
  return y;
}

__device__ float nvidiaOnly(float x) {
  float y = x;
#ifdef __CUDA_ARCH__
#if defined(__PTX__)
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
#else
  y = exp2f(x);
#endif
  asm volatile("" ::: "memory");
#endif
  return y;
}

__global__ void probe(float *out) {
  out[threadIdx.x] = fastExp2(out[threadIdx.x]) + nvidiaOnly(1.0f) + smId();
}

int main() { return 0; }

// A value test nested in a device-pass branch is false on AMD too: quiet.
__device__ float nestedExp2(float x) {
  float y = x;
#ifdef __CUDA_ARCH__
#if __CUDA_ARCH__ >= 800
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
#else
  y = exp2f(x);
#endif
#endif
  return y;
}
