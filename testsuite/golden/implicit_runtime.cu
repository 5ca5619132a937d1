// A kernel file that relies on nvcc's implicit cuda_runtime.h.
#include <stdio.h>
#ifdef USE_X
#include "x.h"
#endif

__global__ void k(double3 *p) { p[threadIdx.x].x = 1.0; }
int main() { double3 *d; cudaMalloc(&d, 8); k<<<1,1>>>(d); return 0; }
