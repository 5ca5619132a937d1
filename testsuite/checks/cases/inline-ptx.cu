// W64-INLINE-PTX: inline PTX does not assemble for AMD GPUs.
#include <cuda_runtime.h>

__device__ unsigned lane_id() {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__device__ unsigned lanemask_lt() {
  unsigned mask;
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

__device__ float ldg(const float *p) {
  float v;
  asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

__global__ void k(float *out) {
  asm volatile("bar.sync 0;");
  out[threadIdx.x] = lane_id() + lanemask_lt() + ldg(out);
}

unsigned long long host_tsc() {
  unsigned lo, hi;
  asm volatile("rdtsc" : "=a"(lo), "=d"(hi));   // x86 host assembly: not PTX
  return ((unsigned long long)hi << 32) | lo;
}

// Host assembly that escapes '%' as GCC wants ("%%"): not PTX, no finding
// (HeCBench interval's boost headers hold SPARC code of this kind).
inline unsigned hostControlWord() {
  unsigned word = 0;
  asm volatile("movl %%eax, %0" : "=r"(word));
  return word;
}
