#include "saxpy.h"

#include <hiprand/hiprand.h>

#include <cstdio>

__global__ void saxpy(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = scale(x[i]) + y[i];
}

int deviceCount();

int main() {
  std::printf("%d device(s)\n", deviceCount());
  const int n = 1 << 10;
  float *x = nullptr, *y = nullptr;
  if (hipMalloc(&x, n * sizeof(float)) != hipSuccess || hipMalloc(&y, n * sizeof(float)) != hipSuccess)
    return 1;
  hiprandGenerator_t gen;
  hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_DEFAULT);
  hiprandGenerateUniform(gen, x, n);
  hiprandGenerateUniform(gen, y, n);
  saxpy<<<(n + 255) / 256, 256>>>(n, x, y);
  hiprandDestroyGenerator(gen);
  std::printf("%s\n", hipDeviceSynchronize() == hipSuccess ? "ok" : "failed");
  return 0;
}
