// cuFFT -> hipFFT: plan, stream, execution, the direction macro and the result enum.
#include <cuda_runtime.h>
#include <cufft.h>

bool forward(cufftComplex *data, int n, cudaStream_t stream) {
  cufftHandle plan;
  if (cufftPlan1d(&plan, n, CUFFT_C2C, 1) != CUFFT_SUCCESS)
    return false;
  cufftSetStream(plan, stream);
  cufftResult r = cufftExecC2C(plan, data, data, CUFFT_FORWARD);
  cufftDestroy(plan);
  return r == CUFFT_SUCCESS;
}
