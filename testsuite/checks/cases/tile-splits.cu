// W64-LANE-MATH stays quiet on a thread index split into the row and column
// of rows of 32 (As[t / 32][t % 32], m[r * 33 + c] with r = t >> 5 and
// c = t & 31) in a function without warp work: data, whose results do not
// depend on the wavefront's width; nor are the derived strides (by * 32 +
// row) or the 32-row shared tiles warp counts; nor is a bitmap's word and
// bit taken through a cast. The same split in a kernel that shuffles is a
// lane and a warp id, and is reported.
#include <cuda_runtime.h>

__global__ void gemmTile(const float *A, const float *B, float *C, int N) {
  __shared__ float As[32][32], Bs[32][32];
  int tid = threadIdx.x;
  int row = tid / 32, col = tid % 32;
  int gr = blockIdx.y * 32 + row, gc = blockIdx.x * 32 + col;
  float acc = 0.f;
  for (int k0 = 0; k0 < N; k0 += 32) {
    As[row][col] = A[gr * N + k0 + col];
    Bs[row][col] = B[(k0 + row) * N + gc];
    __syncthreads();
    for (int k = 0; k < 32; ++k) acc += As[row][k] * Bs[k][col];
    __syncthreads();
  }
  C[gr * N + gc] = acc;
}

__global__ void paddedRows(float *m) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int r = t >> 5, c = t & 31;
  m[r * 33 + c] = r + c;
}

// The tile's row index is a loop variable started from the split (rr = r;
// rr < 32; rr += 8): the column still marks the split as data.
__global__ void tileRowsByLoop(const float *A, float *C, int n) {
  __shared__ float As[32][33];
  const int r = threadIdx.x / 32, c = threadIdx.x % 32;
  for (int rr = r; rr < 32; rr += 8) As[rr][c] = A[(blockIdx.y * 32 + rr) * n + c];
  __syncthreads();
  for (int rr = r; rr < 32; rr += 8) C[(blockIdx.y * 32 + rr) * n + c] = 2.f * As[c][rr];
}

// A bitmap's word and bit taken through a cast: the same index.
__global__ void markBits(const int *level, unsigned *next, int depth, int nv) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nv || level[v] != depth) return;
  const unsigned word = static_cast<unsigned>(v) >> 5;
  atomicOr(&next[word], 1u << (v & 31));
}

__global__ void rowSums(const float *in, float *out) {
  __shared__ float part[32][33];
  int row = threadIdx.x / 32, col = threadIdx.x % 32;
  part[row][col] = in[blockIdx.x * blockDim.x + threadIdx.x];
  float v = part[row][col];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if (col == 0) out[blockIdx.x * 32 + row] = v;
}

__global__ void wavefrontWidth(int *w) { *w = warpSize; }

int main() { return 0; }
