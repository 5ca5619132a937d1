// Calls whose HIP function depends on the argument count (hip_by_arity):
// CUDA's cudaEventCreate overload with flags is hipEventCreateWithFlags, and
// CUDA 11's five-argument cudaGraphInstantiate is hipGraphInstantiate, while
// CUDA 12's (exec, graph, flags) is hipGraphInstantiateWithFlags. The
// branch this parse does not see is translated by the lexical rules, which
// count the same way. Arguments CUDA defaults and HIP does not are appended
// (the flags of a two-argument cudaGraphInstantiate); a count no HIP
// declaration takes (CUDA 12.3's edge-data form of cudaGraphAddDependencies)
// is an error, left as written.
#include <cuda_runtime.h>

__global__ void step(float *x) { x[threadIdx.x] += 1.0f; }

int main() {
  float *x;
  cudaMalloc(&x, 32 * sizeof(float));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop, cudaEventBlockingSync);
#ifdef TIMING_ONLY
  cudaEventCreate(&start, cudaEventDisableTiming);
#endif
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  step<<<1, 32, 0, stream>>>(x);
  cudaStreamEndCapture(stream, &graph);
#if CUDART_VERSION >= 12000
  cudaGraphInstantiate(&exec, graph, 0);
#else
  cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
#endif
  cudaGraphExec_t again;
  cudaGraphInstantiate(&again, graph);
  cudaGraphExecDestroy(again);
#ifdef EDGE_DATA
  cudaGraphNode_t from, to;
  cudaGraphAddDependencies(graph, &from, &to, nullptr, 1);
#endif
  cudaGraphLaunch(exec, stream);
  cudaEventRecord(stop, stream);
  cudaEventSynchronize(stop);
  cudaFree(x);
  return 0;
}
