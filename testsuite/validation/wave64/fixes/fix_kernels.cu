// CUDA kernels written for 32-lane warps, each printing one result. Their
// translation with --fix-wave64, built with the wave64 emulation headers, must
// print what the CUDA original prints (fix_behaviour.py); the translation
// without fixes shows which of them are wave64 hazards at all.
#include <cstdio>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff

// One warp per row, rows strided over the grid's warps, each lane summing
// every 32nd column from its own, then a reduction from offset 16: consistent
// 32-lane groups, right on a 64-lane wavefront as written (and once every 32
// is warpSize): notes, and --fix-wave64 leaves it as it is.
__global__ void rowSums(const int *in, int *out, int rows, int cols) {
  int lane = threadIdx.x % 32;
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int warps = gridDim.x * blockDim.x / 32;
  for (int row = warp; row < rows; row += warps) {
    int sum = 0;
    for (int c = lane; c < cols; c += 32)
      sum += in[row * cols + c];
    for (int offset = 16; offset > 0; offset /= 2)
      sum += __shfl_down_sync(FULL_MASK, sum, offset);
    if (lane == 0)
      out[row] = sum;
  }
}

// rowSums with the lane spelled as a difference (tid - (warp << 5)) and the
// row strided by x: consistent groups too, left as they are.
__global__ void rowSumsByDifference(const int *in, int *out, int rows, int cols) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = blockIdx.x * blockDim.x + threadIdx.x - (warp << 5);
  int warps = gridDim.x * blockDim.x / 32;
  for (int row = warp; row < rows; row += warps) {
    int sum = 0;
    for (int x = lane; x < cols; x += 32)
      sum += in[row * cols + x];
    for (int offset = 16; offset > 0; offset /= 2)
      sum += __shfl_down_sync(FULL_MASK, sum, offset);
    if (lane == 0)
      out[row] = sum;
  }
}

// One warp per row again, but the row stride counts warps with warpSize
// while the ids use 32: on a 64-lane wavefront half of the groups repeat rows,
// which the atomic sum counts twice. --fix-wave64 widens the ids, the column
// stride and the reduction together; a column stride left at 32 sums columns
// twice.
__global__ void rowSumsMixed(const int *in, int *out, int rows, int cols) {
  int lane = threadIdx.x % 32;
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int warps = gridDim.x * blockDim.x / warpSize;
  for (int row = warp; row < rows; row += warps) {
    int sum = 0;
    for (int c = lane; c < cols; c += 32)
      sum += in[row * cols + c];
    for (int offset = 16; offset > 0; offset /= 2)
      sum += __shfl_down_sync(FULL_MASK, sum, offset);
    if (lane == 0)
      atomicAdd(&out[row], sum);
  }
}

// Aggregated atomics (HeCBench atomicAggregate's AMD branch): the lanes of a
// warp that share a key elect a leader, which adds their count. The ballot is
// kept in 32 bits and copied into another container: lanes 32-63 are lost.
__global__ void aggregatedCount(const int *keys, int *counts) {
  int key = keys[blockIdx.x * blockDim.x + threadIdx.x] % 8;
  int mask = 0;
  for (int i = 0; i < warpSize; i++) {
    int other = __shfl_sync(FULL_MASK, key, i);
    unsigned same = __ballot_sync(FULL_MASK, other == key);
    if (i == (threadIdx.x & (warpSize - 1)))
      mask = same;
  }
  int leader = __ffs(mask) - 1;
  int lane = threadIdx.x % warpSize;
  if (lane == leader)
    atomicAdd(&counts[key], __popc(mask));
}

// Suffix sums over a block: a shuffle-down scan within each warp, guarded by
// the last-lane test `lane + d <= 31`, then the later warps' totals. The ballot
// reads the whole warp, so the fix widens the grouping, the guard included;
// a guard left at 31 drops lanes 32-63 of each wavefront.
__global__ void blockSuffixSums(const int *in, int *out, int *positives) {
  __shared__ int warpTotals[32];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  int v = in[tid];
  for (int d = 1; d < 32; d *= 2) {
    int next = __shfl_down_sync(FULL_MASK, v, d);
    if (lane + d <= 31)
      v += next;
  }
  if (lane == 0)
    warpTotals[warp] = v;
  unsigned positive = __ballot_sync(FULL_MASK, in[tid] > 6);
  if (lane == 0)
    atomicAdd(positives, __popc(positive));
  __syncthreads();
  for (int w = warp + 1; w < blockDim.x / 32; w++)
    v += warpTotals[w];
  out[tid] = v;
}

// Block totals from the last lane of each warp's inclusive scan, found by
// `lane + 1 >= 32`; a guard left at 32 lets lanes 31-63 all add.
__global__ void blockPrefixTotals(const int *in, int *totals, int *positives) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = in[tid];
  for (int d = 1; d < 32; d <<= 1) {
    int prev = __shfl_up_sync(FULL_MASK, v, d);
    if (lane >= d)
      v += prev;
  }
  if (lane + 1 >= 32)
    atomicAdd(&totals[blockIdx.x], v);
  unsigned positive = __ballot_sync(FULL_MASK, in[tid] > 6);
  if (lane == 0)
    atomicAdd(positives, __popc(positive));
}

int main() {
  const int rows = 96, cols = 200, n = rows * cols, blocks = 4, threads = 256;
  int *in, *out, host[n];
  for (int i = 0; i < n; i++)
    host[i] = (i * 7) % 13;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemcpy(in, host, n * sizeof(int), cudaMemcpyHostToDevice);

  cudaMemset(out, 0, n * sizeof(int));
  rowSums<<<blocks, threads>>>(in, out, rows, cols);
  cudaMemcpy(host, out, rows * sizeof(int), cudaMemcpyDeviceToHost);
  long long check = 0;
  for (int r = 0; r < rows; r++)
    check += (long long)(r + 1) * host[r];
  printf("rowSums %lld\n", check);

  cudaMemset(out, 0, n * sizeof(int));
  rowSumsByDifference<<<blocks, threads>>>(in, out, rows, cols);
  cudaMemcpy(host, out, rows * sizeof(int), cudaMemcpyDeviceToHost);
  check = 0;
  for (int r = 0; r < rows; r++)
    check += (long long)(r + 1) * host[r];
  printf("rowSumsByDifference %lld\n", check);

  cudaMemset(out, 0, n * sizeof(int));
  rowSumsMixed<<<blocks, threads>>>(in, out, rows, cols);
  cudaMemcpy(host, out, rows * sizeof(int), cudaMemcpyDeviceToHost);
  check = 0;
  for (int r = 0; r < rows; r++)
    check += (long long)(r + 1) * host[r];
  printf("rowSumsMixed %lld\n", check);

  cudaMemset(out, 0, 8 * sizeof(int));
  aggregatedCount<<<blocks, threads>>>(in, out);
  cudaMemcpy(host, out, 8 * sizeof(int), cudaMemcpyDeviceToHost);
  check = 0;
  for (int k = 0; k < 8; k++)
    check += (long long)(k + 1) * host[k];
  printf("aggregatedCount %lld\n", check);

  cudaMemset(out, 0, n * sizeof(int));
  blockSuffixSums<<<blocks, threads>>>(in, out, out + n - 1);
  cudaMemcpy(host, out, n * sizeof(int), cudaMemcpyDeviceToHost);
  check = 0;
  for (int i = 0; i < blocks * threads; i++)
    check += (long long)(i % 97 + 1) * host[i];
  printf("blockSuffixSums %lld_%d\n", check, host[n - 1]);

  cudaMemset(out, 0, n * sizeof(int));
  blockPrefixTotals<<<blocks, threads>>>(in, out, out + n - 1);
  cudaMemcpy(host, out, n * sizeof(int), cudaMemcpyDeviceToHost);
  check = 0;
  for (int b = 0; b < blocks; b++)
    check += (long long)(b + 1) * host[b];
  printf("blockPrefixTotals %lld_%d\n", check, host[n - 1]);

  cudaFree(in);
  cudaFree(out);
  return 0;
}
