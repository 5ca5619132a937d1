// W64 constants found by value: a while-loop offset, a template argument,
// a template member, a constant of any name in a composite, and a launch
// shape built from 32s for a kernel that splits its work by warpSize, and an
// xor butterfly written upwards.
#include <cuda_runtime.h>

#define ROW_GROUP 32

struct Tile {
  static constexpr int kLanes = 32;
};

__device__ float whileReduce(float v) {
  int off = 16;
  while (off > 0) {
    v += __shfl_xor_sync(0xffffffff, v, off);
    off /= 2;
  }
  return v;
}

template <typename T, int LANES>
__device__ T templateReduce(T v) {
  for (int o = LANES / 2; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

template <class C>
__global__ void memberLane(const float *in, float *out) {
  float v = templateReduce<float, 32>(in[threadIdx.x]);
  v = whileReduce(v);
  if (threadIdx.x % C::kLanes == 0) out[threadIdx.x / C::kLanes] = v;
  out[0] = __ballot_sync(0xffffffff, v > 0.f) != 0;
}
template __global__ void memberLane<Tile>(const float *, float *);

__global__ void groupRows(const float *in, float *out) {
  float v = in[threadIdx.x];
  for (int o = ROW_GROUP / 2; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x % ROW_GROUP == 0) out[threadIdx.x / ROW_GROUP] = v;
  out[1] = __any_sync(0xffffffff, v > 0.f);
}

__global__ void perWarpRows(const float *in, float *out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x % warpSize == 0)
    out[(blockIdx.x * blockDim.x + threadIdx.x) / warpSize] = v;
}

void launchRows(const float *in, float *out, int rows) {
  perWarpRows<<<(rows + 3) / 4, 4 * 32>>>(in, out);
  groupRows<<<1, 128>>>(in, out);
}

// An xor butterfly written upwards, with no step of 32.
__device__ int butterflyUp(int v) {
  v += __shfl_xor_sync(0xffffffff, v, 1);
  v += __shfl_xor_sync(0xffffffff, v, 2);
  v += __shfl_xor_sync(0xffffffff, v, 4);
  v += __shfl_xor_sync(0xffffffff, v, 8);
  v += __shfl_xor_sync(0xffffffff, v, 16);
  return v;
}
