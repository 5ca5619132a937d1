// A helper header in the style of common CUDA samples: its error check and
// device selection hide behind tests of CUDA's feature macros and header
// guards, which HIP never defines. They translate to HIP's meaning; a
// comparison of __CUDA_ARCH__'s value is kept (undefined on AMD, as on a
// host pass), and so is every use in the same condition.
#include <cstdio>
#include <cuda_runtime.h>

#ifdef __CUDA_RUNTIME_H__
inline void checkError(cudaError_t e, const char *where) {
  if (e != cudaSuccess)
    std::printf("%s: %s\n", where, cudaGetErrorString(e));
}
#endif

// helper_cuda.h's test for the runtime's types; used below unguarded, so the
// translated test must hold on both HIP platforms.
#ifdef __DRIVER_TYPES_H__
inline const char *errorName(cudaError_t e) { return cudaGetErrorName(e); }
#endif

inline int blockingSyncFirstLetter() {
  cudaSetDeviceFlags(cudaDeviceBlockingSync);
  return errorName(cudaSuccess)[0];
}

#if defined(__CUDACC__) || defined(__NVCC__)
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600
#define NEEDS_DOUBLE_ATOMIC_POLYFILL 1
#endif

HOST_DEVICE inline int onDevice() {
#ifdef __CUDA_ARCH__
  return 1;
#else
  return 0;
#endif
}

#ifndef __NVCC__
#define BUILT_WITHOUT_NVCC 1
#endif
