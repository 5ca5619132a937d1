// A constant chosen from warpSize (`warpSize == 32 ? 5 : 6`) adapts to the
// width the code runs at: clang folds warpSize to 32 in the CUDA view, but
// the port reads 64 there, so the shift by logLanes numbers wavefronts. No
// W64-LANE-MATH on lines 11 and 12; the literal mask stays a W64-MASK32 note.
#include <cuda_runtime.h>

__global__ void waveSums(const float *in, float *out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  const int logLanes = warpSize == 32 ? 5 : 6;
  const int wave = threadIdx.x >> logLanes;
  if ((threadIdx.x & (warpSize - 1)) == 0)
    out[blockIdx.x * (blockDim.x / warpSize) + wave] = v;
}
