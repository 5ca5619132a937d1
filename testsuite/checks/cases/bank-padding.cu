// W64-LANE-MATH stays quiet on shared-memory padding against bank conflicts,
// i + i / 32 or ai + CONFLICT_FREE_OFFSET(ai): the 32 counts banks (32 on
// DCU as on NVIDIA GPUs), not lanes. A warp id beside it is still reported.
#include <cuda_runtime.h>

#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

__global__ void reversePadded(const float *in, float *out) {
  __shared__ float s[256 + 256 / 32];
  int t = threadIdx.x;
  s[t + t / 32] = in[blockIdx.x * 256 + t];
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[(255 - t) + (255 - t) / 32];
}

__global__ void scanPadded(const float *in, float *out, float *warpTotals, int n) {
  __shared__ float temp[2 * 256 + 2 * 256 / NUM_BANKS];
  int t = threadIdx.x;
  int ai = t, bi = t + n / 2;
  temp[ai + CONFLICT_FREE_OFFSET(ai)] = in[ai];
  temp[bi + CONFLICT_FREE_OFFSET(bi)] = in[bi];
  __syncthreads();
  float v = temp[ai + CONFLICT_FREE_OFFSET(ai)];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if ((t & 31) == 0) warpTotals[blockIdx.x * 8 + t / 32] = v;
  out[ai] = temp[ai + (ai >> 5)];
}

// Reads warpSize: the unit is no longer one of consistent 32-lane groups.
__global__ void wavefrontWidth(int *w) { *w = warpSize; }

int main() { return 0; }
