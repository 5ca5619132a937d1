// Names HIP 6.4 has under other spellings: math_constants.h's CUDART_X is
// HIP_X of hip/hip_math_constants.h, cuda_fp8.h's __nv_/__NV_ names are
// __hip_/__HIP_ of hip/hip_fp8.h (the OCP formats, as CUDA's), and
// __float2bfloat16_rn is __float2bfloat16 (round to nearest even). HIP 5.2
// has none of them: kept and reported there.
#include <math_constants.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

__global__ void convert(const float *in, __nv_bfloat16 *half_out, __nv_fp8_e4m3 *fp8_out,
                        __nv_fp8_storage_t *raw_out) {
  float x = in[threadIdx.x] * CUDART_PI_F;
  half_out[threadIdx.x] = __float2bfloat16_rn(x);
  fp8_out[threadIdx.x] = __nv_fp8_e4m3(x);
  raw_out[threadIdx.x] = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
}

double full_circle() { return 2.0 * CUDART_PI; }

__global__ void splat(const float *in, __nv_bfloat162 *out) {
  out[threadIdx.x] = __float2bfloat162_rn(in[threadIdx.x]);
}
