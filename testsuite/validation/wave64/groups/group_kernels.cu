// CUDA kernels built on consistent 32-lane groups (XOR butterflies and a
// reduction from offset 16, lane and group ids by 32, one slot per group, a
// lane stride of 32, launch shapes of k * 32, an odd-sized tail). On a 64-lane
// wavefront each half runs one group, so the translation as cu2dcu writes it
// (notes, no fixes) must print what the original prints (groups_behaviour.py).
#include <cstdio>
#include <cuda_runtime.h>

#define GROUP 32

__device__ float groupSum(float v) {
  for (int o = GROUP / 2; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}

// A block sum in two steps through one slot per 32-lane group.
__global__ void blockSum(const float *in, float *out, int n) {
  __shared__ float slots[1024 / GROUP];
  int lane = threadIdx.x % GROUP, group = threadIdx.x / GROUP;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = groupSum(i < n ? in[i] : 0.f);
  if (lane == 0)
    slots[group] = v;
  __syncthreads();
  if (group == 0) {
    int groups = (blockDim.x + GROUP - 1) / GROUP;
    v = groupSum(lane < groups ? slots[lane] : 0.f);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

// One group per row: a lane stride of 32, a reduction from offset 16, the
// row's maximum broadcast to every lane of the group by the XOR butterfly.
__global__ void rowStats(const float *a, float *sums, float *maxima, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  int lane = threadIdx.x & 31;
  if (row >= rows)
    return;
  float s = 0.f, m = -1e30f;
  for (int c = lane; c < cols; c += 32) {
    s += a[row * cols + c];
    m = fmaxf(m, a[row * cols + c]);
  }
  for (int o = 16; o; o >>= 1) {
    s += __shfl_down_sync(0xffffffff, s, o);
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  }
  if (lane == 0)
    sums[row] = s;
  if (lane == 31)
    maxima[row] = m;
}

int main() {
  const int n = 5000, rows = 77, cols = 61; // rows * cols <= n
  float *in, *out, host[n];
  for (int i = 0; i < n; i++)
    host[i] = (float)((i * 37) % 101) / 8.f;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, 3 * n * sizeof(float));
  cudaMemcpy(in, host, n * sizeof(float), cudaMemcpyHostToDevice);

  cudaMemset(out, 0, sizeof(float));
  int threads = 8 * GROUP;
  blockSum<<<(n + threads - 1) / threads, threads>>>(in, out, n);
  blockSum<<<1, 48>>>(in, out, 48); // a partial last group
  cudaMemcpy(host, out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("blockSum %.3f\n", host[0]);

  rowStats<<<(rows + 3) / 4, 4 * 32>>>(in, out, out + n, rows, cols);
  float stats[2 * rows];
  cudaMemcpy(stats, out, rows * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(stats + rows, out + n, rows * sizeof(float), cudaMemcpyDeviceToHost);
  double check = 0;
  for (int r = 0; r < rows; r++)
    check += (r + 1) * (double)stats[r] + (r + 2) * (double)stats[rows + r];
  printf("rowStats %.3f\n", check);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
