// Found by mappings/tools/verify_use.py. C-style elaborated type specifiers
// (`struct cudaX`, `enum cudaX`) lose their keyword: several HIP names are
// typedefs of unnamed structs (hipExternalMemoryHandleDesc), which a `struct`
// specifier cannot name. Driver handle types become HIP's handle typedefs
// (CUgraphNode -> hipGraphNode_t), not the structs they point to.
#include <cuda.h>
#include <cuda_runtime.h>

struct cudaDeviceProp;  // a declaration of the tag keeps its keyword

int deviceWarp(int device) {
  struct cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
  return prop.warpSize;
}

cudaError_t copyIn(void *dst, const void *src, size_t n) {
  enum cudaMemcpyKind kind = cudaMemcpyHostToDevice;
  return cudaMemcpy(dst, src, n, kind);
}

CUresult dropNode(CUgraphNode node, CUgraphExec exec) {
  CUresult status = cuGraphDestroyNode(node);
  if (status != CUDA_SUCCESS)
    return status;
  return cuGraphExecDestroy(exec);
}
