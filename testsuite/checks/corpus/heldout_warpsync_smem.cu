// Warp-synchronous shared-memory tails (held-out batch). These run on the
// first 32 threads only and fold 64 values first: nothing assumes the
// hardware warp is 32 lanes wide beyond that.
#include <cuda_runtime.h>

template <unsigned int blockSize>
__device__ void warpReduce(volatile float *sdata, unsigned int tid) {
  if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
  if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
  if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
  if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
  if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
  if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

template <unsigned int blockSize>
__global__ void reduce6(const float *g_idata, float *g_odata, unsigned int n) {
  extern __shared__ float sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + tid;
  unsigned int gridSize = blockSize * 2 * gridDim.x;
  sdata[tid] = 0;
  while (i < n) {
    sdata[tid] += g_idata[i] + (i + blockSize < n ? g_idata[i + blockSize] : 0.f);
    i += gridSize;
  }
  __syncthreads();
  if (blockSize >= 512) { if (tid < 256) sdata[tid] += sdata[tid + 256]; __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; __syncthreads(); }
  if (tid < 32)
    warpReduce<blockSize>(sdata, tid);
  if (tid == 0)
    g_odata[blockIdx.x] = sdata[0];
}

__global__ void reduce_syncwarp(const float *in, float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32) {
    float v = s[tid] + s[tid + 32];
    s[tid] = v;
    __syncwarp();
    for (int offset = 16; offset > 0; offset /= 2) {  // quiet: W64-SHFL-OFFSET
      v += __shfl_down_sync(0xffffffff, v, offset);  // expect: W64-MASK32
    }
    if (tid == 0)
      out[blockIdx.x] = v;
  }
}

template __global__ void reduce6<256>(const float *, float *, unsigned int);

void launch(const float *in, float *out, unsigned n) {
  reduce6<256><<<64, 256, 256 * sizeof(float)>>>(in, out, n);
  reduce_syncwarp<<<n / 64, 64>>>(in, out);
}
