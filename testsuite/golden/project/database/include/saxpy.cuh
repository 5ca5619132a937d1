// Reached from both sources through -I include: ported with them.
#pragma once
#include <cuda_runtime.h>

#include "util/check.cuh"

__global__ void saxpy(int n, float a, const float *x, float *y);
void runSaxpy(int n, float a, const float *x, float *y);
