// CUB -> hipCUB: header, namespace and error checks (compiled against hipCUB 6.4 by the hip64 step).
#include <cub/block/block_reduce.cuh>

__global__ void blockSum(const float *in, float *out) {
  typedef cub::BlockReduce<float, 128> BlockReduce;
  __shared__ typename BlockReduce::TempStorage storage;
  float sum = BlockReduce(storage).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0)
    *out = sum;
}

// CUB's error checks: CubDebug is hipCUB's HipcubDebug, CubDebugExit a shim.
int sumOnDevice(const float *in, float *out) {
  CubDebugExit(cudaMemset(out, 0, sizeof(float)));
  blockSum<<<1, 128>>>(in, out);
  if (cub::Debug(cudaGetLastError(), __FILE__, __LINE__))
    return 0;
  return CubDebug(cudaDeviceSynchronize()) == cudaSuccess;
}
