// A file clang parses only with errors: its header is missing, so the class
// and a member type are unknown. What clang dropped while it recovered (the
// out-of-line members of the unknown class, a loop over a member of unknown
// type) is translated by the lexical rules.
#include <cuda_runtime.h>
#include "not_shipped/widget.h"

struct Buffers {
  MissingVector<float *> parts; // unknown type: uses of parts are dropped
  float *whole = nullptr;
  void release();
};

void Buffers::release() {
  for (auto &part : parts) {
    cudaFree(part);
  }
  cudaFree(whole);
}

void Widget::upload(const float *host, size_t n) {
  cudaMalloc(&device_, n * sizeof(float));
  cudaMemcpy(device_, host, n * sizeof(float), cudaMemcpyHostToDevice);
}

int main() {
  Buffers b;
  b.release();
  cudaDeviceSynchronize();
  return 0;
}
