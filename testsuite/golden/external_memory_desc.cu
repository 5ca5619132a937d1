// Found by mappings/tools/verify_use.py: HIP declares the external-memory
// descriptors as typedefs of unnamed structs, which `struct X` cannot name, so
// a C-style `struct cudaExternalMemoryHandleDesc` loses its keyword. HIP's
// NVIDIA path (HIP 5.2's headers) has no external memory API: HIP 6.4 only.
#include <cuda_runtime.h>

cudaError_t importMemory(cudaExternalMemory_t *mem, int fd, size_t size) {
  struct cudaExternalMemoryHandleDesc desc = {};
  desc.type = cudaExternalMemoryHandleTypeOpaqueFd;
  desc.handle.fd = fd;
  desc.size = size;
  return cudaImportExternalMemory(mem, &desc);
}
