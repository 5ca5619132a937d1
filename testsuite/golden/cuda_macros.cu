// Macros CUDA's headers define that code writes: the declaration specifiers
// HIP defines too stay; CUDART_CB, CUDA_CB and __grid_constant__, which HIP
// lacks, become shims, empty on AMD and CUDA's own on NVIDIA.
#include <cuda.h>
#include <cuda_runtime.h>

struct __align__(16) Params { float scale; int n; };

__managed__ int calls;
__constant__ float table[4];

__global__ void scale(const __grid_constant__ Params p, float *out) {
  __shared__ float tile[64];
  tile[threadIdx.x] = p.scale * table[threadIdx.x % 4];
  out[threadIdx.x] = tile[threadIdx.x];
}

void CUDART_CB finished(cudaStream_t, cudaError_t, void *) { ++calls; }
typedef void (CUDA_CB *HostStep)(void *);
void host_step(void *) { ++calls; }

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStreamAddCallback(s, finished, nullptr, 0);
  HostStep step = host_step;
  step(nullptr);
  return 0;
}
