// --fix-wave64 applies a lane grouping's fixes when every 32 of the grouping
// has a safe fix: blockSum with the helper it calls (a grouping of whole
// wavefronts: it reads warpSize, so its 32s are no consistent 32-lane groups). Kernels that one host
// function launches are separate groupings: halfWarp's half-warp test (no
// safe fix) holds back only halfWarp's own fixes.
#include <cuda_runtime.h>

__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) // fixed
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void blockSum(const float *in, float *out) {
  if (blockDim.x % warpSize) // reads the wavefront's width: its 32s are not 32-lane groups
    return;
  __shared__ float partial[32]; // one slot per 32-thread warp: enough for fewer wavefronts
  int lane = threadIdx.x % 32; // fixed
  int warp = threadIdx.x >> 5; // fixed
  int nwarps = (blockDim.x + 31) / 32; // fixed
  float v = warpSum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = threadIdx.x < nwarps ? partial[threadIdx.x] : 0.f;
    v = warpSum(v);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}

__global__ void halfWarp(float *out) { __syncwarp(); // warp-level work: its 32s count lanes
  int half = threadIdx.x & 31; // blocker: halfWarp
  int warp = threadIdx.x / 32; // waits: halfWarp
  if (half < 16) // half-warp logic: no safe fix
    out[warp] = 0.f;
}

void launch(const float *in, float *out, int blocks) {
  blockSum<<<blocks, 256>>>(in, out);
  halfWarp<<<blocks, 256>>>(out);
}

// A vote reads the whole warp: the unit does not work in consistent 32-lane
// groups, so its 32s are hazards and --fix-wave64 decides per grouping.
__global__ void anyPositive(const float *in, int *flag) {
  if (__any_sync(0xffffffff, in[threadIdx.x] > 0.f))
    *flag = 1;
}
