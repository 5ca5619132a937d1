#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void fill(int *p) { p[threadIdx.x] = threadIdx.x; }

int main() {
  int *p = nullptr;
  if (hipMalloc(&p, 64 * sizeof(int)) != hipSuccess)
    return 1;
  fill<<<1, 64>>>(p);
  std::printf("%s\n", hipDeviceSynchronize() == hipSuccess ? "ok" : "failed");
  return 0;
}
