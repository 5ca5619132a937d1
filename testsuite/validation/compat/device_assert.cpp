// A device-side assert through HIP's NVIDIA path must stay CUDA's assert
// (a call of __assertfail, reported as hipErrorAssert), not a trap.
#include <cassert>  // before HIP's header, which redefined assert after it
#include <hip/hip_runtime.h>

__global__ void checkBound(int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  assert(gid < n);
}
