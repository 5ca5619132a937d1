// Already HIP: this case tests the Makefile, not the sources.
#pragma once
#include <hip/hip_runtime.h>

// Defined in scale.cu: calling it from main.cu's kernel needs relocatable
// device code at compile and at link time.
extern __device__ float scale(float x);
