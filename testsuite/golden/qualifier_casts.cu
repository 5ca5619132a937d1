// Parameters HIP declares less const than CUDA: hipMemcpyHtoD's source is a
// void *, cuMemcpyHtoD's a const void *. An argument C++ would not convert
// to HIP's type is cast to it; one it converts is left as written.
#include <cuda.h>

CUresult upload(CUdeviceptr device, const float *table, float *scratch, size_t bytes,
                CUstream stream) {
  CUresult status = cuMemcpyHtoD(device, table, bytes);
  if (status != CUDA_SUCCESS)
    return status;
  status = cuMemcpyHtoD(device, scratch, bytes);
  if (status != CUDA_SUCCESS)
    return status;
  const void *raw = table;
  return cuMemcpyHtoDAsync(device, raw, bytes, stream);
}
