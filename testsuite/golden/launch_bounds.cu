// CUDA's second __launch_bounds__ argument (min blocks per SM) means min
// waves per execution unit in HIP on AMD: the shim cu2dcu_launch_bounds keeps
// it for HIP's NVIDIA path and drops it on AMD, and the change is reported.
#include <cuda_runtime.h>

#define THREADS 256
#define BOUNDED(n) __launch_bounds__(n, 4)

__global__ void __launch_bounds__(THREADS, 2) tuned(float *x) { x[threadIdx.x] = 0; }
__global__ void __launch_bounds__(128) capped(float *x) { x[threadIdx.x] = 1; }
__global__ void __launch_bounds__ ( 64 , 8 ) spaced(float *x) { x[threadIdx.x] = 2; }
// A user macro around it: its body is translated the same way.
__global__ void BOUNDED(32) wrapped(float *x) { x[threadIdx.x] = 3; }
