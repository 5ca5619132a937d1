// Edge cases of the checks and fixes (--fix-wave64).
#include <cuda_runtime.h>

__device__ int helper(int lane) { return lane < 16 ? lane : 31 - lane; }

__global__ void k(float *p, int n) {
  asm volatile("" ::: "memory");                      // a compiler barrier: not PTX
  unsigned m = __ballot_sync(0xffffffff, p[0] > 0), z; // two declarators share the type
  z = m;
  p[1] = __popc(z);
  switch (threadIdx.x & 31) {                         // case labels count lanes: not fixed
  case 31:
    p[2] = 0.f;
    break;
  default:
    break;
  }
  int lane = threadIdx.x % 32;                        // passed to a user function: not fixed
  p[3] = helper(lane);
  auto lambda = [] __device__ (int t) { return t % 32; };   // 't' is not a thread index
  p[5] = lambda(n);
}

// Apart from k, whose other 32s (lines 11 and 18) have no safe fix: in k
// this fix would be withheld with them.
__global__ void rotate(float *p) {
  int lane2 = threadIdx.x % 32;                       // a shuffle source lane: fixed
  p[4] = __shfl_sync(0xffffffff, p[4], (lane2 + 1) % warpSize);
}
