// Token-level wave64 scan (no AST: --mode=lexical). Each finding carries the
// id of the AST check for the same assumption and confidence "low".
#include <cuda_runtime.h>
#define WARP_SIZE 32
#define BLOCK 256
constexpr int kWarpSize = 32;

__global__ void reduce(const float *in, float *out) {
  int lane = threadIdx.x % 32;          // lane math
  int warp = threadIdx.x >> 5;          // warp index
  int other = threadIdx.x % 48;         // not a warp quantity: no finding
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  unsigned half = __ballot_sync(0x0000ffff, v > 0.f);
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  __syncwarp(0xffffffff); // cu2dcu: ignore W64-MASK32
  if (lane == 0)
    out[warp] = v + half + id + other;
}
