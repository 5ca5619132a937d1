﻿// A byte order mark and CRLF line ends are kept.
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>

__global__ void k(int *p) { p[0] = 1; }

void f(int *d) {
  k<<<1, 1>>>(d);
  cudaDeviceSynchronize();
}
