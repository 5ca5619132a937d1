// Explicit conversions between __half and __nv_bfloat16: CUDA's explicit
// constructors round once through float; HIP has no such constructor and
// finds the casts ambiguous, so the operand goes through float first.
// HIP 5.2 has no __hip_bfloat16 (hip_bf16.h is HIP 6.1 on): no hipcc step.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void narrow(const __nv_bfloat16 *in, __half *out, __nv_bfloat16 *back) {
  int i = threadIdx.x;
  out[i] = __half(in[i]);
  out[i] = (__half)in[i] + __half(0.5f);
  out[i] = static_cast<__half>(in[i]);
  back[i] = __nv_bfloat16(out[i]);
  back[i] = (__nv_bfloat16)out[i];
  __half same = __half(out[i]);
  back[i] = __nv_bfloat16(__bfloat162float(in[i]) * 2.0f) + __nv_bfloat16(same);
}

int main() { return 0; }
