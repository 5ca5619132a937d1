// A solver step captured in a CUDA graph, with the calls real programs make:
// the CUDA 11 and 12 forms of cudaGraphInstantiate, CUDA's C++ overloads,
// mixed-sign min/max, half-precision atomics, directed rounding for bounds.
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
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFree(x));
  return 0;
}
