// --fix-wave64 in code that works in 32-lane groups (segsort's merge step):
// the broadcast from lane 8 names a position inside a 32-lane group, so the
// safe fix pins each default-width shuffle other than an xor to width 32,
// which keeps CUDA's meaning (each half of the wavefront shuffles as one
// 32-lane warp). The lane math by 32 stays as written. A shuffle spelled in
// a macro body gets the finding but no fix (the body stands for every use),
// and so the grouping's pins are held back with it: a grouping is fixed
// completely or not at all (FROM_LANE's unpinned broadcast would still read
// lane 0 of the wavefront in the upper half).
#include <cuda_runtime.h>

#define FROM_LANE(v, l) __shfl_sync(0xffffffff, v, l)

__device__ float pairMax(float v, int distance) {
  float other = __shfl_xor_sync(0xffffffff, v, distance);  // xor: no width needed
  return fmaxf(v, other);
}

__global__ void mergeStep(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  int segment = threadIdx.x / 32;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  v = pairMax(v, 4);
  v = pairMax(v, 2);
  float pivot = __shfl_sync(0xffffffff, v, 8);
  float next = __shfl_down_sync(0xffffffff, v, 1);
  float first = FROM_LANE(v, 0);
  out[segment * 32 + lane] = lane < 31 ? fminf(next, pivot) : first;
}
