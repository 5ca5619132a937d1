// Held out, round 9. Cause 6: a project that carries its own AMD path.
// Domains: sparse triangular solve (sync-free, one warp per row), int8 weight
// and activation quantization (per-row and ggml-style Q8_0 blocks of 32).
// The SPX_* names are defined per platform under __HIP_PLATFORM_AMD__ (64 lanes
// and a 64-bit mask type in the AMD branch); the quantizer's QNT_WARP follows a
// project macro, QNT_USE_ROCM, that also guards the HIP include; rowMaxWave
// branches on __AMDGCN_WAVEFRONT_SIZE.
// Ambiguous calls (labelled from the check pages, never checked with the tool):
// - Everything in the CUDA (#else) branch of __HIP_PLATFORM_AMD__ is dropped by
//   the AMD compile: SPX_LANES, spx_mask_t, SPX_ALL, the %laneid PTX and
//   __popc are quiet, and so are their uses (lane, warp and row math by
//   SPX_LANES, the per-wavefront array, the ballot kept in spx_mask_t, masks).
// - findDiagonal and readyCount: a literal 32 next to a lane numbered by
//   SPX_LANES (64 in the port): the stride `j += 32` and the warp id `/ 32`
//   are reported (expect).
// - QNT_WARP = 32 sits in the #else of a project macro (QNT_USE_ROCM): the
//   port compiles it unless built with -DQNT_USE_ROCM, so the definition and
//   each use are labelled expect (first use: lane math). The quantizer's mask
//   is SPX_ALL (quiet).
// - rowMaxWave: the loop from 16 with a literal full mask lies in the #else of
//   `__AMDGCN_WAVEFRONT_SIZE == 64`, which the gfx9 device compile drops (quiet).
// - QK8 = 32 is the element count of a quantization block; `blk * QK8` in a
//   shuffling kernel is a data offset, not a warp's first thread, and the
//   host's `cols / QK8` counts scale blocks, not warps (quiet).
// - Host: `prop.warpSize != SPX_LANES` and a launch of SPX_LANES * 4 threads are
//   right as the port compiles them (quiet); `prop.warpSize == 32` choosing a
//   path, and the quantizer's rows per block counted with QNT_WARP, are not.
#if defined(__HIP_PLATFORM_AMD__)
#include <hip/hip_runtime.h>
#define SPX_LANES 64
typedef unsigned long long spx_mask_t;
#define SPX_ALL (~0ull)
__device__ __forceinline__ int spxLaneId() { return static_cast<int>(__lane_id()); }
__device__ __forceinline__ int spxCount(spx_mask_t m) { return __popcll(m); }
#else
#include <cuda_runtime.h>
#define SPX_LANES 32                                                              // quiet: W64-LANE-MATH
typedef unsigned spx_mask_t;                                                      // quiet: W64-BALLOT-NARROW
#define SPX_ALL 0xffffffffu                                                       // quiet: W64-MASK32
__device__ __forceinline__ int spxLaneId() { unsigned l; asm("mov.u32 %0, %%laneid;" : "=r"(l)); return static_cast<int>(l); }   // quiet: W64-INLINE-PTX
__device__ __forceinline__ int spxCount(spx_mask_t m) { return __popc(m); }        // quiet: W64-BALLOT-NARROW
#endif

#ifdef QNT_USE_ROCM
#include <hip/hip_runtime.h>
#define QNT_WARP 64
#else
#define QNT_WARP 32                                                               // expect: W64-LANE-MATH
#endif

#include <cstdint>
#include <cstdio>

#define QK8 32                                                                    // quiet: W64-LANE-MATH, W64-WARP-COUNT

// Diagonal positions, one warp per row: lanes search the row in 32-wide steps.
__global__ void findDiagonal(const int* __restrict__ rowPtr, const int* __restrict__ col, int n, int* __restrict__ diagPos) {
  const int lane = threadIdx.x % SPX_LANES;                                       // quiet: W64-LANE-MATH
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / SPX_LANES;            // quiet: W64-LANE-MATH
  if (row >= n) return;
  for (int j = rowPtr[row] + lane; j < rowPtr[row + 1]; j += 32)                  // expect: W64-LANE-MATH
    if (col[j] == row) diagPos[row] = j;
}

// Sync-free lower-triangular solve: one warp per row waits for the rows it
// depends on, multiplies, and the row's sum is taken by shuffles.
__global__ void sptrsvWarpRow(const int* __restrict__ rowPtr, const int* __restrict__ col, const float* __restrict__ val,
                              const int* __restrict__ diagPos, const float* __restrict__ b, int n,
                              volatile int* ready, volatile float* x) {
  const int lane = threadIdx.x % SPX_LANES;                                       // quiet: W64-LANE-MATH
  const int row = blockIdx.x * (blockDim.x / SPX_LANES) + threadIdx.x / SPX_LANES;   // quiet: W64-LANE-MATH, W64-WARP-COUNT
  if (row >= n) return;
  const int dp = diagPos[row];
  float acc = 0.f;
  for (int j = rowPtr[row] + lane; j < dp; j += SPX_LANES) {                      // quiet: W64-LANE-MATH
    const int c = col[j];
    while (ready[c] == 0) { }
    acc += val[j] * x[c];
  }
  for (int o = SPX_LANES / 2; o > 0; o >>= 1) acc += __shfl_down_sync(SPX_ALL, acc, o);   // quiet: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) { x[row] = (b[row] - acc) / val[dp]; __threadfence(); ready[row] = 1; }
}

// Scheduler statistics: how many rows of each warp's run are ready to solve.
__global__ void readyCount(const int* __restrict__ rowPtr, const int* __restrict__ col, const int* __restrict__ diagPos,
                           const volatile int* ready, int n, int* __restrict__ warpReady, int* __restrict__ blockReady) {
  __shared__ int perWarp[1024 / SPX_LANES];                                       // quiet: W64-WARP-COUNT
  const int lane = spxLaneId();
  const int warp = threadIdx.x / SPX_LANES;                                       // quiet: W64-LANE-MATH
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  bool ok = row < n;
  for (int j = ok ? rowPtr[row] : 0; ok && j < diagPos[row]; ++j) ok = ready[col[j]] != 0;
  const spx_mask_t m = __ballot_sync(SPX_ALL, ok);                                // quiet: W64-MASK32, W64-BALLOT-NARROW
  if (lane == 0) perWarp[warp] = spxCount(m);
  if (lane == 0) warpReady[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = spxCount(m);   // expect: W64-LANE-MATH
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < blockDim.x / SPX_LANES; ++w) s += perWarp[w];             // quiet: W64-WARP-COUNT
    blockReady[blockIdx.x] = s;
  }
}

// Symmetric per-row int8 quantization of weights, one warp per row.
__global__ void quantizeRowsInt8(const float* __restrict__ w, int rows, int cols, int8_t* __restrict__ q, float* __restrict__ scale) {
  const int lane = threadIdx.x % QNT_WARP;                                        // expect: W64-LANE-MATH
  const int row = blockIdx.x * (blockDim.x / QNT_WARP) + threadIdx.x / QNT_WARP;  // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (row >= rows) return;
  const float* wr = w + static_cast<size_t>(row) * cols;
  float amax = 0.f;
  for (int c = lane; c < cols; c += QNT_WARP) amax = fmaxf(amax, fabsf(wr[c]));   // expect: W64-LANE-MATH
  for (int o = QNT_WARP / 2; o > 0; o >>= 1) amax = fmaxf(amax, __shfl_xor_sync(SPX_ALL, amax, o));   // expect: W64-SHFL-OFFSET // quiet: W64-MASK32
  const float s = amax > 0.f ? amax / 127.f : 1.f;
  for (int c = lane; c < cols; c += QNT_WARP)                                     // expect: W64-LANE-MATH
    q[static_cast<size_t>(row) * cols + c] = static_cast<int8_t>(__float2int_rn(fminf(fmaxf(wr[c] / s, -127.f), 127.f)));
  if (lane == 0) scale[row] = s;
}

__device__ __forceinline__ float rowMaxWave(float v) {
#if defined(__AMDGCN_WAVEFRONT_SIZE) && __AMDGCN_WAVEFRONT_SIZE == 64
  for (int o = 32; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor(v, o));
#else
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));   // quiet: W64-SHFL-OFFSET, W64-MASK32
#endif
  return v;
}

// Q8_0 activation quantization: each lane quantizes whole blocks of QK8
// values of its warp's row; the row's absolute maximum is kept for calibration.
__global__ void quantizeQ8Blocks(const float* __restrict__ a, int rows, int cols, int8_t* __restrict__ q,
                                 float* __restrict__ d, float* __restrict__ rowAmax) {
  const int lane = threadIdx.x % warpSize;                                        // quiet: W64-LANE-MATH
  const int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= rows) return;
  const int nblk = cols / QK8;
  float rmax = 0.f;
  for (int blk = lane; blk < nblk; blk += warpSize) {
    const float* src = a + static_cast<size_t>(row) * cols + blk * QK8;           // quiet: W64-LANE-MATH
    float amax = 0.f;
    for (int i = 0; i < QK8; ++i) amax = fmaxf(amax, fabsf(src[i]));
    const float dd = amax / 127.f, id = dd > 0.f ? 1.f / dd : 0.f;
    d[static_cast<size_t>(row) * nblk + blk] = dd;
    int8_t* dst = q + static_cast<size_t>(row) * cols + blk * QK8;                // quiet: W64-LANE-MATH
    for (int i = 0; i < QK8; ++i) dst[i] = static_cast<int8_t>(__float2int_rn(src[i] * id));
    rmax = fmaxf(rmax, amax);
  }
  rmax = rowMaxWave(rmax);
  if (lane == 0) rowAmax[row] = rmax;
}

int main() {
  const int n = 1 << 14, rows = 4096, cols = 4096;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  if (prop.warpSize != SPX_LANES) fprintf(stderr, "built for %d-lane warps, device has %d\n", SPX_LANES, prop.warpSize);   // quiet: W64-HOST-WARP-SIZE
  const bool warpPerRow = prop.warpSize == 32;                                    // expect: W64-HOST-WARP-SIZE
  int *rowPtr, *col, *diagPos, *ready, *warpReady, *blockReady;
  float *val, *b, *x, *w, *scale, *a, *d, *rowAmax;
  int8_t* q;
  cudaMalloc(&rowPtr, sizeof(int) * (n + 1)); cudaMalloc(&col, sizeof(int) * 8 * n); cudaMalloc(&diagPos, sizeof(int) * n);
  cudaMalloc(&ready, sizeof(int) * n); cudaMalloc(&warpReady, sizeof(int) * n); cudaMalloc(&blockReady, sizeof(int) * n);
  cudaMalloc(&val, sizeof(float) * 8 * n); cudaMalloc(&b, sizeof(float) * n); cudaMalloc(&x, sizeof(float) * n);
  cudaMalloc(&w, sizeof(float) * rows * cols); cudaMalloc(&scale, sizeof(float) * rows); cudaMalloc(&q, rows * cols);
  cudaMalloc(&a, sizeof(float) * rows * cols); cudaMalloc(&rowAmax, sizeof(float) * rows);
  cudaMalloc(&d, sizeof(float) * rows * (cols / QK8));                           // quiet: W64-WARP-COUNT

  const int threads = SPX_LANES * 4;                                              // quiet: W64-BLOCK-SIZE
  const int rowsPerBlock = threads / SPX_LANES;                                   // quiet: W64-WARP-COUNT
  const int solveBlocks = (n + rowsPerBlock - 1) / rowsPerBlock;
  findDiagonal<<<solveBlocks, threads>>>(rowPtr, col, n, diagPos);                // quiet: W64-BLOCK-SIZE
  cudaMemset(ready, 0, sizeof(int) * n);
  if (warpPerRow) sptrsvWarpRow<<<solveBlocks, threads>>>(rowPtr, col, val, diagPos, b, n, ready, x);
  readyCount<<<(n + 255) / 256, 256>>>(rowPtr, col, diagPos, ready, n, warpReady, blockReady);

  const int qThreads = 256;
  const int qRowsPerBlock = qThreads / QNT_WARP;                                  // expect: W64-WARP-COUNT
  quantizeRowsInt8<<<(rows + qRowsPerBlock - 1) / qRowsPerBlock, qThreads>>>(w, rows, cols, q, scale);
  quantizeQ8Blocks<<<rows / 8, 8 * prop.warpSize>>>(a, rows, cols, q, d, rowAmax);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
