// Warp-level top-k (k <= 32) by bitonic exchange, written for 32-lane warps.
#include <cuda_runtime.h>

#define WARP 32  // expect: W64-LANE-MATH (definition site)
#define LOG_WARP 5  // expect: W64-LANE-MATH (definition site: its uses are related locations)

__device__ __forceinline__ void cas(float &v, int &idx, int partner_mask, bool up) {
  float ov = __shfl_xor_sync(0xffffffff, v, partner_mask);  // expect: W64-MASK32
  int oi = __shfl_xor_sync(0xffffffff, idx, partner_mask);  // expect: W64-MASK32
  int lane = threadIdx.x % WARP;  // expect: W64-LANE-MATH
  bool lower = (lane & partner_mask) == 0;
  bool keep_max = (lower == up);
  if ((keep_max && ov > v) || (!keep_max && ov < v)) {
    v = ov;
    idx = oi;
  }
}

__device__ void warp_bitonic_sort(float &v, int &idx) {
  int lane = threadIdx.x & (WARP - 1);  // expect: W64-LANE-MATH
  for (int size = 2; size <= WARP; size <<= 1)
    for (int stride = size >> 1; stride > 0; stride >>= 1)
      cas(v, idx, stride, ((lane & size) == 0));
}

// one warp per row: the row's top-k values and indices
__global__ void topk_rows(const float *x, float *vals, int *idxs, int rows, int cols, int k) {
  int warp_global = (blockIdx.x * blockDim.x + threadIdx.x) >> LOG_WARP;  // expect: W64-LANE-MATH
  int lane = threadIdx.x % 32;  // expect: W64-LANE-MATH
  if (warp_global >= rows)
    return;
  const float *xr = x + (size_t)warp_global * cols;
  float best = -1e30f;
  int best_i = -1;
  for (int c = lane; c < cols; c += 32) {  // expect: W64-LANE-MATH
    if (xr[c] > best) {
      best = xr[c];
      best_i = c;
    }
  }
  warp_bitonic_sort(best, best_i);
  if (lane < k) {
    vals[warp_global * k + lane] = best;
    idxs[warp_global * k + lane] = best_i;
  }
}

// the maximum of a warp and which lane holds it
__device__ int argmax_lane(float v) {
  float m = v;
  for (int o = 16; o >= 1; o /= 2)  // expect: W64-SHFL-OFFSET
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));  // expect: W64-MASK32
  unsigned hit = __ballot_sync(0xffffffff, v == m);  // expect: W64-BALLOT-NARROW, W64-MASK32
  return __ffs(hit) - 1;  // expect: W64-BALLOT-NARROW
}

void launch_topk(const float *x, float *v, int *i, int rows, int cols, int k) {
  topk_rows<<<(rows * 32 + 127) / 128, 128>>>(x, v, i, rows, cols, k);  // expect: W64-BLOCK-SIZE
}
