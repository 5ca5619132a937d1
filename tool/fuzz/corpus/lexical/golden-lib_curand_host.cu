// cuRAND host API -> hipRAND.
#include <cuda_runtime.h>
#include <curand.h>

void uniform(float *device, size_t n) {
  curandGenerator_t gen;
  curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
  curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  curandStatus_t status = curandGenerateUniform(gen, device, n);
  if (status != CURAND_STATUS_SUCCESS)
    return;
  curandDestroyGenerator(gen);
}
