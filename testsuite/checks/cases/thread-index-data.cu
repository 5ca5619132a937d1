// W64-LANE-MATH stays quiet on thread indices used as data and on tiles in
// kernels without warp work, in a unit that also shuffles:
// - tileCopy is launched by the same host function as rowSums, which
//   shuffles; a launch is not a call, so tileCopy's kTile is a tile, not a
//   warp (lines 23-24);
// - unpack stores its shift amount through a cast (line 30);
// - rankInWord counts its shift from the word's other end (line 36);
// - transposeBits splits t into a transposed 2-D tile, bit[c][r] (line 42).
// rowSums keeps its findings (mask and shuffle start).
#include <cuda_runtime.h>
#include <cstdint>

constexpr int kTile = 32;

__global__ void rowSums(const float *in, float *out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void tileCopy(const float *in, float *out, int n) {
  const int r = threadIdx.x / kTile, c = threadIdx.x % kTile;
  const int i = (blockIdx.x * 8 + r) * kTile + c;
  if (i < n) out[i] = in[i];
}

__global__ void unpack(const uint32_t *packed, int bits, uint16_t *out) {
  const uint64_t bitPos = static_cast<uint64_t>(blockIdx.x * blockDim.x + threadIdx.x) * bits;
  const uint32_t word = static_cast<uint32_t>(bitPos >> 5), shift = static_cast<uint32_t>(bitPos & 31);
  out[threadIdx.x] = static_cast<uint16_t>((packed[word] >> shift) & ((1u << bits) - 1u));
}

__global__ void rankInWord(const unsigned *heads, int *rank) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  rank[i] = __popc(heads[i >> 5] & (0xffffffffu >> (31 - (i & 31))));
}

__global__ void transposeBits(const unsigned *rows, unsigned char *cols) {
  __shared__ unsigned char bit[32][33];
  const int t = threadIdx.x;
  const int r = t / 32, c = t % 32;
  bit[c][r] = (rows[blockIdx.x * 32 + r] >> c) & 1u;
  __syncthreads();
  cols[blockIdx.x * 1024 + t] = bit[r][c];
}

void run(const float *in, float *out, int n) {
  rowSums<<<n / 256, 256>>>(in, out);
  tileCopy<<<n / 256, 256>>>(in, out, n);
}
