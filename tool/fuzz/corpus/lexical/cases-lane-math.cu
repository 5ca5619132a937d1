// W64-LANE-MATH positives: lane and warp index math written for 32-lane warps.
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define LANE_MASK 31
constexpr int kWarpSize = 32;

__global__ void literals(int *out) {
  int lane = threadIdx.x % 32;          // lane
  int warp = threadIdx.x / 32;          // warp id
  int lane2 = threadIdx.x & 31;         // lane, bit form
  int lane3 = threadIdx.x & 0x1f;       // lane, hex
  int warp2 = threadIdx.x >> 5;         // warp id, shift
  out[warp * 32 + lane] = lane2 + lane3 + warp2;
  if (lane == 31)
    out[0] = 1;
}

__global__ void named(int *out) {
  int lane = threadIdx.x % WARP_SIZE;
  int warp = threadIdx.x / kWarpSize;
  int bit = threadIdx.x & LANE_MASK;
  int lane4 = threadIdx.x & (WARP_SIZE - 1);
  out[threadIdx.x] = lane + warp + bit + lane4;
}

__global__ void derived(int *out, int n) {
  int tid = threadIdx.x + threadIdx.y * blockDim.x;  // flattened thread index
  int gid = blockIdx.x * blockDim.x + tid;
  int t;
  t = tid;
  int lane = t % 32;                    // through an assignment
  int gwarp = gid / 32;                 // global warp id
  if (gid < n)
    out[gid] = lane + gwarp;
}

__device__ int laneOf(int tid) { return tid & 31; }  // parameter named like a thread index

template <int N>
__global__ void tmpl(float *out) {
  int lane = threadIdx.x % 32;
  out[threadIdx.x] = lane * N;
}

template __global__ void tmpl<4>(float *);
