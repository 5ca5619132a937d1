// cudaDeviceProp members that HIP 5.2's hipDeviceProp_t lacks and HIP 6.4's
// has, read through a reference, translated for HIP 6.4 (.args): no
// CU2DCU-MEMBER finding, and the output compiles there (struct_members.cu
// has the HIP 5.2 findings).
#include <cuda_runtime.h>
#include <cstdio>

int main() {
  cudaDeviceProp props;
  if (cudaGetDeviceProperties(&props, 0) != cudaSuccess)
    return 1;
  const cudaDeviceProp &p = props;
  printf("copy engines %d, access window %d B, preemption %d, global L1 %d\n", p.asyncEngineCount,
         p.accessPolicyMaxWindowSize, p.computePreemptionSupported, p.globalL1CacheSupported);
  return 0;
}
