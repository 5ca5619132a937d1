// Tuning, round 12. Cause 4: a thread index used as data (hard negatives only).
// Domains: 2D wavelet transforms (Haar step on 32 x 32 tiles stored
// transposed, CDF 5/3 lifting with bank padding, tile transpose, significance
// bitmap), connected components (label propagation over a frontier bitmap,
// label bins), CRC-32 combine (rows of the zero-extension operators).
// Ambiguous calls (labelled as a demanding GPU compiler engineer would expect):
// - No function of this unit makes a warp call or reads warpSize, and every
//   block is a multiple of 64 threads; nothing here should be reported.
// - `r = i / 32, c = i % 32` of a flat index used as tile[r][c], `m = t >> 5,
//   r = t & 31` used as ops[m * 32 + r] and as the bit `1u << r`, and bitmap
//   words and bits (`v >> 5`, `1u << (v & 31)`) are data: quiet LANE-MATH
//   (and BALLOT-NARROW where a 32-bit bit is built or counted).
// - PAD(i) = i + (i >> 5) is bank padding on a block-strided index: quiet.
// - `__shared__ int bins[32]` indexed by `label % 32` (data) and zeroed by
//   `threadIdx.x < 32` holds no per-warp slot: quiet WARP-COUNT.
// - `dim3 block(32, 8)` (256 threads) and grids `(w + 31) / 32`: quiet.
#include <cuda_runtime.h>
#include <cstdint>

#define PAD(i) ((i) + ((i) >> 5))
constexpr int TILE = 32;
constexpr float kInvSqrt2 = 0.70710678f;

__constant__ uint32_t cTab[256];

// One Haar step along rows on 32 x 32 tiles: approximations go to the left half of the
// row, details to the right half; the result is stored transposed (the next call does columns).
__global__ void haarRowsTransposed(const float* __restrict__ in, float* __restrict__ out, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];                                       // quiet: W64-WARP-COUNT
  const int x0 = blockIdx.x * TILE, y0 = blockIdx.y * TILE;                    // quiet: W64-LANE-MATH
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int nt = blockDim.x * blockDim.y;
  for (int i = t; i < TILE * TILE; i += nt) {
    const int r = i / 32, c = i % 32;                                          // quiet: W64-LANE-MATH
    const int x = x0 + c, y = y0 + r;
    tile[r][c] = (x < w && y < h) ? in[static_cast<size_t>(y) * w + x] : 0.f;
  }
  __syncthreads();
  for (int i = t; i < TILE * TILE / 2; i += nt) {
    const int r = i >> 4, k = i & 15;
    const float a = tile[r][2 * k], b = tile[r][2 * k + 1];
    const int y = y0 + r, xa = x0 / 2 + k, xd = w / 2 + x0 / 2 + k;
    if (y < h && xa < w / 2) {
      out[static_cast<size_t>(xa) * h + y] = (a + b) * kInvSqrt2;
      out[static_cast<size_t>(xd) * h + y] = (a - b) * kInvSqrt2;
    }
  }
}

// One level of the CDF 5/3 lifting along rows of length 2 * half <= 1024, one block per row.
__global__ void lift53Rows(float* __restrict__ img, int width, int half) {
  __shared__ float s[1024 + 32];                                               // quiet: W64-WARP-COUNT
  float* row = img + static_cast<size_t>(blockIdx.x) * width;
  for (int i = threadIdx.x; i < 2 * half; i += blockDim.x) s[PAD(i)] = row[i];  // quiet: W64-LANE-MATH
  __syncthreads();
  for (int k = threadIdx.x; k < half; k += blockDim.x) {                       // predict
    const int o = 2 * k + 1;
    const float r = o + 1 < 2 * half ? s[PAD(o + 1)] : s[PAD(o - 1)];          // quiet: W64-LANE-MATH
    s[PAD(o)] -= 0.5f * (s[PAD(o - 1)] + r);                                   // quiet: W64-LANE-MATH
  }
  __syncthreads();
  for (int k = threadIdx.x; k < half; k += blockDim.x) {                       // update
    const int e = 2 * k;
    const float l = e > 0 ? s[PAD(e - 1)] : s[PAD(e + 1)];
    s[PAD(e)] += 0.25f * (l + s[PAD(e + 1)]);                                  // quiet: W64-LANE-MATH
  }
  __syncthreads();
  for (int k = threadIdx.x; k < half; k += blockDim.x) {
    row[k] = s[PAD(2 * k)];
    row[half + k] = s[PAD(2 * k + 1)];
  }
}

// Plain transpose through a padded 32 x 32 tile, 32 x 8 threads.
__global__ void transposeTile(const float* __restrict__ in, float* __restrict__ out, int w, int h) {
  __shared__ float tile[32][33];                                               // quiet: W64-WARP-COUNT
  const int x = blockIdx.x * 32 + threadIdx.x;                                 // quiet: W64-LANE-MATH
  for (int j = threadIdx.y; j < 32; j += blockDim.y) {                         // quiet: W64-LANE-MATH
    const int y = blockIdx.y * 32 + j;
    if (x < w && y < h) tile[j][threadIdx.x] = in[static_cast<size_t>(y) * w + x];
  }
  __syncthreads();
  const int ox = blockIdx.y * 32 + threadIdx.x;
  for (int j = threadIdx.y; j < 32; j += blockDim.y) {
    const int oy = blockIdx.x * 32 + j;
    if (ox < h && oy < w) out[static_cast<size_t>(oy) * h + ox] = tile[threadIdx.x][j];
  }
}

// Significance bitmap of the detail coefficients: bit i of word i / 32.
__global__ void significance(const float* __restrict__ coef, unsigned* __restrict__ sig, float thr, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && fabsf(coef[i]) > thr) atomicOr(&sig[i >> 5], 1u << (i & 31));  // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
}

// Connected components by min-label propagation; changed vertices form the next frontier.
__global__ void propagate(const int* __restrict__ ptr, const int* __restrict__ adj, int* __restrict__ label,
                          const unsigned* __restrict__ frontier, unsigned* __restrict__ next, int n) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  if (!(frontier[v >> 5] & (1u << (v & 31)))) return;                          // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
  const int lv = label[v];
  for (int e = ptr[v]; e < ptr[v + 1]; ++e) {
    const int u = adj[e];
    if (atomicMin(&label[u], lv) > lv) atomicOr(&next[u / 32], 1u << (u % 32));
  }
}

// Size of the next frontier: one bitmap word per thread.
__global__ void frontierSize(const unsigned* __restrict__ next, int* __restrict__ count, int words) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w < words) atomicAdd(count, __popc(next[w]));                            // quiet: W64-BALLOT-NARROW
}

// Component labels binned by label % 32 (a cheap skew check), per block then global.
__global__ void labelBins(const int* __restrict__ label, int* __restrict__ bins, int n) {
  __shared__ int local[32];                                                    // quiet: W64-WARP-COUNT
  if (threadIdx.x < 32) local[threadIdx.x] = 0;                                // quiet: W64-LANE-MATH
  __syncthreads();
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += blockDim.x * gridDim.x)
    atomicAdd(&local[label[v] % 32], 1);                                       // quiet: W64-LANE-MATH
  __syncthreads();
  if (threadIdx.x < 32) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

// Rows of the CRC-32 zero-extension operators: thread t builds row t & 31 of operator t >> 5.
__global__ void crcShiftOps(const int* __restrict__ lenBytes, uint32_t* __restrict__ ops, int nOps) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int m = t >> 5, r = t & 31;                                            // quiet: W64-LANE-MATH
  if (m >= nOps) return;
  uint32_t s = 1u << r;                                                        // quiet: W64-BALLOT-NARROW
  for (int i = 0; i < lenBytes[m]; ++i) s = cTab[s & 0xffu] ^ (s >> 8);
  ops[m * 32 + r] = s;                                                         // quiet: W64-LANE-MATH
}

// crc(A || B) = op(|B|) * crc(A) ^ crc(B), one thread per pair of segments.
__global__ void crcCombine(const uint32_t* __restrict__ crcs, const uint32_t* __restrict__ ops,
                           const int* __restrict__ opOf, uint32_t* __restrict__ out, int pairs) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= pairs) return;
  const uint32_t a = crcs[2 * p], b = crcs[2 * p + 1];
  const uint32_t* op = ops + opOf[p] * 32;
  uint32_t s = 0;
  for (int r = 0; r < 32; ++r) if (a & (1u << r)) s ^= op[r];
  out[p] = s ^ b;
}

void waveletLevel(float* dImg, float* dTmp, unsigned* dSig, int w, int h, float thr) {
  dim3 block(32, 8);                                                           // quiet: W64-BLOCK-SIZE
  dim3 grid((w + 31) / 32, (h + 31) / 32);                                     // quiet: W64-BLOCK-SIZE
  dim3 gridT((h + 31) / 32, (w + 31) / 32);
  haarRowsTransposed<<<grid, block>>>(dImg, dTmp, w, h);
  haarRowsTransposed<<<gridT, block>>>(dTmp, dImg, h, w);
  const int words = (w * h + 31) / 32;                                         // quiet: W64-WARP-COUNT
  cudaMemset(dSig, 0, words * sizeof(unsigned));
  significance<<<(w * h + 255) / 256, 256>>>(dImg, dSig, thr, w * h);
}
