// Unordered __half comparisons are true where an operand is NaN. HIP 5.2's
// __hequ/__hleu/__hgeu/__hltu/__hgtu (and their __half2 forms) are ordered,
// so the port would silently flip every NaN lane: each call becomes a shim
// with CUDA's rule (CUDA's own on NVIDIA); __hneu is right in HIP and stays.
#include <cuda_fp16.h>

__global__ void masks(const __half *a, const __half *b, const __half2 *c, const __half2 *d,
                      unsigned *out, __half2 *lanes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned bits = __hequ(a[i], b[i]) | __hleu(a[i], b[i]) << 1 | __hgeu(a[i], b[i]) << 2 |
                  __hltu(a[i], b[i]) << 3 | __hgtu(a[i], b[i]) << 4 | __hneu(a[i], b[i]) << 5;
  out[i] = bits;
  lanes[i] = __hadd2(__hadd2(__hequ2(c[i], d[i]), __hleu2(c[i], d[i])),
                     __hadd2(__hgeu2(c[i], d[i]), __hadd2(__hltu2(c[i], d[i]), __hgtu2(c[i], d[i]))));
}

int main() { return 0; }
