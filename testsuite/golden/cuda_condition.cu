// `#if __CUDACC__` tests the value: HIP's NVIDIA path defines __HIPCC__ with
// no value, so the test becomes defined(__HIPCC__) (hip_in_condition).
#include <cuda_runtime.h>

#if __CUDACC__
#define HOST_DEVICE __host__ __device__
#elif __NVCC__ || defined(__CUDACC__)
#define HOST_DEVICE
#else
#define HOST_DEVICE
#endif

#ifdef __CUDACC__
HOST_DEVICE inline float twice(float x) { return 2.0f * x; }
#endif
