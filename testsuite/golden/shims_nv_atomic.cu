// nvcc's built-in __nv_atomic_load_n is unknown to clang, so this file's
// AST is a recovered one; the shim is still used, and the memory-order
// enumerators map to the compilers' __ATOMIC_* macros (same values).
#include <cuda_runtime.h>

__device__ long long peek(long long *address) {
  return __nv_atomic_load_n(address, __NV_ATOMIC_RELAXED);
}
