// Only names CUDA declares are renamed: the user's own functions and members
// that happen to look like CUDA APIs stay as they are.
#include <cuda_runtime.h>

namespace mylib {
int cudaMalloc(void **p, size_t n) { *p = nullptr; return int(n); }
}

struct Config {
  int cudaDevice = 0;
};

static int cudaHelperInit() { return 0; }

void demo(Config &config) {
  void *p = nullptr;
  mylib::cudaMalloc(&p, 8);
  cudaSetDevice(config.cudaDevice);
  cudaHelperInit();
  void *q = nullptr;
  cudaMalloc(&q, 8);
}
