// W64-BLOCK-SIZE: constant block sizes that leave wavefront lanes idle.
#include <cuda_runtime.h>

__global__ void k(float *p) { p[threadIdx.x] = 0.f; }

const int kThreads = 96;

void launch(float *p, int n, int dynamic_block) {
  k<<<n, 32>>>(p);                        // half a wavefront
  k<<<n, kThreads>>>(p);                  // 1.5 wavefronts
  dim3 block(16, 6);
  k<<<n, block>>>(p);                     // 96 again, through a dim3
  k<<<n, dim3(8, 8, 2)>>>(p);             // 128: fine
  k<<<n, 256>>>(p);                       // fine
  k<<<n, dynamic_block>>>(p);             // not a constant: quiet
  dim3 tiles(32, 32);
  k<<<n, tiles>>>(p);                     // 1024: fine
}
