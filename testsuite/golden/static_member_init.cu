// Regression: a static data member declared in its class and defined with an
// initializer out of line. hasInitializer() matches the in-class declaration,
// whose getInit() is null; the ballot check dereferenced it (SIGSEGV in the
// parse, so the file fell back to lexical). Found in HeCBench (triad, cmp).
#include <cuda_runtime.h>

class Registry {
public:
  static Registry *instance;
  static unsigned lanes;
  int value = 0;
};

Registry *Registry::instance = nullptr;
unsigned Registry::lanes = 64u;

__global__ void fill(int *out) {
  out[threadIdx.x] = threadIdx.x;
}

int main() {
  int *d = nullptr;
  cudaMalloc(&d, 64 * sizeof(int));
  fill<<<1, 64>>>(d);
  cudaDeviceSynchronize();
  cudaFree(d);
  return 0;
}
