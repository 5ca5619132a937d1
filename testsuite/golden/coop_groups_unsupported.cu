// Cooperative-groups APIs HIP 5.2 lacks are reported where they are used,
// through an alias and in templates alike, and left as written.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__global__ void stage(float *dst, const float *src, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, dst, src, sizeof(float) * n);
  cg::wait(block);
}

template <typename T>
__global__ void warp_sum(const T *in, T *out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  T v = cg::inclusive_scan(tile, in[threadIdx.x]);
  if (tile.thread_rank() == 0)
    out[threadIdx.x / 32] = v;
}
template __global__ void warp_sum<float>(const float *, float *);
