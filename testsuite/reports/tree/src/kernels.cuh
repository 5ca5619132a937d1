// Kernels shared by the test program.
#pragma once
#include <cuda_runtime.h>

__global__ void scale(float *data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= factor;
}
