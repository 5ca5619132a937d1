// CUDA kernels with one wave64 hazard or 32-lane design per check, each
// printing one result. advice_recipe.py applies the advice of every W64
// finding cu2dcu reports on this file, as its message words it
// (advice_recipes.json), and requires that the advised translation, run with
// 64-lane wavefronts, prints what this original prints.
#include <cstdio>
#include <cuda_runtime.h>

#define ALL_LANES 0xffffffff

// W64-SHFL-OFFSET: lanes are numbered over the whole wavefront, the
// reduction starts at 16.
__global__ void wavefrontSums(const int *in, int *out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(ALL_LANES, v, offset);
  if (threadIdx.x % warpSize == 0)
    atomicAdd(out, v);
}

// W64-BALLOT-NARROW: a ballot kept in 32 bits, counted with __popc.
__global__ void positiveCount(const int *in, int *out) {
  unsigned votes = __ballot_sync(ALL_LANES, in[blockIdx.x * blockDim.x + threadIdx.x] > 0);
  if (threadIdx.x % warpSize == 0)
    atomicAdd(out, __popc(votes));
}

// W64-LANE-MATH: per-warp sums, one output slot per warp, summed on the host.
__global__ void warpPartials(const int *in, int *out, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = tid < n ? in[tid] : 0;
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_xor_sync(ALL_LANES, v, offset);
  if (threadIdx.x % 32 == 0)
    out[tid / 32] = v;
}

// W64-INLINE-PTX: the lane read from %laneid.
__global__ void lastLaneSum(const int *in, int *out) {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_xor_sync(ALL_LANES, v, offset);
  if (lane == warpSize - 1)
    atomicAdd(out, v);
}

// W64-WARP-SYNC: the warp-synchronous tail of a block reduction, run by the
// first 32 threads.
__device__ void warpTail(volatile int *s, int t) {
  int v = s[t];
  v += s[t + 32]; __syncwarp();
  s[t] = v;       __syncwarp();
  v += s[t + 16]; __syncwarp();
  s[t] = v;       __syncwarp();
  v += s[t + 8];  __syncwarp();
  s[t] = v;       __syncwarp();
  v += s[t + 4];  __syncwarp();
  s[t] = v;       __syncwarp();
  v += s[t + 2];  __syncwarp();
  s[t] = v;       __syncwarp();
  v += s[t + 1];  __syncwarp();
  s[t] = v;
}

__global__ void blockSums(const int *in, int *out) {
  __shared__ int s[128];
  s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 64)
    s[threadIdx.x] += s[threadIdx.x + 64];
  __syncthreads();
  if (threadIdx.x < 32)
    warpTail(s, threadIdx.x);
  if (threadIdx.x == 0)
    atomicAdd(out, s[0]);
}

// Consistent 32-lane groups (a block sum through one slot per group, XOR
// butterflies from 16), launched with a shape computed from 32.
__global__ void groupSums(const int *in, int *out) {
  __shared__ int slots[32];
  int lane = threadIdx.x % 32;
  int group = threadIdx.x / 32;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(ALL_LANES, v, offset);
  if (lane == 0)
    slots[group] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (int g = 0; g < blockDim.x / 32; ++g)
      sum += slots[g];
    atomicAdd(out, sum);
  }
}

static int *deviceInput(int n) {
  int *host = new int[n], *in;
  for (int i = 0; i < n; ++i)
    host[i] = (i * 7919) % 1000 - 300;
  cudaMalloc(&in, n * sizeof(int));
  cudaMemcpy(in, host, n * sizeof(int), cudaMemcpyHostToDevice);
  delete[] host;
  return in;
}

// Prints the sum of the first outs ints of out, then clears them.
static void report(const char *name, int *out, int outs) {
  int *result = new int[outs];
  cudaMemcpy(result, out, outs * sizeof(int), cudaMemcpyDeviceToHost);
  long long sum = 0;
  for (int i = 0; i < outs; ++i)
    sum += result[i];
  printf("%s %lld\n", name, sum);
  fflush(stdout); // before a later kernel's device printf (an emulation trap) writes to it
  cudaMemset(out, 0, outs * sizeof(int));
  delete[] result;
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  if (prop.warpSize != 32) {
    printf("needs 32-lane warps\n");
    return 1;
  }
  const int n = 3 << 14; // whole blocks of 96, 128, 192 and 256 threads
  int *in = deviceInput(n), *out;
  cudaMalloc(&out, n * sizeof(int));
  cudaMemset(out, 0, n * sizeof(int));
  int threads = 32 * 3;
  groupSums<<<n / threads, threads>>>(in, out);
  report("groupSums", out, 1);
  wavefrontSums<<<n / 256, 256>>>(in, out);
  report("wavefrontSums", out, 1);
  positiveCount<<<n / 256, 256>>>(in, out);
  report("positiveCount", out, 1);
  warpPartials<<<n / 256, 256>>>(in, out, n);
  report("warpPartials", out, n);
  lastLaneSum<<<n / 256, 256>>>(in, out);
  report("lastLaneSum", out, 1);
  blockSums<<<n / 128, 128>>>(in, out);
  report("blockSums", out, 1);
  cudaError_t err = cudaDeviceSynchronize();
  printf("status %s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
  return 0;
}
