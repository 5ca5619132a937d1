// W64-WARP-SYNC (check): __syncwarp() that orders a warp-synchronous
// exchange through shared memory, s[t + 16] ... s[t + 1] folded step by step
// by the lanes of one 32-lane warp (lsqt's warp_reduce). Each barrier of the
// sequence is reported; barriers elsewhere and unsynchronised tails are not.
#include <cuda_runtime.h>

__device__ void warp_reduce(volatile float *s, int t) {
  float v = s[t];
  v += s[t + 32];   __syncwarp();
  s[t] = v;         __syncwarp();
  v += s[t + 16];   __syncwarp();
  s[t] = v;         __syncwarp();
  v += s[t + 8];    __syncwarp();
  s[t] = v;         __syncwarp();
  v += s[t + 4];    __syncwarp();
  s[t] = v;         __syncwarp();
  v += s[t + 2];    __syncwarp();
  s[t] = v;         __syncwarp();
  v += s[t + 1];    __syncwarp();
  s[t] = v;
}

// The same steps on a __shared__ array, inside the `tid < 32` branch.
__global__ void block_sum(const float *in, float *out) {
  __shared__ float s[64];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32) {
    s[tid] += s[tid + 32];
    __syncwarp();
    s[tid] += s[tid + 16];
    __syncwarp();
    s[tid] += s[tid + 8];
    __syncwarp();
    s[tid] += s[tid + 4];
    __syncwarp();
    s[tid] += s[tid + 2];
    __syncwarp();
    s[tid] += s[tid + 1];
  }
  __syncwarp();  // quiet: outside the block that holds the steps
  if (tid == 0)
    out[blockIdx.x] = s[0];
  warp_reduce(s, tid);
}

// Quiet: a warp-shared stack (bh's force kernel), no lane-offset steps.
__global__ void walk(int *stack, const int *child, int depth) {
  __shared__ int pos[64];
  int base = (threadIdx.x / warpSize) * warpSize;
  if (base == threadIdx.x)
    pos[depth] = 0;
  __syncwarp();  // quiet
  int p = pos[depth];
  __syncwarp();  // quiet
  stack[threadIdx.x] = child[p];
}

// Quiet: the unsynchronised volatile tail (runs in lockstep on a wavefront too),
// and steps that stop short of a full sequence.
__device__ void tail(volatile float *s, int t) {
  s[t] += s[t + 32];
  s[t] += s[t + 16];
  s[t] += s[t + 8];
  s[t] += s[t + 4];
  s[t] += s[t + 2];
  s[t] += s[t + 1];
}

__device__ void short_steps(volatile float *s, int t) {
  s[t] += s[t + 4];
  __syncwarp();  // quiet: 4, 2, 1 is not a 32-lane sequence
  s[t] += s[t + 2];
  __syncwarp();  // quiet
  s[t] += s[t + 1];
}

__global__ void more(float *s) {
  tail(s, threadIdx.x);
  short_steps(s, threadIdx.x);
}
