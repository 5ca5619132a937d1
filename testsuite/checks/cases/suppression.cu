// In-source suppression: `cu2dcu: ignore ID` on the line or the line above.
#include <cuda_runtime.h>

__global__ void k(int *out) { __syncwarp(); // warp-level work: its 32s count lanes
  int a = threadIdx.x % 32;  // cu2dcu: ignore W64-LANE-MATH
  // cu2dcu: ignore W64-LANE-MATH
  int b = threadIdx.x / 32;
  /* cu2dcu: ignore W64-* */
  int c = threadIdx.x & 31;
  int d = threadIdx.x % 32;  // cu2dcu: ignore W64-MASK32 (a different check: still reported)
  // cu2dcu: ignore W64-LANE-MATH

  int e = threadIdx.x % 32;  // the comment two lines up does not reach here
  int f = threadIdx.x >> 5;  // cu2dcu: ignore W64-SHFL-OFFSET, W64-LANE-MATH
  out[threadIdx.x] = a + b + c + d + e + f;
}
