// Explicit instantiations: clang keeps no declaration of the function ones,
// so the types written in them are translated by the lexical rules.
#include <cuda_runtime.h>

template <typename T>
__global__ void scale(T *data, T factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= factor;
}

template <typename T>
cudaError_t launchScale(T *data, T factor, int n, cudaStream_t stream) {
  scale<T><<<(n + 255) / 256, 256, 0, stream>>>(data, factor, n);
  return cudaGetLastError();
}

template cudaError_t launchScale<float>(float *data, float factor, int n,
                                        cudaStream_t stream);
extern template cudaError_t launchScale<double>(double *, double, int, cudaStream_t);
template __global__ void scale<int>(int *, int, int);

struct Holder {
  template <typename T> T get(cudaStream_t s) const { return T(); }
};

template <typename T>
int useHolder(const Holder &h, cudaStream_t s) {
  // `template` as a disambiguator starts no instantiation
  return h.template get<int>(s);
}

int main() {
  float *d = nullptr;
  cudaMalloc(&d, 256 * sizeof(float));
  launchScale<float>(d, 2.0f, 256, 0);
  cudaFree(d);
  return useHolder<int>(Holder(), 0);
}
