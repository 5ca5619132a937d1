// CUB's warp-transpose loads and stores need blocks of whole wavefronts on
// AMD (rocPRIM static_asserts it): an instantiation with 32 threads does not
// compile there. W64-BLOCK-SIZE reports it as an error where the algorithm is
// written; --fix-wave64 writes the block-wide transpose, which gives the same
// blocked arrangement for any block size. A block of 128 threads is left.
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

template <int BLOCK_THREADS, int ITEMS>
__global__ void prefixSums(const int *in, int *out) {
  typedef cub::BlockLoad<int, BLOCK_THREADS, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
  typedef cub::BlockStore<int, BLOCK_THREADS, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE> Store;
  typedef cub::BlockScan<int, BLOCK_THREADS> Scan;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Scan::TempStorage scan;
  } temp;
  int items[ITEMS];
  Load(temp.load).Load(in, items);
  __syncthreads();
  Scan(temp.scan).ExclusiveSum(items, items);
  __syncthreads();
  Store(temp.store).Store(out, items);
}

// Whole wavefronts only: nothing to report.
__global__ void copyTiles(const float *in, float *out) {
  typedef cub::BlockLoad<float, 128, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
  __shared__ typename Load::TempStorage temp;
  float items[4];
  Load(temp).Load(in + blockIdx.x * 512, items);
  for (int i = 0; i < 4; ++i)
    out[blockIdx.x * 512 + threadIdx.x * 4 + i] = items[i];
}

void run(const int *in, int *out, const float *fin, float *fout) {
  prefixSums<128, 4><<<1, 128>>>(in, out);
  prefixSums<32, 16><<<1, 32>>>(in, out);
  copyTiles<<<2, 128>>>(fin, fout);
}
