#pragma once
// Included by no source file: translated on its own.
#include <cuda_runtime.h>
inline cudaError_t resetDevice() { return cudaDeviceReset(); }
