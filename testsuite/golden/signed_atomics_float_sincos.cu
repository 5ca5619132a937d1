// CUDA overloads HIP lacks: bitwise atomics on long long (the same bits as
// HIP's unsigned long long ones) and sincos/sincospi on float (CUDA's own
// overload calls sincosf/sincospif). Other overloads keep their HIP names.
#include <cuda_runtime.h>

__global__ void flags(long long *mask, unsigned long long *umask, long long bit) {
  atomicOr(mask, bit);
  atomicAnd(mask + 1, ~bit);
  atomicXor(mask + 2, bit);
  atomicOr_system(mask + 3, bit);
  atomicAnd_system(mask + 4, bit);
  atomicXor_system(mask + 5, bit);
  atomicOr(umask, (unsigned long long)bit);
}

__global__ void rotate(const float *angle, float2 *out, const double *dangle, double2 *dout) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s, c;
  sincos(angle[i], &s, &c);
  out[i] = make_float2(s, c);
  sincospi(angle[i], &s, &c);
  out[i].x += s;
  double ds, dc;
  sincos(dangle[i], &ds, &dc);
  dout[i] = make_double2(ds, dc);
}
