// `Dep<T>::name<N>(args)` without `template`, as nvcc accepts it
// (attentionMultiHeadKVCache's vec_cast<tgt, src>::cast<vec_size>(...)):
// clang reads two comparisons there, so the keyword C++ requires is added
// where the class template declares a member template of that name.
#include <cuda_runtime.h>
#include <cstddef>

template <typename Dst, typename Src> struct vec_cast {
  template <size_t N> __device__ static void cast(Dst *dst, const Src *src) {
    for (size_t i = 0; i < N; ++i)
      dst[i] = static_cast<Dst>(src[i]);
  }
  static constexpr int limit = 4;
};

template <typename Src, typename Dst, size_t N>
__device__ void castFrom(Dst *dst, const Src *src) {
  vec_cast<Dst, Src>::cast<N>(dst, src);
  vec_cast<Dst, Src>::template cast<N>(dst, src);  // already conforming
}

// With an operator< of the program's own in scope, clang keeps the same
// spelling as a call of an overloaded operator: fixed the same way.
struct Version { int major; };
__host__ __device__ inline bool operator<(Version a, Version b) { return a.major < b.major; }

template <typename Src, typename Dst, size_t N>
__device__ void castBack(Src *src, const Dst *dst) {
  vec_cast<Src, Dst>::cast<N>(src, dst);
}

template <typename T> __device__ bool belowLimit(int n) {
  return vec_cast<T, T>::limit < n;  // a comparison: left as it is
}

__global__ void convert(float *dst, const int *src) {
  castFrom<int, float, 4>(dst + 4 * threadIdx.x, src + 4 * threadIdx.x);
  castBack<float, float, 4>(dst, dst + 4);
  if (belowLimit<float>(threadIdx.x))
    dst[0] = 0.0f;
}
