// Warp-width values in forms the checks follow by value: a parameter every
// call leaves at its default (`int width = 32`, then `width / 2`), a last-lane
// test written `<= 31`, a lane-by-lane broadcast loop whose bound is one side
// of an `&&`, and warps per block counted from a template parameter's members.
#include <cuda_runtime.h>

__device__ float foldWidth(float v, int width = 32) {
  for (int o = width / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}

__device__ float suffixMax(float v, int lane) {
  for (int d = 1; d < 32; d <<= 1) {
    float o = __shfl_down_sync(0xffffffff, v, d);
    if (lane + d <= 31) v = fmaxf(v, o);
  }
  return v;
}

__global__ void gemvRows(const float *a, const float *x, float *y, int k) {
  int lane = threadIdx.x & 31;
  float acc = 0.f;
  for (int k0 = 0; k0 < k; k0 += 32) {
    float xv = k0 + lane < k ? x[k0 + lane] : 0.f;
    for (int kk = 0; kk < 32 && k0 + kk < k; ++kk) acc += a[k0 + kk] * __shfl_sync(0xffffffff, xv, kk);
  }
  y[threadIdx.x] = foldWidth(acc) + suffixMax(acc, lane);
}

struct Config { static constexpr int kThreads = 256; static constexpr int kTeam = 32; };

template <class C>
__global__ void perTeam(const float *in, float *out) {
  int row = blockIdx.x * (C::kThreads / C::kTeam) + threadIdx.x / C::kTeam;
  float v = in[row];
  v += __shfl_xor_sync(0xffffffff, v, 16);
  out[row] = v;
}

void run(const float *a, const float *x, float *y) {
  gemvRows<<<1, 64>>>(a, x, y, 128);
  perTeam<Config><<<1, 256>>>(a, y);
}
