// A solver step captured in a CUDA graph, with the calls real programs make:
// the CUDA 11 and 12 forms of cudaGraphInstantiate, CUDA's C++ overloads,
// mixed-sign min/max, half-precision atomics, directed rounding for bounds;
// and calls that leave out arguments CUDA defaults and HIP does not (the
// graph's flags, a cooperative launch's shared memory and stream, a 3-D
// array's flags).
#include <cuda_fp16.h>
#include "helpers/check.h"
#include "helpers/vec_math.h"

__global__ void relax(float2 *x, const float2 *b, __half *residual, float *lower, int n, unsigned limit) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int last = min(n, limit) - 1;
  if (i > last) return;
  float2 r = b[i] / (x[i] + make_float2(1.0f, 1.0f));
  x[i] += r * 0.5f;
  atomicAdd(residual, __float2half(dot(r, r)));
  lower[i] = __fadd_rd(x[i].x, -x[i].y);
  atomicInc_system(reinterpret_cast<unsigned *>(lower) + n, umin(limit, 1024u));
}

__global__ void clear(float *lower, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += gridDim.x * blockDim.x)
    lower[i] = 0.0f;
}

int main() {
  const int n = 1 << 12;
  float2 *x, *b;
  __half *residual;
  float *lower, *pinned, *mapped;
  CHECK(cudaMalloc(&x, n * sizeof(float2)));
  CHECK(cudaMalloc(&b, n * sizeof(float2)));
  CHECK(cudaMalloc(&residual, sizeof(__half)));
  CHECK(cudaMalloc(&lower, (n + 1) * sizeof(float)));
  CHECK(cudaMallocHost(&pinned, sizeof(float), cudaHostAllocMapped));
  CHECK(cudaHostGetDevicePointer(&mapped, pinned, 0));
  CUdevice device;
  CHECK(cuDeviceGet(&device, 0));

  cudaStream_t stream;
  cudaEvent_t start, stop;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaEventCreate(&start, cudaEventDefault));
  CHECK(cudaEventCreate(&stop, cudaEventBlockingSync));
  int count = n;
  void *clearArgs[] = {&lower, &count};
  CHECK(cudaLaunchCooperativeKernel((void *)clear, dim3(4), dim3(256), clearArgs));
  cudaArray_t volume;
  cudaChannelFormatDesc texel = cudaCreateChannelDesc<float>();
  CHECK(cudaMalloc3DArray(&volume, &texel, make_cudaExtent(16, 16, 16)));
  cudaGraph_t probe;
  cudaGraphExec_t probeExec;
  CHECK(cudaGraphCreate(&probe, 0));
  CHECK(cudaGraphInstantiate(&probeExec, probe));
  CHECK(cudaGraphExecDestroy(probeExec));
  CHECK(cudaGraphDestroy(probe));

  cudaGraph_t graph;
  cudaGraphExec_t step;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  relax<<<n / 256, 256, 0, stream>>>(x, b, residual, lower, n, 4096u);
  CHECK(cudaStreamEndCapture(stream, &graph));
#if CUDART_VERSION >= 12000
  CHECK(cudaGraphInstantiate(&step, graph, 0));
#else
  CHECK(cudaGraphInstantiate(&step, graph, nullptr, nullptr, 0));
#endif
  CHECK(cudaEventRecord(start, stream));
  for (int k = 0; k < 10; ++k)
    CHECK(cudaGraphLaunch(step, stream));
  CHECK(cudaEventRecord(stop, stream));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  std::printf("10 iterations in %.3f ms\n", ms);
  CHECK(cudaGraphExecDestroy(step));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaFreeArray(volume));
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFree(x));
  return 0;
}
