// cuDNN -> MIOpen: the calls with one-to-one MIOpen counterparts (handle,
// stream, tensor descriptors, status, data type, error string).
#include <cuda_runtime.h>
#include <cudnn.h>
#include <cstdio>

cudnnDataType_t precision() { return CUDNN_DATA_FLOAT; }

bool setup(cudaStream_t stream) {
  cudnnHandle_t handle;
  cudnnStatus_t s = cudnnCreate(&handle);
  if (s != CUDNN_STATUS_SUCCESS) {
    std::printf("cudnn: %s\n", cudnnGetErrorString(s));
    return false;
  }
  cudnnSetStream(handle, stream);
  cudnnTensorDescriptor_t desc;
  cudnnCreateTensorDescriptor(&desc);
  cudnnDestroyTensorDescriptor(desc);
  cudnnDestroy(handle);
  return true;
}
