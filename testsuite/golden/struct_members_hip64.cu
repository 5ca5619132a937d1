// The code of struct_members.cu translated for HIP 6.4 (.args), whose
// hipDeviceProp_t has every member it reads: no CU2DCU-MEMBER finding.
#include <cuda_runtime.h>
#include <cstdio>

struct Limits {
  int blocksPerSm;
  size_t optinShared;
};

static Limits limitsOf(const cudaDeviceProp *prop) {
  return {prop->maxBlocksPerMultiProcessor, prop->sharedMemPerBlockOptin};
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  Limits l = limitsOf(&prop);
  printf("%s: %d SMs, %d blocks/SM, %zu B opt-in shared, L2 persisting %d, warp %d\n", prop.name,
         prop.multiProcessorCount, l.blocksPerSm, l.optinShared, prop.persistingL2CacheMaxSize,
         prop.warpSize);
  return 0;
}
