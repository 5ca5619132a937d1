// Portable warp code: warpSize, 64-bit ballots, cooperative-groups tiles.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ float tile_sum(cg::thread_block_tile<32> tile, float v) {
  for (int o = tile.size() / 2; o > 0; o /= 2)  // quiet: W64-SHFL-OFFSET
    v += tile.shfl_down(v, o);
  return v;
}

__global__ void cg_reduce(const float *in, float *out, int n) {
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);  // expect: W64-SHFL-OFFSET (32-lane tiles, like width 32)
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = tile_sum(tile, i < n ? in[i] : 0.f);
  if (tile.thread_rank() == 0)
    atomicAdd(out, v);
}

__device__ int aggregated_inc(int *ctr) {
  unsigned long long active = __activemask();  // quiet: W64-BALLOT-NARROW
  int leader = __ffsll(active) - 1;
  int change = __popcll(active);
  int lane = threadIdx.x % warpSize;
  unsigned long long below = active & ((1ull << lane) - 1);  // quiet: W64-BALLOT-NARROW
  int rank = __popcll(below);
  int res = 0;
  if (rank == 0)
    res = atomicAdd(ctr, change);
  res = __shfl_sync(0xffffffff, res, leader);  // expect: W64-MASK32
  return res + rank;
}

__global__ void filter_k(int *dst, int *nres, const int *src, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n && src[i] > 0)
    dst[aggregated_inc(nres)] = src[i];
}

__global__ void lanes_info(int *out) {
  int lane = threadIdx.x & (warpSize - 1);  // quiet: W64-LANE-MATH
  int warp = threadIdx.x / warpSize;
  int warps = (blockDim.x + warpSize - 1) / warpSize;  // quiet: W64-WARP-COUNT
  out[threadIdx.x] = lane + warp * 100 + warps * 10000;
}

void launch(const float *in, float *out, int n, int *dst, int *nres, const int *src) {
  cg_reduce<<<(n + 255) / 256, 256>>>(in, out, n);
  filter_k<<<(n + 127) / 128, 128>>>(dst, nres, src, n);
  lanes_info<<<1, 192>>>(dst);
}
