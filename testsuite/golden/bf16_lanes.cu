// bfloat16 forms HIP 6.4 lacks: saturated arithmetic (the fused one rounded
// once), NaN-propagating max/min and the unordered pair comparisons. Each call becomes a shim that
// computes CUDA's rule per lane in float (proven bit for bit against CUDA's
// own on an H200: testsuite/results/shim-behaviour.json).
#include <cuda_bf16.h>

__global__ void blend(const __nv_bfloat16 *a, const __nv_bfloat16 *b, const __nv_bfloat162 *c,
                      const __nv_bfloat162 *d, __nv_bfloat16 *out, __nv_bfloat162 *pairs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __nv_bfloat16 s = __hadd_sat(a[i], b[i]);
  s = __hsub_sat(s, __hmul_sat(a[i], b[i]));
  s = __hfma_sat(a[i], b[i], s);
  out[i] = __hmax_nan(s, __hmin_nan(a[i], b[i]));
  __nv_bfloat162 t = __hadd2_sat(c[i], d[i]);
  t = __hsub2_sat(t, __hmul2_sat(c[i], d[i]));
  t = __hfma2_sat(c[i], d[i], t);
  pairs[i] = __hadd2(__hadd2(t, __hequ2(c[i], d[i])), __hadd2(__hneu2(c[i], d[i]), __hltu2(c[i], d[i])));
}

int main() { return 0; }
