// Graph memcpy nodes on a __device__ symbol: HIP takes the symbol as a
// const void *, so the variable goes through HIP_SYMBOL() as for
// cudaMemcpyToSymbol. A symbol passed as its address already (CUDA's C form)
// is left alone: on NVIDIA, HIP_SYMBOL(X) is &X, the address of the pointer.
#include <cuda_runtime.h>

__device__ float table[64];

cudaError_t build(cudaGraph_t graph, const float *host, float *back, cudaGraphNode_t *nodes) {
  cudaError_t status = cudaGraphAddMemcpyNodeToSymbol(&nodes[0], graph, nullptr, 0, table, host,
                                                      sizeof(table), 0, cudaMemcpyHostToDevice);
  if (status != cudaSuccess)
    return status;
  status = cudaGraphAddMemcpyNodeFromSymbol(&nodes[1], graph, &nodes[0], 1, back, table,
                                            sizeof(table), 0, cudaMemcpyDeviceToHost);
  if (status != cudaSuccess)
    return status;
  return cudaGraphMemcpyNodeSetParamsToSymbol(nodes[0], table, host, sizeof(float), 0,
                                              cudaMemcpyHostToDevice);
}

cudaError_t upload(const void *symbol, const float *host) {
  return cudaMemcpyToSymbol(symbol, host, sizeof(float));
}
