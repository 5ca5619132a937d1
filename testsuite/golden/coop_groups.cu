// Cooperative groups keep their names in HIP; only the header changes. The
// names are matched by declaration (cooperative_groups::__v1::... in CUDA 13),
// through the namespace alias too, and a user's own this_thread_block stays.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

namespace mylib {
__device__ int this_thread_block() { return 0; }
}

__global__ void block_sum(const float *in, float *out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float partial[256];
  partial[block.thread_rank()] = in[blockIdx.x * blockDim.x + threadIdx.x];
  block.sync();
  cooperative_groups::sync(block);
  if (block.thread_rank() == 0)
    out[blockIdx.x] = partial[0] + mylib::this_thread_block();
}

template <typename Group>
__device__ void sync_all(Group g) { cooperative_groups::sync(g); }

template <typename T>
__global__ void fill(T *data) {
  cg::grid_group grid = cg::this_grid();
  data[grid.thread_rank()] = T(1);
  sync_all(cg::this_thread_block());
}
template __global__ void fill<float>(float *);
