// Functions the program defines that HIP declares on AMD and CUDA does not:
// kept for HIP's NVIDIA path only (CU2DCU-HIP-DECLARED).
#include <cuda_runtime.h>

__device__ float atomicMax(float *address, float val) {
  int *bits = (int *)address;
  int old = *bits, assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}
inline __host__ __device__ void operator+=(float4 &a, const float4 &b) {
  a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w;
}
// HIP 6.4's float4 has a friend operator* (5.2's is a template): kept on both
// platforms for 5.2, guarded for --hip-version 6.4.
inline __host__ __device__ float4 operator*(float4 a, float4 b) {
  return make_float4(a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w);
}

// Not declared by HIP: kept on both platforms (HIP's unary minus is a template,
// which this definition outranks).
__host__ __device__ inline float4 operator-(float4 a) { return make_float4(-a.x, -a.y, -a.z, -a.w); }

__device__ __forceinline__ float4 operator+(const float4 &a, const float4 &b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
__device__ int atomicMax(int *address, long val) { return atomicMax(address, (int)val); }
inline __device__ void operator+=(float4 &a, float b) { a.x += b; a.y += b; a.z += b; a.w += b; }
#ifdef __NVCC__
// A branch the AST parse does not see (clang does not define __NVCC__): the
// lexical step guards it.
inline __host__ __device__ void operator*=(float4 &a, const float4 &b) {
  a.x *= b.x; a.y *= b.y; a.z *= b.z; a.w *= b.w;
}
#endif
struct Accumulator {
  float4 sum;
  __device__ void operator+=(const float4 &v) { sum = sum + v; }
};

__global__ void reduce(float *best, float4 *v) {
  atomicMax(best, v[0].x);
  float4 s = v[0] + v[1];
  s += v[2];
  s += 1.0f;
  v[3] = -s * v[1];
  Accumulator acc{s};
  acc += v[1];
  v[4] = acc.sum;
}

int main() {
  float *best;
  float4 *v;
  cudaMalloc(&best, sizeof(float));
  cudaMalloc(&v, 5 * sizeof(float4));
  reduce<<<1, 1>>>(best, v);
  cudaDeviceSynchronize();
  return 0;
}
