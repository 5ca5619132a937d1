// Held out, round 7. Cause 1: lane strides and per-lane splits.
// Ambiguous calls (labelled as a demanding GPU engineer would expect):
// - The unit reads the whole warp (__all_sync, __activemask, warpSize), so it
//   is no consistent 32-lane grouping: its lane math and strides are
//   warnings, labelled expect.
// - csrVectorSpmv: `re - rs <= 32` compares a row length read from memory
//   with 32; no thread index takes part (quiet).
// - softmaxRows numbers its lanes by warpSize (right by itself, quiet) and
//   steps over the row by 32 around that lane: each stride is labelled.
//   The `kCols / 32` bound and the `k * 32 + lane` index are written on one
//   line, so the label does not depend on which of the two gets the finding.
// - sliceMax: a lane's contiguous share `lane * chunk` with
//   `chunk = (len + 31) / 32` over a lane numbered by warpSize is quiet (the
//   check pages: such a share counts only for lanes by 32; the upper half of
//   a wavefront just gets empty ranges). Its final 32-lane tree runs inside
//   `if (threadIdx.x < 32)` after folding 64 values (quiet by the SHFL page).
// - attnLogits: the unrolled 16-8-4-2-1 butterfly is labelled at its 16 step.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <math_constants.h>

// CSR SpMV, "vector" kernel: one warp per row.
__global__ void csrVectorSpmv(const int* __restrict__ rowPtr, const int* __restrict__ colIdx,
                              const double* __restrict__ val, const double* __restrict__ x,
                              double* __restrict__ y, int nRows) {
  const int lane = threadIdx.x & 31;                                   // expect: W64-LANE-MATH
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;        // expect: W64-LANE-MATH
  const bool live = row < nRows;
  const int rs = live ? rowPtr[row] : 0;
  const int re = live ? rowPtr[row + 1] : 0;
  double acc = 0.0;
  if (__all_sync(__activemask(), re - rs <= 32)) {                     // quiet: W64-LANE-MATH
    if (rs + lane < re) acc = val[rs + lane] * __ldg(&x[colIdx[rs + lane]]);
  } else {
    for (int jj = rs + lane; jj < re; jj += 32)                        // expect: W64-LANE-MATH
      acc += val[jj] * __ldg(&x[colIdx[jj]]);
  }
  for (int off = 16; off > 0; off >>= 1)                               // expect: W64-SHFL-OFFSET
    acc += __shfl_down_sync(__activemask(), acc, off);
  if (lane == 0 && live) y[row] = acc;
}

// Row softmax with a compile-time row length, one warp per row.
template <int kCols>
__global__ void softmaxRows(const float* __restrict__ in, float* __restrict__ out, int rows) {
  const int lane = threadIdx.x % warpSize;                             // quiet: W64-LANE-MATH
  const int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= rows) return;
  const float* src = in + static_cast<size_t>(row) * kCols;
  float mx = -CUDART_INF_F;
  for (int c = lane; c < kCols; c += 32)                               // expect: W64-LANE-MATH
    mx = fmaxf(mx, src[c]);
  for (int o = warpSize / 2; o > 0; o >>= 1)                           // quiet: W64-SHFL-OFFSET
    mx = fmaxf(mx, __shfl_xor_sync(__activemask(), mx, o));
  float sum = 0.f;
#pragma unroll 4
  for (int k = 0; k < kCols / 32; ++k) sum += __expf(src[k * 32 + lane] - mx);   // expect: W64-LANE-MATH
  for (int o = warpSize / 2; o > 0; o >>= 1)
    sum += __shfl_xor_sync(__activemask(), sum, o);
  const float inv = 1.f / sum;
  for (int c = lane; c < kCols; c += warpSize)
    out[static_cast<size_t>(row) * kCols + c] = __expf(src[c] - mx) * inv;
}
template __global__ void softmaxRows<1024>(const float* __restrict__, float* __restrict__, int);

// Ragged rows (offsets in off[]): a wavefront per row, each lane a contiguous
// slice; then the block (64 threads) folds its maxima in shared memory.
__global__ void sliceMax(const float* __restrict__ v, const int* __restrict__ off,
                         float* __restrict__ blockMax, int nRows) {
  __shared__ float part[64];
  const int lane = threadIdx.x % warpSize;
  const int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  float m = -CUDART_INF_F;
  if (row < nRows) {
    const int b = off[row], len = off[row + 1] - b;
    const int chunk = (len + 31) / 32;                                 // quiet: W64-LANE-MATH
    for (int i = lane * chunk; i < min(len, (lane + 1) * chunk); ++i)  // quiet: W64-LANE-MATH
      m = fmaxf(m, v[b + i]);
  }
  part[threadIdx.x] = m;
  __syncthreads();
  if (threadIdx.x < 32) {
    float t = fmaxf(part[threadIdx.x], part[threadIdx.x + 32]);        // quiet: W64-LANE-MATH
    for (int o = 16; o > 0; o >>= 1)                                   // quiet: W64-SHFL-OFFSET
      t = fmaxf(t, __shfl_down_sync(__activemask(), t, o));
    if (threadIdx.x == 0) blockMax[blockIdx.x] = t;
  }
}

// Attention logits for head dimension 64: one warp per key, two values per
// lane (at lane and lane + 32).
__global__ void attnLogits(const __half* __restrict__ q, const __half* __restrict__ keys,
                           float* __restrict__ logits, int nKeys, float scale) {
  const int lane = threadIdx.x & 31;                                   // expect: W64-LANE-MATH
  const int warpsHere = blockDim.x >> 5;                               // expect: W64-WARP-COUNT
  const int key = blockIdx.x * warpsHere + (threadIdx.x >> 5);         // expect: W64-LANE-MATH
  if (key >= nKeys) return;
  const __half* kr = keys + static_cast<size_t>(key) * 64;
  float a = __half2float(q[lane]) * __half2float(kr[lane]);
  a += __half2float(q[lane + 32]) * __half2float(kr[lane + 32]);       // expect: W64-LANE-MATH
  a += __shfl_xor_sync(__activemask(), a, 16);                         // expect: W64-SHFL-OFFSET
  a += __shfl_xor_sync(__activemask(), a, 8);
  a += __shfl_xor_sync(__activemask(), a, 4);
  a += __shfl_xor_sync(__activemask(), a, 2);
  a += __shfl_xor_sync(__activemask(), a, 1);
  if (lane == 0) logits[key] = a * scale;
}

void launchSpmv(const int* rp, const int* ci, const double* v, const double* x, double* y,
                int nRows, cudaStream_t s) {
  const int rowsPerBlock = 8;
  const int blocks = (nRows + rowsPerBlock - 1) / rowsPerBlock;
  csrVectorSpmv<<<blocks, 256, 0, s>>>(rp, ci, v, x, y, nRows);
}
