// math_constants.h on a target without hip/hip_math_constants.h (HIP 5.2):
// each CUDART_X is a cu2dcu_CUDART_X shim with CUDA's value, the include a
// shim of its own (warpsort's NumericLimits.cuh). For HIP 6.4 they are HIP_X.
#include <math_constants.h>
#include <cstdio>

__global__ void limits(float *f, double *d, unsigned *bits) {
  f[0] = -CUDART_INF_F;      // __int_as_float in CUDA: a bit cast on AMD
  f[1] = CUDART_PI_F;
  d[0] = CUDART_NAN;
  d[1] = CUDART_SQRT_HALF_LO;
  bits[0] = CUDART_REMQUO_MASK_F; // defined through CUDART_REMQUO_BITS_F
}

int main() {
  constexpr double two_pi = 2 * CUDART_PI; // a constant expression on the host too
  printf("%f\n", two_pi);
  return 0;
}
