#pragma once

// Defined in ops.cu, called from main.cu's kernel: linking needs
// relocatable device code.
__device__ float axpy(float a, float x, float y);

// Host and device; main.cu calls it from host code only.
__host__ __device__ float twice(float v);
