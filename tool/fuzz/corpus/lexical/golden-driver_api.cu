// Driver API -> HIP module API.
#include <cuda.h>

int loadAndRun(const char *image, CUdeviceptr arg, size_t bytes) {
  CUdevice device;
  CUcontext context;
  CUmodule module;
  CUfunction function;
  if (cuInit(0) != CUDA_SUCCESS)
    return 1;
  cuDeviceGet(&device, 0);
  cuDevicePrimaryCtxRetain(&context, device);
  cuCtxSetCurrent(context);
  cuModuleLoadData(&module, image);
  cuModuleGetFunction(&function, module, "kernel");
  CUdeviceptr buffer;
  cuMemAlloc(&buffer, bytes);
  void *params[] = {&arg, &buffer};
  cuLaunchKernel(function, 1, 1, 1, 64, 1, 1, 0, 0, params, nullptr);
  cuCtxSynchronize();
  cuMemFree(buffer);
  cuModuleUnload(module);
  return 0;
}
