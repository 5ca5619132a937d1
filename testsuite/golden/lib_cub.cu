// CUB -> hipCUB: header and namespace (compiled against hipCUB 6.4 by the hip64 step).
#include <cub/block/block_reduce.cuh>

__global__ void blockSum(const float *in, float *out) {
  typedef cub::BlockReduce<float, 128> BlockReduce;
  __shared__ typename BlockReduce::TempStorage storage;
  float sum = BlockReduce(storage).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0)
    *out = sum;
}
