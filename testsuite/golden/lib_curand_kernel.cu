// cuRAND device API -> hipRAND device API.
#include <cuda_runtime.h>
#include <curand_kernel.h>

__global__ void noise(float *out, unsigned long long seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandState state;
  curand_init(seed, i, 0, &state);
  out[i] = curand_uniform(&state) + curand_normal(&state);
}
