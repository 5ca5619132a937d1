// Held out, round 8. Cause 2: recognition by value, not by name or syntax.
// Ambiguous calls (labelled as a demanding GPU engineer would expect):
// - kEvery is a full mask spelled `~0u` under a name without "mask": reported
//   once at its definition (expect), its uses unlabelled.
// - SoftmaxShape::kTeam is read through a template parameter of an explicitly
//   instantiated kernel; its first use is lane math, so it is labelled
//   W64-LANE-MATH at the member's definition whichever rule (definition scan
//   or first use moved to the definition) puts it there. Its uses (lane, row,
//   strides, loop starts) are folded into it and left unlabelled.
// - kScanSpan is an enumerator of value 32: first used as `& (kScanSpan - 1)`
//   (a lane), then as a scan bound, a slot array and a warp count; labelled
//   once at the enumerator, as LANE-MATH for the same reason.
// - bandMax keeps `span` at its default 32 in every call: the loop start
//   `span >> 1` is 16 (expect). Signature and loop share one line so the
//   label holds whether the finding lands at the default or at the loop.
// - rowL2Norm's lambda is called twice with 16: its loop start (expect).
// - warpSuffixSums numbers lanes by warpSize and scans to warpSize (quiet),
//   but drops neighbours with `lane + d > 31` (expect: a 32-lane last lane).
// - kBins (32) only sizes a histogram in a kernel with no shuffle, and kUnroll
//   (16) is a per-lane item count stepped by warpSize: quiet both.
// - gatherQuads shuffles within groups of kQuad = 4 with that width: a
//   sub-group of its own (quiet loop).
// Convention pass (round 8): labels were added at every use of the labelled
// named constants, with the id the check gives at that use (lane and warp
// math, lane strides, warp counts, per-warp slot arrays, scan bounds and
// shuffle loop starts), since each use is folded into the definition's
// finding as a related location and the scorer counts it at its own line;
// and W64-MASK32 at every call that passes the full mask constant to a
// *_sync intrinsic, including calls on lines with other labels. This
// supersedes the "uses unlabelled" remarks above. Reading taken where the
// docs are ambiguous: "the first use is moved to the definition" is read as
// that use also being listed as a related location (the Definition sites
// rule says every use becomes one), so the first use is labelled like the
// others. A line that carries both a finding and a hard negative has two
// trailing label comments (`// expect: ... // quiet: ...`). Uses of the
// quiet constants stay unlabelled (no finding, nothing folded).
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdint>

static constexpr unsigned kEvery = ~0u;                                  // expect: W64-MASK32

// ---------------------------------------------------------------- softmax
struct SoftmaxShape {
  static constexpr int kThreads = 256;
  static constexpr int kTeam = 32;                                       // expect: W64-LANE-MATH
};

template <class Shape>
__global__ void teamSoftmax(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
  const int lane = threadIdx.x % Shape::kTeam;                             // expect: W64-LANE-MATH
  const int row = blockIdx.x * (Shape::kThreads / Shape::kTeam) + threadIdx.x / Shape::kTeam;   // expect: W64-LANE-MATH, W64-WARP-COUNT
  if (row >= rows) return;
  const float* xr = x + static_cast<size_t>(row) * cols;
  float* yr = y + static_cast<size_t>(row) * cols;
  float m = -FLT_MAX;
  for (int c = lane; c < cols; c += Shape::kTeam) m = fmaxf(m, xr[c]);     // expect: W64-LANE-MATH
  for (int o = Shape::kTeam / 2; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(kEvery, m, o));   // expect: W64-SHFL-OFFSET, W64-MASK32
  float s = 0.f;
  for (int c = lane; c < cols; c += Shape::kTeam) s += __expf(xr[c] - m);   // expect: W64-LANE-MATH
  for (int o = Shape::kTeam / 2; o > 0; o >>= 1) s += __shfl_xor_sync(kEvery, s, o);   // expect: W64-SHFL-OFFSET, W64-MASK32
  const float inv = 1.f / s;
  for (int c = lane; c < cols; c += Shape::kTeam) yr[c] = __expf(xr[c] - m) * inv;   // expect: W64-LANE-MATH
}

template __global__ void teamSoftmax<SoftmaxShape>(const float*, float*, int, int);

// ------------------------------------------------------------ block scan
enum ScanShape : int {
  kScanSpan = 32,                                                        // expect: W64-LANE-MATH
  kScanItems = 4,
};

// Exclusive scan of kScanItems ints per thread over the block.
__global__ void blockScanItems(const int* __restrict__ in, int* __restrict__ out, int n) {
  const int lane = threadIdx.x & (kScanSpan - 1);                          // expect: W64-LANE-MATH
  const int span = threadIdx.x / kScanSpan;                                // expect: W64-LANE-MATH
  __shared__ int spanTotals[kScanSpan];                                    // expect: W64-WARP-COUNT
  const int base = (blockIdx.x * blockDim.x + threadIdx.x) * kScanItems;
  int items[kScanItems];
  int local = 0;
#pragma unroll
  for (int k = 0; k < kScanItems; ++k) {
    items[k] = base + k < n ? in[base + k] : 0;
    local += items[k];
  }
  int incl = local;
  for (int d = 1; d < kScanSpan; d <<= 1) {                                // expect: W64-SHFL-OFFSET
    const int t = __shfl_up_sync(kEvery, incl, d);                         // expect: W64-MASK32
    if (lane >= d) incl += t;
  }
  if (lane == kScanSpan - 1) spanTotals[span] = incl;                      // expect: W64-LANE-MATH
  __syncthreads();
  if (span == 0) {
    int t = lane < static_cast<int>(blockDim.x / kScanSpan) ? spanTotals[lane] : 0;   // expect: W64-WARP-COUNT
    for (int d = 1; d < kScanSpan; d <<= 1) {                              // expect: W64-SHFL-OFFSET
      const int u = __shfl_up_sync(kEvery, t, d);                          // expect: W64-MASK32
      if (lane >= d) t += u;
    }
    spanTotals[lane] = t;
  }
  __syncthreads();
  int run = incl - local + (span > 0 ? spanTotals[span - 1] : 0);
#pragma unroll
  for (int k = 0; k < kScanItems; ++k) {
    if (base + k < n) out[base + k] = run;
    run += items[k];
  }
}

// ------------------------------------------------------------- row top-1
constexpr int kUnroll = 16;                                              // quiet: W64-LANE-MATH

// Max over a band of lanes; every caller keeps the default span.
__device__ __forceinline__ float bandMax(float v, int span = 32) { for (int o = span >> 1; o; o >>= 1) v = fmaxf(v, __shfl_xor_sync(kEvery, v, o)); return v; }   // expect: W64-SHFL-OFFSET, W64-MASK32

__global__ void rowMaxUnrolled(const float* __restrict__ x, float* __restrict__ rowMax, int rows, int cols) {
  const int lane = threadIdx.x % warpSize;
  const int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= rows) return;
  const float* xr = x + static_cast<size_t>(row) * cols;
  float v = -FLT_MAX;
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) {
    const int c = lane + u * warpSize;
    if (c < cols) v = fmaxf(v, xr[c]);
  }
  v = bandMax(v);
  if (lane == 0) rowMax[row] = v;
}

// ------------------------------------------------------------- row norms
__global__ void rowL2Norm(const float* __restrict__ x, float* __restrict__ l2, float* __restrict__ l1,
                          int rows, int cols) {
  const int lane = threadIdx.x % warpSize;                               // quiet: W64-LANE-MATH
  const int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= rows) return;
  auto fold = [](float v, int first) { for (int o = first; o > 0; o >>= 1) v += __shfl_down_sync(kEvery, v, o); return v; };   // expect: W64-SHFL-OFFSET, W64-MASK32
  const float* xr = x + static_cast<size_t>(row) * cols;
  float ss = 0.f, sa = 0.f;
  for (int c = lane; c < cols; c += warpSize) {
    ss += xr[c] * xr[c];
    sa += fabsf(xr[c]);
  }
  ss = fold(ss, 16);
  sa = fold(sa, 16);
  if (lane == 0) {
    l2[row] = sqrtf(ss);
    l1[row] = sa;
  }
}

// ---------------------------------------------------------- suffix sums
// Right-to-left cumulative sums inside each warp (tail mass of a CDF).
__global__ void warpSuffixSums(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  float acc = i < n ? in[i] : 0.f;
  for (int d = 1; d < warpSize; d <<= 1) {                               // quiet: W64-SHFL-OFFSET
    float nb = __shfl_down_sync(kEvery, acc, d);                           // expect: W64-MASK32
    if (lane + d > 31) nb = 0.f;                                         // expect: W64-LANE-MATH
    acc += nb;
  }
  if (i < n) out[i] = acc;
}

// ------------------------------------------------------------ histogram
constexpr int kBins = 32;                                                // quiet: W64-LANE-MATH

__global__ void byteHistogram(const uint8_t* __restrict__ data, unsigned* __restrict__ hist, int n) {
  __shared__ unsigned local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i] % kBins], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) atomicAdd(&hist[b], local[b]);
}

// --------------------------------------------------------- quad gather
constexpr int kQuad = 4;

// Bilinear sampling: four lanes fetch the four corners of one output pixel.
__global__ void gatherQuads(const float* __restrict__ img, const float2* __restrict__ uv,
                            float* __restrict__ out, int w, int h, int nPix) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int pix = t / kQuad, corner = t % kQuad;
  float v = 0.f;
  if (pix < nPix) {
    const float2 p = uv[pix];
    const int x0 = min(max(static_cast<int>(p.x), 0), w - 2), y0 = min(max(static_cast<int>(p.y), 0), h - 2);
    const float fx = p.x - x0, fy = p.y - y0;
    const int dx = corner & 1, dy = corner >> 1;
    v = img[(y0 + dy) * w + x0 + dx] * (dx ? fx : 1.f - fx) * (dy ? fy : 1.f - fy);
  }
  for (int o = kQuad / 2; o > 0; o >>= 1) v += __shfl_xor_sync(kEvery, v, o, kQuad);   // expect: W64-MASK32 // quiet: W64-SHFL-OFFSET
  if (pix < nPix && corner == 0) out[pix] = v;
}
