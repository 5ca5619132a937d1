// Device-query code reading cudaDeviceProp members that HIP 5.2's
// hipDeviceProp_t lacks and HIP 6.4's has: at HIP 5.2 each access is
// reported (CU2DCU-MEMBER) where it is written; struct_members_hip64.cu
// translates the same code for HIP 6.4, where nothing is reported.
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
