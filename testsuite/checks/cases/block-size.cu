// W64-BLOCK-SIZE: constant block sizes that leave wavefront lanes idle.
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

// A block size given as a template argument: each instantiation that makes it
// no multiple of 64 is reported where the argument is written.
template <int BLOCK_THREADS>
void launchTile(float *p, int n) {
  k<<<n, BLOCK_THREADS>>>(p);             // 32 and 96 below; the pattern is quiet
  k<<<n, BLOCK_THREADS * 2>>>(p);         // 64 and 192: fine
}

void tiles(float *p, int n) {
  launchTile<256>(p, n);                  // fine
  launchTile<32>(p, n);                   // half a wavefront
  launchTile<96>(p, n);                   // 1.5 wavefronts
}
