// Tuning round 13. Cause 1: lane strides and per-lane splits.
// Domains: CSR SpMV with a vector (warp) per row, GNN message passing (edge
// softmax over a node's in-edges, scatter-add of messages), flash-attention
// style decoding (one query row per warp, keys in tiles of 32 with a running
// max), per-segment stream compaction from a prefix sum over the lanes.
// The unit reads warpSize and takes __activemask() (csrVectorSpmvPorted), so
// it is not one of consistent 32-lane groups: the findings are warnings.
// Ambiguous calls (labelled from the check pages only, never run):
// - scatterAddMessages steps a lane-derived feature index in a while loop,
//   `f += 32`: the pages list `i += 32` from a lane as a `for` step and
//   `lane + 32`; the while form is read as the same stride (labelled expect).
// - flashDecodeRows steps its key tile by 32 (`kv0 += 32`) and reads `kv0 +
//   lane`: a tile stepped by 32 over the lanes, labelled at the `for`.
// - compactSegments' per-lane share `chunk = (len + 31) / 32` and `lane *
//   chunk` are written on one line, so the line of the finding is not in doubt.
// - compactSegmentsPorted numbers its lanes by warpSize: its contiguous share
//   by `(len + 31) / 32` is quiet (the pages: the upper half only gets empty
//   ranges), while a literal stride of 32 over such a lane is reported.
// - the host's `SPMV_THREADS / 32` rows per block is a warp count of a
//   block-size name on the host (W64-WARP-COUNT).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define SPMV_THREADS 256
constexpr int kHeadDim = 128;
constexpr int kRowsPerBlock = 8;
constexpr int kRegs = 4;  // head dimension held per lane: 128 over a 32-lane warp

// CSR SpMV, vector kernel: one warp per row, lanes stride the row's nonzeros.
__global__ void __launch_bounds__(SPMV_THREADS)
csrVectorSpmv(const int* __restrict__ rowPtr, const int* __restrict__ colIdx, const float* __restrict__ val,
              const float* __restrict__ x, float* __restrict__ y, int nRows) {
  const int lane = threadIdx.x & 31;                                                  // expect: W64-LANE-MATH
  const int row = blockIdx.x * (SPMV_THREADS / 32) + (threadIdx.x >> 5);              // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (row >= nRows) return;
  const int beg = rowPtr[row], end = rowPtr[row + 1];
  float sum = 0.f;
  for (int j = beg + lane; j < end; j += 32) sum += val[j] * __ldg(x + colIdx[j]);    // expect: W64-LANE-MATH
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);      // expect: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) y[row] = sum;
}

// The same kernel after a partial port: lane and row by warpSize, the stride
// left at 32 (lanes 32-63 start where lanes 0-31 step to).
__global__ void csrVectorSpmvPorted(const int* __restrict__ rowPtr, const int* __restrict__ colIdx,
                                    const float* __restrict__ val, const float* __restrict__ x,
                                    float* __restrict__ y, int nRows) {
  const int lane = threadIdx.x % warpSize;                                            // quiet: W64-LANE-MATH
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;                 // quiet: W64-LANE-MATH
  if (row >= nRows) return;
  float sum = 0.f;
  for (int j = rowPtr[row] + lane; j < rowPtr[row + 1]; j += 32)                      // expect: W64-LANE-MATH
    sum += val[j] * x[colIdx[j]];
  for (int o = warpSize / 2; o > 0; o >>= 1) sum += __shfl_down_sync(__activemask(), sum, o);   // quiet: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) y[row] = sum;
}

// GNN attention: softmax of the scores of each node's in-edges, one warp per
// node, the edges walked in tiles of 32.
__global__ void edgeSoftmax(const int* __restrict__ inPtr, const float* __restrict__ score,
                            float* __restrict__ alpha, int nNodes) {
  const int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  const int node = gtid / 32;                                                         // expect: W64-LANE-MATH
  const int lane = gtid - node * 32;                                                  // expect: W64-LANE-MATH
  if (node >= nNodes) return;
  const int beg = inPtr[node], end = inPtr[node + 1];
  float m = -INFINITY;
  for (int e0 = beg; e0 < end; e0 += 32) {                                            // expect: W64-LANE-MATH
    const int e = e0 + lane;
    if (e < end) m = fmaxf(m, score[e]);
  }
  for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));      // expect: W64-SHFL-OFFSET, W64-MASK32
  float s = 0.f;
  for (int e = beg + lane; e < end; e += 32) s += __expf(score[e] - m);               // expect: W64-LANE-MATH
  for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);               // expect: W64-SHFL-OFFSET, W64-MASK32
  const float inv = 1.f / s;
  for (int e = beg + lane; e < end; e += 32) alpha[e] = __expf(score[e] - m) * inv;   // expect: W64-LANE-MATH
}

// GNN message passing: one wavefront per edge (grid-stride over edges), the
// lanes add the weighted source features into the destination's row.
__global__ void scatterAddMessages(const int* __restrict__ src, const int* __restrict__ dst,
                                   const float* __restrict__ w, const __half* __restrict__ feat,
                                   float* __restrict__ agg, int nEdges, int F) {
  const int lane = threadIdx.x % warpSize;                                            // quiet: W64-LANE-MATH
  const int wid = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;                 // quiet: W64-LANE-MATH
  const int nw = gridDim.x * blockDim.x / warpSize;                                   // quiet: W64-WARP-COUNT
  for (int e = wid; e < nEdges; e += nw) {
    const int s = src[e], d = dst[e];
    const float we = w[e];
    int f = lane;
    while (f < F) {
      atomicAdd(&agg[static_cast<size_t>(d) * F + f], we * __half2float(feat[static_cast<size_t>(s) * F + f]));
      f += 32;                                                                        // expect: W64-LANE-MATH
    }
  }
}

// Flash-decoding: one warp per query row; each lane owns kRegs columns of the
// output (i * 32 + lane) and one key of each tile of 32 keys.
__global__ void __launch_bounds__(256)
flashDecodeRows(const __half* __restrict__ Q, const __half* __restrict__ K, const __half* __restrict__ V,
                float* __restrict__ O, int nRows, int seqLen, float scale) {
  __shared__ float qs[kRowsPerBlock][kHeadDim];
  const int lane = threadIdx.x & 31;                                                  // expect: W64-LANE-MATH
  const int wib = threadIdx.x >> 5;                                                   // expect: W64-LANE-MATH
  const int row = blockIdx.x * kRowsPerBlock + wib;
  if (row >= nRows) return;
  for (int i = lane; i < kHeadDim; i += 32) qs[wib][i] = __half2float(Q[static_cast<size_t>(row) * kHeadDim + i]) * scale;   // expect: W64-LANE-MATH
  __syncwarp();
  float m = -INFINITY, l = 0.f, acc[kRegs] = {0.f, 0.f, 0.f, 0.f};
  for (int kv0 = 0; kv0 < seqLen; kv0 += 32) {                                        // expect: W64-LANE-MATH
    const int key = kv0 + lane;
    float s = -INFINITY;
    if (key < seqLen) {
      s = 0.f;
      const __half* kr = K + static_cast<size_t>(key) * kHeadDim;
      for (int d = 0; d < kHeadDim; ++d) s = fmaf(qs[wib][d], __half2float(kr[d]), s);
    }
    float tmax = s;
    for (int o = 16; o > 0; o >>= 1) tmax = fmaxf(tmax, __shfl_xor_sync(0xffffffffu, tmax, o));   // expect: W64-SHFL-OFFSET, W64-MASK32
    const float mNew = fmaxf(m, tmax);
    const float p = key < seqLen ? __expf(s - mNew) : 0.f;
    float psum = p;
    for (int o = 16; o > 0; o >>= 1) psum += __shfl_xor_sync(0xffffffffu, psum, o);   // expect: W64-SHFL-OFFSET, W64-MASK32
    const float corr = __expf(m - mNew);
    l = l * corr + psum;
    for (int i = 0; i < kRegs; ++i) acc[i] *= corr;
    for (int j = 0; j < 32 && kv0 + j < seqLen; ++j) {                                // expect: W64-SHFL-OFFSET
      const float pj = __shfl_sync(0xffffffffu, p, j);                                // expect: W64-MASK32
      const __half* vr = V + static_cast<size_t>(kv0 + j) * kHeadDim;
      for (int i = 0; i < kRegs; ++i) acc[i] = fmaf(pj, __half2float(vr[i * 32 + lane]), acc[i]);   // expect: W64-LANE-MATH
    }
    m = mNew;
  }
  for (int i = 0; i < kRegs; ++i) O[static_cast<size_t>(row) * kHeadDim + i * 32 + lane] = acc[i] / l;   // expect: W64-LANE-MATH
}

// Stream compaction per segment: each lane scans a contiguous share of the
// segment, the lanes' counts are prefix-summed with shuffles.
__global__ void compactSegments(const int* __restrict__ segStart, const float* __restrict__ v, float thresh,
                                float* __restrict__ out, int* __restrict__ segCount, int nSeg) {
  const int lane = threadIdx.x % 32;                                                  // expect: W64-LANE-MATH
  const int seg = (blockIdx.x * blockDim.x + threadIdx.x) / 32;                       // expect: W64-LANE-MATH
  if (seg >= nSeg) return;
  const int beg = segStart[seg], len = segStart[seg + 1] - beg;
  const int chunk = (len + 31) / 32, lo = beg + min(len, lane * chunk), hi = beg + min(len, lane * chunk + chunk);   // expect: W64-LANE-MATH
  int cnt = 0;
  for (int i = lo; i < hi; ++i) cnt += v[i] > thresh;
  int incl = cnt;
  for (int d = 1; d < 32; d <<= 1) {                                                  // expect: W64-SHFL-OFFSET
    const int up = __shfl_up_sync(0xffffffffu, incl, d);                              // expect: W64-MASK32
    if (lane >= d) incl += up;
  }
  int pos = incl - cnt;
  for (int i = lo; i < hi; ++i)
    if (v[i] > thresh) out[beg + pos++] = v[i];
  if (lane == 31) segCount[seg] = incl;                                               // expect: W64-LANE-MATH
}

// The ported compaction: lanes by warpSize, the share still counted for 32
// lanes (lanes 32-63 get empty ranges, the result is right).
__global__ void compactSegmentsPorted(const int* __restrict__ segStart, const float* __restrict__ v, float thresh,
                                      int* __restrict__ segCount, int nSeg) {
  const int lane = threadIdx.x % warpSize;                                            // quiet: W64-LANE-MATH
  const int seg = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;                 // quiet: W64-LANE-MATH
  if (seg >= nSeg) return;
  const int beg = segStart[seg], len = segStart[seg + 1] - beg;
  const int chunk = (len + 31) / 32, lo = beg + min(len, lane * chunk), hi = beg + min(len, lane * chunk + chunk);   // quiet: W64-LANE-MATH
  int cnt = 0;
  for (int i = lo; i < hi; ++i) cnt += v[i] > thresh;
  for (int o = warpSize / 2; o > 0; o >>= 1) cnt += __shfl_xor_sync(__activemask(), cnt, o);   // quiet: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) segCount[seg] = cnt;
}

int main(int argc, char** argv) {
  const int nRows = argc > 1 ? atoi(argv[1]) : 1 << 16;
  const int nnz = nRows * 24, nNodes = nRows, nEdges = nnz, F = 64, seqLen = 2048;
  int *rowPtr, *colIdx, *src, *dst, *segCount;
  float *val, *x, *y, *score, *alpha, *w, *agg, *O, *cOut;
  __half *feat, *Q, *K, *V;
  cudaMalloc(&rowPtr, sizeof(int) * (nRows + 1));
  cudaMalloc(&colIdx, sizeof(int) * nnz);
  cudaMalloc(&val, sizeof(float) * nnz);
  cudaMalloc(&x, sizeof(float) * nRows);
  cudaMalloc(&y, sizeof(float) * nRows);
  cudaMalloc(&score, sizeof(float) * nEdges);
  cudaMalloc(&alpha, sizeof(float) * nEdges);
  cudaMalloc(&src, sizeof(int) * nEdges);
  cudaMalloc(&dst, sizeof(int) * nEdges);
  cudaMalloc(&w, sizeof(float) * nEdges);
  cudaMalloc(&feat, sizeof(__half) * nNodes * F);
  cudaMalloc(&agg, sizeof(float) * nNodes * F);
  cudaMalloc(&Q, sizeof(__half) * nRows * kHeadDim);
  cudaMalloc(&K, sizeof(__half) * seqLen * kHeadDim);
  cudaMalloc(&V, sizeof(__half) * seqLen * kHeadDim);
  cudaMalloc(&O, sizeof(float) * nRows * kHeadDim);
  cudaMalloc(&cOut, sizeof(float) * nnz);
  cudaMalloc(&segCount, sizeof(int) * nRows);

  const int rowsPerBlock = SPMV_THREADS / 32;                                         // expect: W64-WARP-COUNT
  const int spmvBlocks = (nRows + rowsPerBlock - 1) / rowsPerBlock;
  csrVectorSpmv<<<spmvBlocks, SPMV_THREADS>>>(rowPtr, colIdx, val, x, y, nRows);
  csrVectorSpmvPorted<<<spmvBlocks, SPMV_THREADS>>>(rowPtr, colIdx, val, x, y, nRows);
  edgeSoftmax<<<(nNodes + 7) / 8, 256>>>(rowPtr, score, alpha, nNodes);
  scatterAddMessages<<<1024, 256>>>(src, dst, w, feat, agg, nEdges, F);
  flashDecodeRows<<<(nRows + kRowsPerBlock - 1) / kRowsPerBlock, 256>>>(Q, K, V, O, nRows, seqLen, 0.088f);
  compactSegments<<<(nRows + 7) / 8, 256>>>(rowPtr, val, 0.5f, cOut, segCount, nRows);
  compactSegmentsPorted<<<(nRows + 3) / 4, 256>>>(rowPtr, val, 0.5f, segCount, nRows);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(err));
  cudaFree(rowPtr); cudaFree(colIdx); cudaFree(val); cudaFree(x); cudaFree(y); cudaFree(score);
  cudaFree(alpha); cudaFree(src); cudaFree(dst); cudaFree(w); cudaFree(feat); cudaFree(agg);
  cudaFree(Q); cudaFree(K); cudaFree(V); cudaFree(O); cudaFree(cOut); cudaFree(segCount);
  return 0;
}
