// A file clang parses only with errors: the AST is kept (ast-recovered) and
// the lexical rules fill in only inside the declaration that holds the error,
// where the AST could not resolve names. Each name is renamed once.
#include <cuda_runtime.h>
#include "missing_helper.h"   // not found: an error to recover from, not fatal

__global__ void scale(float *p) { p[threadIdx.x] *= 2.f; }

void broken(float *d) {
  unknown_type t = make_thing(d);   // an error the AST recovers from: names resolved
  cudaMemcpy(d, t.data, 4, cudaMemcpyDeviceToHost);
  int n = 4 + + ) cudaMemset(d, 0, n);  // tokens clang skips: only the lexical rules see them
}

int main() {
  float *d = nullptr;
  cudaMalloc(&d, 64 * sizeof(float));
  scale<<<1, 64>>>(d);
  cudaFree(d);
  return 0;
}
