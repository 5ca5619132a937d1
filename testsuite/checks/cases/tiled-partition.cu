// W64-SHFL-OFFSET: cg::tiled_partition<32> is the cooperative-groups form of a
// shuffle width of 32: its tiles cover half of a 64-lane wavefront. Tiles are
// the only lane exchange here, so the unit is consistent 32-lane groups, right
// on a 64-lane wavefront as written: notes.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define WARP_SIZE 32  // the tile size below is a use: folded into this line

__global__ void tiles(float *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);  // a note
  auto named = cg::tiled_partition<WARP_SIZE>(block);  // a use of WARP_SIZE
  auto quad = cg::tiled_partition<4>(block);  // a sub-group: quiet
  out[threadIdx.x] = warp.thread_rank() + named.thread_rank() + quad.thread_rank();
}
