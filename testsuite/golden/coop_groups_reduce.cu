// cooperative_groups::reduce and its operators come from
// cooperative_groups/reduce.h, which HIP lacks: they become the cu2dcu_cg_*
// shims (CUDA's own on NVIDIA, a shfl_xor butterfly over the tile on AMD)
// and the include goes. Any trivially copyable value reduces, as in CUDA.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

struct SumMax {
  float sum, max;
};

__global__ void tile_stats(const float *in, float *out, unsigned *bits, SumMax *pairs) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = in[block.thread_rank()];
  unsigned u = __float_as_uint(v);
  out[0] = cg::reduce(tile, v, cg::plus<float>());
  out[1] = cg::reduce(tile, v, cg::greater<float>());
  out[2] = cooperative_groups::reduce(tile, v, cooperative_groups::less<float>());
  bits[0] = cg::reduce(tile, u, cg::bit_and<unsigned>());
  bits[1] = cg::reduce(tile, u, cg::bit_or<unsigned>());
  bits[2] = cg::reduce(tile, u, cg::bit_xor<unsigned>());
  pairs[0] = cg::reduce(tile, SumMax{v, v}, [](SumMax a, SumMax b) {
    return SumMax{a.sum + b.sum, a.max < b.max ? b.max : a.max};
  });
}

// A coalesced group: any size, and no shfl_xor in HIP's class.
__global__ void active_sum(const int *in, int *out) {
  if (in[threadIdx.x] > 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    out[threadIdx.x] = cg::reduce(active, in[threadIdx.x], cg::plus<int>());
  }
}
