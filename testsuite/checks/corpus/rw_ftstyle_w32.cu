// Reductions in the style of transformer inference kernels: FINAL_MASK,
// explicit widths, float warp counts, per-warp statics.
// Every shuffle passes an explicit width of 32 and nothing reads the whole warp:
// the code works in 32-lane groups, which a 64-lane wavefront runs as two. Lane
// and warp math by 32 numbers those groups and is right on DCU (turning it into
// warpSize would break the reductions), so it is quiet; the width is reported.
#include <cuda_runtime.h>

#define FINAL_MASK 0xffffffff  // expect: W64-MASK32 (definition site)

template <typename T>
__inline__ __device__ T warpReduceSum(T val) {
#pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1)  // quiet: W64-SHFL-OFFSET
    val += __shfl_xor_sync(FINAL_MASK, val, mask, 32);  // expect: W64-MASK32, W64-SHFL-OFFSET
  return val;
}

template <typename T>
__inline__ __device__ T warpReduceMax(T val) {
#pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1)  // quiet: W64-SHFL-OFFSET
    val = max(val, __shfl_xor_sync(FINAL_MASK, val, mask, 32));  // expect: W64-MASK32, W64-SHFL-OFFSET
  return val;
}

template <typename T>
__inline__ __device__ T blockReduceSum(T val) {
  static __shared__ T shared[32];  // quiet: W64-WARP-COUNT
  int lane = threadIdx.x & 0x1f;  // quiet: W64-LANE-MATH
  int wid = threadIdx.x >> 5;  // quiet: W64-LANE-MATH
  val = warpReduceSum<T>(val);
  if (lane == 0)
    shared[wid] = val;
  __syncthreads();
  val = (threadIdx.x < (blockDim.x / 32.f)) ? shared[lane] : (T)(0.0f);  // quiet: W64-WARP-COUNT
  val = warpReduceSum<T>(val);
  return val;
}

template <typename T>
__inline__ __device__ T blockReduceMax(T val) {
  static __shared__ T shared[32];  // quiet: W64-WARP-COUNT
  int lane = threadIdx.x & 0x1f;  // quiet: W64-LANE-MATH
  int wid = threadIdx.x >> 5;  // quiet: W64-LANE-MATH
  val = warpReduceMax(val);
  if (lane == 0)
    shared[wid] = val;
  __syncthreads();
  val = (threadIdx.x < (blockDim.x / 32.f)) ? shared[lane] : -1e20f;  // quiet: W64-WARP-COUNT
  val = warpReduceMax(val);
  return val;
}

__global__ void rmsnorm(float *out, const float *in, const float *w, float eps, int n) {
  __shared__ float s_inv;
  float sq = 0.f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    float v = in[blockIdx.x * n + i];
    sq += v * v;
  }
  sq = blockReduceSum<float>(sq);
  if (threadIdx.x == 0)
    s_inv = rsqrtf(sq / n + eps);
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    out[blockIdx.x * n + i] = in[blockIdx.x * n + i] * s_inv * w[i];
}

__global__ void row_max(float *out, const float *in, int n) {
  float m = -1e20f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    m = max(m, in[blockIdx.x * n + i]);
  m = blockReduceMax<float>(m);
  if (threadIdx.x == 0)
    out[blockIdx.x] = m;
}

void launch(float *o, const float *i, const float *w, int rows, int n) {
  dim3 block(n < 1024 ? n : 1024);
  rmsnorm<<<rows, block>>>(o, i, w, 1e-6f, n);
  row_max<<<rows, 1024>>>(o, i, n);
}
