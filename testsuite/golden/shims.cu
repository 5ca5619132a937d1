// Shims (mappings/shims/): APIs the target HIP (5.2) lacks are renamed to
// cu2dcu_* code written once into the file, after the last #include before
// the first use, and build on both HIP platforms.
#include <cstdio>
#include <cusparse.h>

__global__ void reduce(float *data) {
  float v = data[threadIdx.x];
  __syncwarp();
  unsigned lanes = __ballot_sync(0xffffffffu, v > 0.f);
  __syncwarp(lanes);  // may not cover the warp: reported
  data[threadIdx.x] = v;
}

int report(cusparseStatus_t status) {
  if (status != CUSPARSE_STATUS_SUCCESS)
    printf("cuSPARSE: %s\n", cusparseGetErrorString(status));
  return status == CUSPARSE_STATUS_SUCCESS ? 0 : 1;
}

int again(cusparseStatus_t status) {
  return printf("%s\n", cusparseGetErrorString(status));  // one note per file
}

__global__ void relu4(const unsigned *in, unsigned *out) {
  out[threadIdx.x] = __vmaxs4(in[threadIdx.x], 0);
}

__global__ void dot4(const int *a, const int *b, int *out) {
  out[threadIdx.x] = __dp4a(a[threadIdx.x], b[threadIdx.x], out[threadIdx.x]);
}
