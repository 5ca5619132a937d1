// `x = {}` on a half2: CUDA's __half2 has three assignment operators that
// `{}` matches equally (nvcc picks one; clang, and so hipcc, says ambiguous).
// The operand's type is written out (quant3MatMul's `res2 = {};`).
#include <cuda_fp16.h>

struct Plain { int a; };

__global__ void accumulate(half2 *out, const half2 *in, int n) {
  half2 sum;
  sum = {};
  for (int i = 0; i < n; ++i)
    sum = __hadd2(sum, in[i]);
  out[0] = sum;
  Plain p;
  p = {}; // not a CUDA type: left as written
  out[1] = __float2half2_rn(float(p.a));
}

int main() { return 0; }
