// CUDA's second __launch_bounds__ argument (min blocks per SM) means min
// waves per execution unit in HIP: it is removed and reported.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void __launch_bounds__(THREADS, 2) tuned(float *x) { x[threadIdx.x] = 0; }
__global__ void __launch_bounds__(128) capped(float *x) { x[threadIdx.x] = 1; }
