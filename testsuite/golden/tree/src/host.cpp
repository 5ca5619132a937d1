#include <cuda_runtime.h>
#include "include/common.cuh"

int deviceCount() {
  int n = 0;
  cudaGetDeviceCount(&n);
  return n;
}
