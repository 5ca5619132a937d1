// Held out, round 6. Cause 3: host code (warp-size tests, sizes and launch shapes computed with 32).
// Ambiguous calls (labelled as a demanding GPU engineer would expect):
// - `(threads / 32)` in the dynamic shared-memory size is a host warp count
//   (W64-WARP-COUNT), not a product with 32 (no W64-BLOCK-SIZE).
// - `blocks * (threads >> 5)` sizes a per-warp buffer of a kernel that numbers
//   its warps by warpSize: W64-WARP-COUNT, written with `>> 5`.
// - `rowDots<<<rows / 2, 2 * 32>>>`: a block of one whole wavefront built from
//   32s for a kernel that shuffles and splits its rows by warpSize (grid
//   computed for two rows per block): W64-BLOCK-SIZE.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

constexpr int kBins = 64;

// Per-warp private histograms in dynamic shared memory, numbered by warpSize;
// each warp also reports how many keys it saw.
__global__ void warpHistogram(const unsigned char *keys, unsigned *bins, int *seen, int n) {
  extern __shared__ unsigned priv[];
  const int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  const int warps = blockDim.x / warpSize;
  for (int b = threadIdx.x; b < warps * kBins; b += blockDim.x) priv[b] = 0;
  __syncthreads();
  int mine = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x, ++mine)
    atomicAdd(&priv[warp * kBins + keys[i] % kBins], 1u);
  for (int o = warpSize / 2; o > 0; o /= 2) mine += __shfl_down_sync(0xffffffff, mine, o); // expect: W64-MASK32
  if (lane == 0) seen[blockIdx.x * warps + warp] = mine;
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    unsigned s = 0;
    for (int w = 0; w < warps; ++w) s += priv[w * kBins + b];
    atomicAdd(&bins[b], s);
  }
}

// One warp (wavefront) per row, numbered by warpSize.
__global__ void rowDots(const float *a, const float *x, float *y, int rows, int cols) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  const int lane = threadIdx.x % warpSize;
  float s = 0.f;
  if (row < rows)
    for (int c = lane; c < cols; c += warpSize) s += a[(size_t)row * cols + c] * x[c];
  for (int o = warpSize / 2; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o); // expect: W64-MASK32
  if (lane == 0 && row < rows) y[row] = s;
}

static int deviceLanes(int dev) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  return prop.warpSize;
}

int main(int argc, char **argv) {
  const int dev = 0;
  if (32 != deviceLanes(dev))                                          // expect: W64-HOST-WARP-SIZE
    fprintf(stderr, "note: tuned for 32-thread warps\n");
  int ws = 0;
  cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, dev);
  const int expected = 32;
  const bool packed = ws == expected;                                  // expect: W64-HOST-WARP-SIZE

  const int n = 1 << 20;
  const int threads = argc > 1 ? atoi(argv[1]) : 256;
  const int blocks = (n + threads - 1) / threads;
  const size_t privBytes = (threads / 32) * kBins * sizeof(unsigned);  // expect: W64-WARP-COUNT
  const int warpsTotal = blocks * (threads >> 5);                      // expect: W64-WARP-COUNT
  unsigned char *keys;
  unsigned *bins;
  int *seen;
  cudaMalloc(&keys, n);
  cudaMalloc(&bins, kBins * sizeof(unsigned));
  cudaMalloc(&seen, warpsTotal * sizeof(int));
  warpHistogram<<<blocks, threads, privBytes>>>(keys, bins, seen, n);

  const int rows = 4096, cols = 1024;
  float *a, *x, *y, *scratch;
  cudaMalloc(&a, (size_t)rows * cols * sizeof(float));
  cudaMalloc(&x, cols * sizeof(float));
  cudaMalloc(&y, rows * sizeof(float));
  cudaMalloc(&scratch, 32 * rows * sizeof(float));                     // quiet: W64-BLOCK-SIZE, W64-WARP-COUNT
  const unsigned rowThreads = rows * 32u;                              // expect: W64-BLOCK-SIZE
  rowDots<<<(rowThreads + 255) / 256, 256>>>(a, x, y, rows, cols);
  rowDots<<<rows / 2, 2 * 32>>>(a, x, scratch, rows, cols);            // expect: W64-BLOCK-SIZE
  cudaDeviceSynchronize();
  printf("%s\n", packed ? "32-lane" : "other");
  return 0;
}
