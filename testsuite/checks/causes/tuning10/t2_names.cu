// Tuning round 10. Cause 2: recognition by value, not by name or syntax.
// A batched 32-point FFT, int4 weight-only GEMV, Monte Carlo barrier paths
// with one generator per group, suffix sums for resampling, read alignment
// scoring, an 8-tap row filter and a tile transpose.
// Ambiguous calls (labelled by the check pages):
// - kAll (a full mask under a name without "mask") is reported at its
//   definition; every call that passes it is a related location, labelled at
//   the call's own line.
// - Fft32Shape::kPoints, a constexpr struct member, and the enumerator
//   kStreamsPerState are constants of no warp name used by kernels that
//   shuffle: lane math by value, reported at the definition (LANE-MATH, the
//   only id either constant is used with) and labelled at each use.
// - fft32Batched's stage loop has its bound beside the counter
//   (`s = 1, stop = 32; s < stop`): a scan-style loop up to 32.
// - spanSum<T, kSpan = 32> is only ever instantiated at its default: the
//   loop start kSpan / 2 is labelled at the loop, the line the pattern has.
// - the lambda groupMax is only called with width 32: `width / 2` is the 16
//   start, labelled at the loop (not at the call that passes 32).
// - slotOf(int t) returns `t & 31` for threadIdx.x at every call: lane math
//   at the helper's return. suffixWeights tests `lane + d < 32`, the same
//   last-lane test as `lane + d <= 31` by value.
// - quadSum(v, width = 32) is called with 8 by every caller: its start is 4
//   (quiet); its kAll mask is still a MASK32 finding. rowBox8's `& 7` and
//   `>> 3` are 8-lane taps (quiet).
// - transposeTiles' kTile = 32 is a tile size in a kernel that never
//   shuffles (quiet).
#include <cuda_runtime.h>
#include <cstdint>

constexpr unsigned kAll = 0xffffffffu;                                      // expect: W64-MASK32

// ---------------------------------------------------------------------------
// Batched 32-point complex FFT (radix-2 DIT), one point per lane.
struct Fft32Shape {
  static constexpr int kPoints = 32;                                        // expect: W64-LANE-MATH
  static constexpr float kTwoPi = 6.283185307f;
};

__global__ void fft32Batched(const float2* __restrict__ in, float2* __restrict__ out, int batches) {
  const int pt = threadIdx.x % Fft32Shape::kPoints;                         // expect: W64-LANE-MATH
  const int batch = (blockIdx.x * blockDim.x + threadIdx.x) / Fft32Shape::kPoints;   // expect: W64-LANE-MATH
  if (batch >= batches) return;
  const size_t base = static_cast<size_t>(batch) * Fft32Shape::kPoints;    // expect: W64-LANE-MATH
  const int rev = static_cast<int>(__brev(static_cast<unsigned>(pt)) >> 27);
  float2 v = in[base + rev];
  for (int s = 1, stop = 32; s < stop; s <<= 1) {                           // expect: W64-SHFL-OFFSET
    float2 o;
    o.x = __shfl_xor_sync(0xffffffff, v.x, s);                              // expect: W64-MASK32
    o.y = __shfl_xor_sync(0xffffffff, v.y, s);                              // expect: W64-MASK32
    float sn, cs;
    __sincosf(-Fft32Shape::kTwoPi * static_cast<float>(pt & (s - 1)) / static_cast<float>(2 * s), &sn, &cs);
    if ((pt & s) == 0) {
      v.x += cs * o.x - sn * o.y;
      v.y += cs * o.y + sn * o.x;
    } else {
      const float tx = cs * v.x - sn * v.y, ty = cs * v.y + sn * v.x;
      v.x = o.x - tx;
      v.y = o.y - ty;
    }
  }
  out[base + pt] = v;
}

// ---------------------------------------------------------------------------
// Shared helpers.
template <typename T, int kSpan = 32>
__device__ __forceinline__ T spanSum(T v) {
  for (int o = kSpan / 2; o > 0; o >>= 1)                                  // expect: W64-SHFL-OFFSET
    v += __shfl_down_sync(kAll, v, o);                                      // expect: W64-MASK32
  return v;
}

__device__ __forceinline__ int slotOf(int t) { return t & 31; }            // expect: W64-LANE-MATH

__device__ float quadSum(float v, int width = 32) {
  for (int o = width / 2; o > 0; o /= 2) v += __shfl_xor_sync(kAll, v, o); // expect: W64-MASK32 // quiet: W64-SHFL-OFFSET
  return v;
}

// ---------------------------------------------------------------------------
// int4 weight-only GEMV: one row per block of 32 threads, each thread
// unpacks whole 32-bit words of eight signed nibbles.
__global__ void int4Gemv(const uint32_t* __restrict__ qw, const float* __restrict__ scales,
                         const float* __restrict__ x, float* __restrict__ y, int cols) {
  const int lane = slotOf(threadIdx.x);
  const int row = blockIdx.x;
  const int words = cols / 8;
  float acc = 0.f;
  for (int w = lane; w < words; w += blockDim.x) {
    const uint32_t q = qw[static_cast<size_t>(row) * words + w];
    const float s = scales[(static_cast<size_t>(row) * cols + w * 8) / 128];
    for (int k = 0; k < 8; ++k)
      acc += s * static_cast<float>(static_cast<int>((q >> (4 * k)) & 0xFu) - 8) * x[w * 8 + k];
  }
  acc = spanSum(acc);
  if (lane == 0) y[row] = acc;
}

// ---------------------------------------------------------------------------
// Monte Carlo, down-and-out barrier: one xorwow generator per group of
// paths; lane 0 advances it and broadcasts a seed.
enum RngLayout : int { kStreamsPerState = 32, kRounds = 4 };                // expect: W64-LANE-MATH

struct Xorwow { uint32_t a, b, c, d, e, ctr; };

__device__ __forceinline__ uint32_t nextBits(Xorwow& s) {
  uint32_t t = s.e;
  const uint32_t u = s.a;
  s.e = s.d; s.d = s.c; s.c = s.b; s.b = u;
  t ^= t >> 2; t ^= t << 1; t ^= u ^ (u << 4);
  s.a = t;
  s.ctr += 362437u;
  return t + s.ctr;
}

__global__ void barrierPaths(Xorwow* __restrict__ gens, float s0, float barrier, float drift,
                             float vol, int steps, unsigned long long* __restrict__ knocked) {
  const int lane = threadIdx.x % kStreamsPerState;                          // expect: W64-LANE-MATH
  const int gen = (blockIdx.x * blockDim.x + threadIdx.x) / kStreamsPerState;   // expect: W64-LANE-MATH
  uint32_t seed = 0;
  if (lane == 0) seed = nextBits(gens[gen]);
  seed = __shfl_sync(kAll, seed, 0);                                        // expect: W64-MASK32
  uint32_t st = seed ^ (0x9e3779b9u * static_cast<uint32_t>(lane + 1));
  float s = s0;
  bool out = false;
  for (int k = 0; k < steps * kRounds && !out; ++k) {
    st ^= st << 13; st ^= st >> 17; st ^= st << 5;
    const float z = (static_cast<float>(st) * 2.3283064e-10f - 0.5f) * 3.4641016f;
    s *= __expf(drift + vol * z);
    out = s < barrier;
  }
  const unsigned hits = __ballot_sync(kAll, out);                           // expect: W64-BALLOT-NARROW, W64-MASK32
  if (lane == 0) atomicAdd(knocked, static_cast<unsigned long long>(__popc(hits)));   // expect: W64-BALLOT-NARROW
}

// ---------------------------------------------------------------------------
// Suffix sums of path weights within a group (systematic resampling).
__global__ void suffixWeights(const float* __restrict__ w, float* __restrict__ suffix, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = slotOf(threadIdx.x);
  float s = i < n ? w[i] : 0.f;
  for (int d = 1; d <= 16; d *= 2) {                                        // expect: W64-SHFL-OFFSET
    const float below = __shfl_down_sync(kAll, s, d);                       // expect: W64-MASK32
    if (lane + d < 32) s += below;                                          // expect: W64-LANE-MATH
  }
  if (i < n) suffix[i] = s;
}

// ---------------------------------------------------------------------------
// Read alignment: each thread scores one offset of a read against the
// reference; the best offset of the group is kept.
__global__ void bestAlignment(const char* __restrict__ reads, const char* __restrict__ ref,
                              int readLen, int* __restrict__ best, int nReads) {
  auto groupMax = [](int v, int width) {
    for (int o = width / 2; o >= 1; o /= 2) v = max(v, __shfl_xor_sync(kAll, v, o));   // expect: W64-SHFL-OFFSET, W64-MASK32
    return v;
  };
  const int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  const int read = gtid / warpSize;
  const int off = gtid % warpSize;
  if (read >= nReads) return;
  int score = 0;
  for (int i = 0; i < readLen; ++i)
    score += reads[static_cast<size_t>(read) * readLen + i] == ref[read + off + i];
  score = groupMax(score, 32);
  if (off == 0) best[read] = score;
}

// ---------------------------------------------------------------------------
// 8-tap box filter along rows: eight threads per output pixel.
__global__ void rowBox8(const float* __restrict__ img, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int tap = threadIdx.x & 7;                                          // quiet: W64-LANE-MATH
  const int px = i >> 3;
  const float v = px < n ? img[px + tap] : 0.f;
  const float s = quadSum(v, 8);
  if (tap == 0 && px < n) out[px] = s * 0.125f;
}

// ---------------------------------------------------------------------------
// Tile transpose (no shuffles): 32 x 32 tiles, 256 threads per tile.
constexpr int kTile = 32;

__global__ void transposeTiles(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];                                  // quiet: W64-WARP-COUNT
  const int c = threadIdx.x % kTile, r0 = threadIdx.x / kTile;              // quiet: W64-LANE-MATH
  const int bx = blockIdx.x * kTile, by = blockIdx.y * kTile;
  for (int r = r0; r < kTile; r += 8)
    if (by + r < rows && bx + c < cols) tile[r][c] = in[static_cast<size_t>(by + r) * cols + bx + c];
  __syncthreads();
  for (int r = r0; r < kTile; r += 8)
    if (bx + r < cols && by + c < rows) out[static_cast<size_t>(bx + r) * rows + by + c] = tile[c][r];
}
