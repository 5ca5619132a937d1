// Warp-level top-k written for any warp width.
#include <cuda_runtime.h>

__device__ __forceinline__ void cas(float &v, int &idx, int partner_mask, bool up) {
  float ov = __shfl_xor_sync(0xffffffff, v, partner_mask);  // expect: W64-MASK32
  int oi = __shfl_xor_sync(0xffffffff, idx, partner_mask);  // expect: W64-MASK32
  int lane = threadIdx.x % warpSize;  // quiet: W64-LANE-MATH
  bool lower = (lane & partner_mask) == 0;
  bool keep_max = (lower == up);
  if ((keep_max && ov > v) || (!keep_max && ov < v)) {
    v = ov;
    idx = oi;
  }
}

__device__ void warp_bitonic_sort(float &v, int &idx) {
  int lane = threadIdx.x & (warpSize - 1);  // quiet: W64-LANE-MATH
  for (int size = 2; size <= warpSize; size <<= 1)
    for (int stride = size >> 1; stride > 0; stride >>= 1)
      cas(v, idx, stride, ((lane & size) == 0));
}

__global__ void topk_rows(const float *x, float *vals, int *idxs, int rows, int cols, int k) {
  int warp_global = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int lane = threadIdx.x % warpSize;
  if (warp_global >= rows)
    return;
  const float *xr = x + (size_t)warp_global * cols;
  float best = -1e30f;
  int best_i = -1;
  for (int c = lane; c < cols; c += warpSize) {
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

__device__ int argmax_lane(float v) {
  float m = v;
  for (int o = warpSize / 2; o >= 1; o /= 2)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));  // expect: W64-MASK32
  unsigned long long hit = __ballot_sync(0xffffffff, v == m);  // expect: W64-MASK32
  return __ffsll(hit) - 1;
}

void launch_topk(const float *x, float *v, int *i, int rows, int cols, int k, int warp) {
  topk_rows<<<(rows * warp + 127) / 128, 128>>>(x, v, i, rows, cols, k);
}
