// Tuning round 13. Cause 2: recognition by value, not by name or syntax.
// Domains: quantile sketches (splitter ranks of a sample, a suffix-min scan),
// Sinkhorn iterations for entropic optimal transport (row and column scaling,
// a squared-Euclidean cost tile), flash-attention style online softmax
// statistics with a running max over key tiles, in float and __half.
// The unit takes a ballot (sketchRanks), so it is not one of 32-lane groups.
// Ambiguous calls (labelled from the check pages only, never run):
// - kSketchLanes is an enumerator of a name that says lane; its first use is
//   lane math, so its definition is labelled W64-LANE-MATH, and every use at
//   its own line with the id the check gives there (a related location).
// - SinkhornWide::kTeam (32) and SinkhornNarrow::kTeam (16) reach
//   sinkhornRowScale through its template parameter: the uses are labelled for
//   the wide instantiation, the wide member's definition W64-LANE-MATH (first
//   use `threadIdx.x % C::kTeam`), the narrow one quiet.
// - strideDot's default `int span = 32` is labelled at the signature line (a
//   default is reported where it is written); its first use is a lane stride,
//   so the id is W64-LANE-MATH whichever reading holds.
// - the lambda teamMin is always called with 32: reported where its width is
//   used (the loop), the calls quiet.
// - groupMaxW<LANES> passes its width; instantiated at 8 and 32. The width 32
//   is labelled at the shuffle (the pages: "reported at the call"), not at
//   the `groupMaxW<32>` instantiation.
// - `32 > lane + d` and `31 == lane` are `lane + d < 32` and `lane == 31`
//   with the operands swapped: labelled expect.
// - `int off = 16; while (off > 0) {...}` is written on one line.
// - kTile (32) is read only in sqEuclidCost, which does not shuffle: a tile,
//   quiet.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdlib>

enum SketchShape : int { kSketchLanes = 32, kSketchSplitters = 15 };                   // expect: W64-LANE-MATH
constexpr unsigned kAllLanes = 0xffffffffu;                                             // expect: W64-MASK32
constexpr int kTile = 32;                                                               // quiet: W64-LANE-MATH

struct SinkhornWide {
  static constexpr int kThreads = 256;
  static constexpr int kTeam = 32;                                                      // expect: W64-LANE-MATH
};
struct SinkhornNarrow {
  static constexpr int kThreads = 128;
  static constexpr int kTeam = 16;                                                      // quiet: W64-LANE-MATH
};

// Quantile sketch: each team of kSketchLanes threads walks a stripe of the
// sample and counts, per splitter, the values above it.
__global__ void sketchRanks(const float* __restrict__ x, int n, const float* __restrict__ splitters,
                            unsigned long long* __restrict__ rankAbove, float* __restrict__ stripeMin) {
  const int lane = threadIdx.x % kSketchLanes;                                          // expect: W64-LANE-MATH
  const int team = (blockIdx.x * blockDim.x + threadIdx.x) / kSketchLanes;              // expect: W64-LANE-MATH
  auto teamMin = [](float v, int w) {
    for (int o = w / 2; o > 0; o >>= 1) v = fminf(v, __shfl_xor_sync(kAllLanes, v, o)); // expect: W64-SHFL-OFFSET, W64-MASK32
    return v;
  };
  const int i = team * kSketchLanes + lane;                                             // expect: W64-LANE-MATH
  const float xi = i < n ? x[i] : INFINITY;
  for (int s = 0; s < kSketchSplitters; ++s) {
    const unsigned long long above = __ballot_sync(kAllLanes, i < n && xi > splitters[s]);   // expect: W64-MASK32 // quiet: W64-BALLOT-NARROW
    if (lane == 0) atomicAdd(&rankAbove[s], static_cast<unsigned long long>(__popcll(above)));   // quiet: W64-BALLOT-NARROW
  }
  float runMin = xi;
  for (int d = 1, span = kSketchLanes; d < span; d <<= 1) {                             // expect: W64-SHFL-OFFSET
    const float y = __shfl_down_sync(kAllLanes, runMin, d);                              // expect: W64-MASK32
    if (32 > lane + d) runMin = fminf(runMin, y);                                        // expect: W64-LANE-MATH
  }
  const float mn = teamMin(runMin, 32);                                                  // quiet: W64-SHFL-OFFSET
  int cnt = xi < mn + 1e-3f;
  int off = 16; while (off > 0) { cnt += __shfl_xor_sync(kAllLanes, cnt, off); off >>= 1; }   // expect: W64-SHFL-OFFSET, W64-MASK32
  const float lo = teamMin(cnt > 0 ? mn : xi, 32);                                       // quiet: W64-SHFL-OFFSET
  if (lane == 0) stripeMin[team] = lo;
}

// Sinkhorn, u = a ./ (K v): one team of C::kTeam threads per row.
template <class C>
__global__ void __launch_bounds__(C::kThreads)
sinkhornRowScale(const float* __restrict__ K, const float* __restrict__ v, const float* __restrict__ a,
                 float* __restrict__ u, int n, int m) {
  const int lane = threadIdx.x % C::kTeam;                                               // expect: W64-LANE-MATH
  const int row = blockIdx.x * (C::kThreads / C::kTeam) + threadIdx.x / C::kTeam;       // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (row >= n) return;
  float s = 0.f;
  for (int j = lane; j < m; j += C::kTeam) s = fmaf(K[static_cast<size_t>(row) * m + j], v[j], s);   // expect: W64-LANE-MATH
  for (int o = C::kTeam >> 1; o > 0; o >>= 1) s += __shfl_xor_sync(kAllLanes, s, o);    // expect: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) u[row] = a[row] / fmaxf(s, 1e-30f);
}

// Strided dot product of a team; every call leaves the span at its default.
__device__ float strideDot(const float* __restrict__ p, const float* __restrict__ q, int n, int lane,
                           int span = 32) {                                              // expect: W64-LANE-MATH
  float s = 0.f;
  for (int i = lane; i < n; i += span) s = fmaf(p[i], q[i], s);                          // expect: W64-LANE-MATH
  for (int o = span >> 1; o > 0; o >>= 1) s += __shfl_down_sync(kAllLanes, s, o);        // expect: W64-SHFL-OFFSET, W64-MASK32
  return __shfl_sync(kAllLanes, s, 0);                                                   // expect: W64-MASK32
}

// Sinkhorn, v = b ./ (K^T u), K^T stored row-major.
__global__ void sinkhornColScale(const float* __restrict__ Kt, const float* __restrict__ u, const float* __restrict__ b,
                                 float* __restrict__ v, int n, int m) {
  const int lane = threadIdx.x & 31;                                                     // expect: W64-LANE-MATH
  const int col = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;                          // expect: W64-LANE-MATH
  if (col >= m) return;
  const float kv = strideDot(Kt + static_cast<size_t>(col) * n, u, n, lane);
  if (lane == 0) v[col] = b[col] / fmaxf(kv, 1e-30f);
}

// Sinkhorn cost: C_ij = |x_i - y_j|^2 over 32 x 32 tiles, 256 threads.
__global__ void sqEuclidCost(const float* __restrict__ X, const float* __restrict__ Y, int n, int m, int d,
                             float* __restrict__ C) {
  const int tr = threadIdx.x / kTile, tc = threadIdx.x % kTile;                          // quiet: W64-LANE-MATH
  const int i0 = blockIdx.y * kTile, j = blockIdx.x * kTile + tc;
  for (int r = tr; r < kTile; r += 8) {                                                  // quiet: W64-LANE-MATH
    const int i = i0 + r;
    if (i >= n || j >= m) continue;
    float acc = 0.f;
    for (int k = 0; k < d; ++k) { const float t = X[i * d + k] - Y[j * d + k]; acc = fmaf(t, t, acc); }
    C[static_cast<size_t>(i) * m + j] = acc;
  }
}

template <int LANES>
__device__ __forceinline__ float groupMaxW(float v) {
  for (int o = LANES / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(kAllLanes, v, o, LANES));   // expect: W64-SHFL-OFFSET, W64-MASK32
  return v;
}

// Online softmax statistics (running max and rescaled sum) over key tiles;
// rows of T (float or __half), one warp per row.
template <typename T>
__global__ void onlineSoftmaxStats(const T* __restrict__ scores, int rows, int cols, float* __restrict__ rowMax,
                                   float* __restrict__ rowSum) {
  const int lane = threadIdx.x & 31;                                                     // expect: W64-LANE-MATH
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;                     // expect: W64-WARP-COUNT, W64-LANE-MATH
  if (row >= rows) return;
  const T* r = scores + static_cast<size_t>(row) * cols;
  float m = -INFINITY, l = 0.f;
  for (int c0 = 0; c0 < cols; c0 += 32) {                                                // expect: W64-LANE-MATH
    const int c = c0 + lane;
    const float s = c < cols ? static_cast<float>(r[c]) : -INFINITY;
    const float mNew = fmaxf(m, groupMaxW<32>(s));
    float p = c < cols ? __expf(s - mNew) : 0.f;
    for (int o = 16; o > 0; o >>= 1) p += __shfl_xor_sync(kAllLanes, p, o);             // expect: W64-SHFL-OFFSET, W64-MASK32
    l = l * __expf(m - mNew) + p;
    m = mNew;
  }
  if (31 == lane) { rowMax[row] = m; rowSum[row] = l; }                                 // expect: W64-LANE-MATH
}

// Row totals of a score matrix in its own precision (Sinkhorn marginal check);
// T's operator+ comes from cuda_fp16.h for __half.
template <typename T>
__global__ void rowTotals(const T* __restrict__ a, int rows, int cols, T* __restrict__ out) {
  const int lane = threadIdx.x & 31;                                                     // expect: W64-LANE-MATH
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;                          // expect: W64-LANE-MATH
  if (row >= rows) return;
  T acc = static_cast<T>(0.f);
  for (int c = lane; c < cols; c += 32) acc = acc + a[static_cast<size_t>(row) * cols + c];   // expect: W64-LANE-MATH
  for (int o = 16; o > 0; o >>= 1) acc = acc + __shfl_xor_sync(kAllLanes, acc, o);     // expect: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) out[row] = acc;
}

// Eight-lane groups: the per-head maxima of a narrow multi-query layout.
__global__ void headMax8(const float* __restrict__ s, int n, float* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = groupMaxW<8>(i < n ? s[i] : -INFINITY);
  if ((threadIdx.x & 7) == 0 && i < n) out[i >> 3] = v;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 4096, m = 4096, d = 16, iters = 20, sample = 1 << 20;
  float *K, *Kt, *u, *v, *a, *b, *X, *Y, *C, *x, *spl, *smin, *rmax, *rsum, *tot, *hm;
  __half *Kh, *toth;
  unsigned long long* ranks;
  cudaMalloc(&K, sizeof(float) * n * m);
  cudaMalloc(&Kt, sizeof(float) * n * m);
  cudaMalloc(&Kh, sizeof(__half) * n * m);
  cudaMalloc(&u, sizeof(float) * n);
  cudaMalloc(&a, sizeof(float) * n);
  cudaMalloc(&v, sizeof(float) * m);
  cudaMalloc(&b, sizeof(float) * m);
  cudaMalloc(&X, sizeof(float) * n * d);
  cudaMalloc(&Y, sizeof(float) * m * d);
  cudaMalloc(&C, sizeof(float) * n * m);
  cudaMalloc(&x, sizeof(float) * sample);
  cudaMalloc(&spl, sizeof(float) * kSketchSplitters);
  cudaMalloc(&ranks, sizeof(unsigned long long) * kSketchSplitters);
  cudaMalloc(&smin, sizeof(float) * sample);
  cudaMalloc(&rmax, sizeof(float) * n);
  cudaMalloc(&rsum, sizeof(float) * n);
  cudaMalloc(&tot, sizeof(float) * n);
  cudaMalloc(&toth, sizeof(__half) * n);
  cudaMalloc(&hm, sizeof(float) * n);

  sqEuclidCost<<<dim3((m + kTile - 1) / kTile, (n + kTile - 1) / kTile), 256>>>(X, Y, n, m, d, C);   // quiet: W64-BLOCK-SIZE
  for (int it = 0; it < iters; ++it) {
    sinkhornRowScale<SinkhornWide><<<(n + 7) / 8, SinkhornWide::kThreads>>>(K, v, a, u, n, m);
    sinkhornColScale<<<(m + 7) / 8, 256>>>(Kt, u, b, v, n, m);
  }
  sinkhornRowScale<SinkhornNarrow><<<(n + 7) / 8, SinkhornNarrow::kThreads>>>(K, v, a, u, n, m);
  sketchRanks<<<sample / 256, 256>>>(x, sample, spl, ranks, smin);
  onlineSoftmaxStats<float><<<(n + 7) / 8, 256>>>(C, n, m, rmax, rsum);
  onlineSoftmaxStats<__half><<<(n + 7) / 8, 256>>>(Kh, n, m, rmax, rsum);
  rowTotals<float><<<(n + 7) / 8, 256>>>(K, n, m, tot);
  rowTotals<__half><<<(n + 7) / 8, 256>>>(Kh, n, m, toth);
  headMax8<<<(n + 255) / 256, 256>>>(rmax, n, hm);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("sinkhorn: %s\n", cudaGetErrorString(err));
  cudaFree(K); cudaFree(Kt); cudaFree(Kh); cudaFree(u); cudaFree(a); cudaFree(v); cudaFree(b);
  cudaFree(X); cudaFree(Y); cudaFree(C); cudaFree(x); cudaFree(spl); cudaFree(ranks); cudaFree(smin);
  cudaFree(rmax); cudaFree(rsum); cudaFree(tot); cudaFree(toth); cudaFree(hm);
  return 0;
}
