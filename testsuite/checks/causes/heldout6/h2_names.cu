// Held out, round 6. Cause 2: recognition by value, not by name or syntax.
// Ambiguous calls (labelled as a demanding GPU engineer would expect):
// - ln::kEveryLane holds the full 32-bit mask under a name without "mask";
//   its definition is labelled W64-MASK32 (the line the widening changes), as
//   round 3 labelled cfg::kAll, besides each call that passes it.
// - rowWelford's loop start is a template parameter whose default is the enum
//   constant kRowThreads: labelled at the loop (the use), the enum at its
//   definition (LANE-MATH, its first uses are lane math).
// - rowSuffix's scan doubles its offset as `d += d` (up to 16 inclusive).
#include <cuda_runtime.h>

namespace ln {
enum Shape : int { kRowThreads = 32, kRowsPerBlock = 4 };            // expect: W64-LANE-MATH
using lanes_t = unsigned int;
constexpr lanes_t kEveryLane = 0xFFFFFFFFu;                          // expect: W64-MASK32
}  // namespace ln

struct Stat { float mean, m2, count; };

__device__ __forceinline__ Stat combine(const Stat &a, const Stat &b) {
  const float n = a.count + b.count;
  if (n == 0.f) return a;
  const float d = b.mean - a.mean, wb = b.count / n;
  return {a.mean + d * wb, a.m2 + b.m2 + d * d * a.count * wb, n};
}

// Welford partials of a row team merged through an xor butterfly.
template <int Span = ln::kRowThreads>
__device__ Stat rowWelford(Stat s) {
#pragma unroll
  for (int d = Span >> 1; d != 0; d >>= 1) {                           // expect: W64-SHFL-OFFSET
    const Stat o{__shfl_xor_sync(ln::kEveryLane, s.mean, d), __shfl_xor_sync(ln::kEveryLane, s.m2, d), __shfl_xor_sync(ln::kEveryLane, s.count, d)}; // expect: W64-MASK32
    s = combine(s, o);
  }
  return s;
}

__device__ void scaleRow(const float *xr, const float *gamma, float *yr, int cols,
                         int lane, float mean, float inv) {
  for (int c = lane; c < cols; c += ln::kRowThreads)                  // expect: W64-LANE-MATH
    yr[c] = (xr[c] - mean) * inv * gamma[c];
}

__global__ void layerNormRows(const float *x, const float *gamma, float *y, int rows, int cols) {
  auto rowOf = [](int tid) { return tid / ln::kRowThreads; };         // expect: W64-LANE-MATH
  const int lane = threadIdx.x & (ln::kRowThreads - 1);                // expect: W64-LANE-MATH
  const int row = blockIdx.x * ln::kRowsPerBlock + rowOf(threadIdx.x);
  if (row >= rows) return;
  const float *xr = x + (size_t)row * cols;
  Stat s{0.f, 0.f, 0.f};
  for (int c = lane; c < cols; c += ln::kRowThreads) {                 // expect: W64-LANE-MATH
    const float v = xr[c], d = v - s.mean;
    s.count += 1.f;
    s.mean += d / s.count;
    s.m2 += d * (v - s.mean);
  }
  s = rowWelford(s);
  scaleRow(xr, gamma, y + (size_t)row * cols, cols, lane, s.mean, rsqrtf(s.m2 / cols + 1e-5f));
}

// Suffix sums of per-row counts inside a warp (one warp per block); lanes
// whose partner would lie past the last lane keep their value. The warp also
// records which rows are non-empty.
__global__ void rowSuffix(const int *cnt, int *suffix, unsigned *nonEmpty) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = g % 32;                                             // expect: W64-LANE-MATH
  int v = cnt[g];
  for (int d = 1; d <= 16; d += d) {                                   // expect: W64-SHFL-OFFSET
    const int below = __shfl_down_sync(ln::kEveryLane, v, d);          // expect: W64-MASK32
    if (!(lane + d > 31)) v += below;                                  // expect: W64-LANE-MATH
  }
  suffix[g] = v;
  const unsigned any = __ballot_sync(ln::kEveryLane, v > 0);           // expect: W64-MASK32, W64-BALLOT-NARROW
  if (lane == 0) nonEmpty[blockIdx.x] = any != 0u;
}
