// Host-only C++ (compiled by the C++ compiler) that calls the HIP runtime:
// it needs hip::host, the translation of CUDA::cudart.
#include <hip/hip_runtime_api.h>

int deviceCount() {
  int n = 0;
  return hipGetDeviceCount(&n) == hipSuccess ? n : 0;
}
