// Mixed-precision statistics: bf16 inputs converted to half and back, block-
// scope atomics for per-block histograms, a system-scope ring counter, fp16
// tanh, and a managed buffer advised and prefetched the CUDA 13 way.
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void summarize(const __nv_bfloat16 *in, __half *squashed, __nv_bfloat16 *back,
                          int *histogram, unsigned *ring, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half h = __half(in[i]);
  squashed[i] = htanh(h);
  back[i] = (__nv_bfloat16)squashed[i];
  int bin = min(max(__half2int_rn(h), 0), 15);
  atomicAdd_block(&histogram[blockIdx.x * 16 + bin], 1);
  atomicMax_block(&histogram[blockIdx.x * 16 + 15], bin);
  atomicInc_system(ring, 255u);
  atomicAdd(&back[n], in[i]);
}

int main() {
  const int n = 1 << 10;
  __nv_bfloat16 *in, *back;
  __half *squashed;
  int *histogram;
  unsigned *ring;
  cudaMallocManaged(&in, n * sizeof(__nv_bfloat16));
  cudaMalloc(&back, (n + 1) * sizeof(__nv_bfloat16));
  cudaMalloc(&squashed, n * sizeof(__half));
  cudaMalloc(&histogram, (n / 128) * 16 * sizeof(int));
  cudaMallocManaged(&ring, sizeof(unsigned));
  cudaMemLocation device = {};
  device.type = cudaMemLocationTypeDevice;
  device.id = 0;
  cudaMemAdvise(in, n * sizeof(__nv_bfloat16), cudaMemAdviseSetPreferredLocation, device);
  cudaMemPrefetchAsync(in, n * sizeof(__nv_bfloat16), device, 0, 0);
  summarize<<<n / 128, 128>>>(in, squashed, back, histogram, ring, n);
  cudaDeviceSynchronize();
  std::printf("ring at %u\n", *ring);
  return 0;
}
