// Device and NVTX APIs no HIP declares, which become shims that build on
// both HIP platforms: block-scope atomics, the system-scope wrap-around
// atomics, directed rounding and the naming of CUDA resources.
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExtCudaRt.h>

__global__ void count(unsigned *ring, int *hist, int bin) {
  atomicAdd_block(&hist[bin], 1);
  atomicMax_block(&hist[0], bin);
  atomicCAS_block(&hist[1], 0, bin);
  atomicInc_system(&ring[0], 15u);
  atomicDec_system(&ring[1], 15u);
}

__global__ void bounds(const float *x, const float *y, float *lo, float *hi, double *dlo) {
  int i = threadIdx.x;
  lo[i] = __fadd_rd(x[i], y[i]);
  hi[i] = __fadd_ru(x[i], y[i]);
  lo[i] += __fmul_rd(x[i], y[i]) + __fdiv_rz(x[i], y[i]) + __fsqrt_rd(x[i]) + __frcp_ru(y[i]);
  dlo[i] = __dadd_rd(x[i], y[i]) - __dsub_ru(x[i], y[i]) + __dmul_rz(x[i], y[i]);
}

int main() {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  nvtxNameCudaStreamA(stream, "copy");
  nvtxNameCudaStream(stream, "copy again");
  nvtxNameCudaDeviceA(0, "gpu");
  cudaStreamDestroy(stream);
  return 0;
}
