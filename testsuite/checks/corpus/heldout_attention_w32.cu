// Paged-attention style reductions over thread groups (held-out batch:
// labelled before the checks were run on it, tool unchanged afterwards).
#include <cuda_runtime.h>
#include <stdint.h>

#define WARP_SIZE 32  // expect: W64-LANE-MATH (definition site)

template <int NUM_THREADS, int THREAD_GROUP_SIZE>
__global__ void attention_scores(const float *q, const float *k, float *out, int ctx_len) {
  constexpr int NUM_WARPS = NUM_THREADS / WARP_SIZE;  // expect: W64-WARP-COUNT
  __shared__ float red_smem[2 * NUM_WARPS];
  const int thread_idx = threadIdx.x;
  const int warp_idx = thread_idx / WARP_SIZE;  // expect: W64-LANE-MATH
  const int lane = thread_idx % WARP_SIZE;  // expect: W64-LANE-MATH

  float qk_max = -1e30f;
  for (int t = thread_idx; t < ctx_len; t += NUM_THREADS)
    qk_max = fmaxf(qk_max, q[t] * k[t]);
#pragma unroll
  for (int mask = WARP_SIZE / 2; mask >= THREAD_GROUP_SIZE; mask /= 2)  // expect: W64-SHFL-OFFSET
    qk_max = fmaxf(qk_max, __shfl_xor_sync(uint32_t(-1), qk_max, mask));  // expect: W64-MASK32
  if (lane == 0)
    red_smem[warp_idx] = qk_max;
  __syncthreads();
  qk_max = lane < NUM_WARPS ? red_smem[lane] : -1e30f;
#pragma unroll
  for (int mask = NUM_WARPS / 2; mask >= 1; mask /= 2)
    qk_max = fmaxf(qk_max, __shfl_xor_sync(uint32_t(-1), qk_max, mask));  // expect: W64-MASK32
  qk_max = __shfl_sync(uint32_t(-1), qk_max, 0);  // expect: W64-MASK32

  float exp_sum = 0.f;
  for (int t = thread_idx; t < ctx_len; t += NUM_THREADS) {
    float v = __expf(q[t] * k[t] - qk_max);
    out[t] = v;
    exp_sum += v;
  }
#pragma unroll
  for (int mask = WARP_SIZE / 2; mask >= 1; mask /= 2)  // expect: W64-SHFL-OFFSET
    exp_sum += __shfl_xor_sync(uint32_t(-1), exp_sum, mask);  // expect: W64-MASK32
  if (lane == 0)
    red_smem[NUM_WARPS + warp_idx] = exp_sum;
}

template __global__ void attention_scores<128, 4>(const float *, const float *, float *, int);
