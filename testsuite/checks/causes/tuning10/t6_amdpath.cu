// Tuning round 10. Cause 6: projects that carry their own AMD path.
// A GPU hash table with wavefront-cooperative probing, block-sparse attention
// row maxima, a stream compaction kernel kept from before the port, and the
// host checks and launches around them.
// Ambiguous calls (labelled by the check pages):
// - kLanes, lane_bits_t and ALL_LANES are defined per platform under
//   __HIP_PLATFORM_AMD__ (64 lanes, 64-bit type, 64-bit mask there): their
//   CUDA definitions and every use (per-wavefront array, wave ids and counts,
//   ballots into lane_bits_t, masks, `prop.warpSize != kLanes`, launch shapes
//   `kLanes * 3` through a local) are right as the port compiles them (quiet).
// - laneId()'s %laneid PTX, waveSum's 16..1 loop with a literal mask (under
//   `#if !defined(__HIP_PLATFORM_AMD__)`) and ffsLanes' __ffs sit in branches a
//   HIP compile for AMD drops (quiet); nowNs' %globaltimer is under __NVPTX__,
//   which only NVIDIA compiles define (quiet).
// - WARP_SIZE is chosen by the project macro USE_ROCM, which also selects the
//   HIP headers: a HIP build without -DUSE_ROCM compiles the 32, so the
//   definition (LANE-MATH) and its uses in sparseRowMax and the grid of
//   launchSparse are findings (expect); their ALL_LANES masks stay quiet.
// - compactPositive was never ported: unguarded %laneid PTX, a ballot kept in
//   a plain `unsigned` and __popc of it with a `1u << lane` bit (expect),
//   while its ALL_LANES masks stay quiet. legacyCheck compares the attribute
//   with a literal 32 (expect).
// - kEmpty = 0xffffffffu is a key sentinel compared inside a ballot's
//   predicate, never a lane mask (quiet).
#ifdef USE_ROCM
#include <hip/hip_runtime.h>
#else
#include <cuda_runtime.h>
#endif
#include <cfloat>
#include <cstdint>
#include <cstdio>

#if defined(__HIP_PLATFORM_AMD__)
constexpr int kLanes = 64;
typedef uint64_t lane_bits_t;
#define ALL_LANES 0xffffffffffffffffull
#else
constexpr int kLanes = 32;                                                  // quiet: W64-LANE-MATH
typedef uint32_t lane_bits_t;                                               // quiet: W64-BALLOT-NARROW
#define ALL_LANES 0xffffffffu                                               // quiet: W64-MASK32
#endif

#ifdef USE_ROCM
#define WARP_SIZE 64
#else
#define WARP_SIZE 32                                                        // expect: W64-LANE-MATH
#endif

constexpr uint32_t kEmpty = 0xffffffffu;                                    // quiet: W64-MASK32

// ---------------------------------------------------------------------------
// Per-platform helpers.
__device__ __forceinline__ unsigned laneId() {
#if defined(__HIP_PLATFORM_AMD__)
  return __lane_id();
#else
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));                         // quiet: W64-INLINE-PTX
  return id;
#endif
}

__device__ __forceinline__ int ffsLanes(lane_bits_t m) {
#if defined(__HIP_PLATFORM_AMD__)
  return __ffsll(static_cast<unsigned long long>(m));
#else
  return __ffs(static_cast<int>(m));                                        // quiet: W64-BALLOT-NARROW
#endif
}

__device__ __forceinline__ float waveSum(float v) {
#if !defined(__HIP_PLATFORM_AMD__)
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o); // quiet: W64-SHFL-OFFSET, W64-MASK32
#else
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
#endif
  return v;
}

__device__ __forceinline__ unsigned long long nowNs() {
#if defined(__NVPTX__)
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));                     // quiet: W64-INLINE-PTX
  return t;
#else
  return static_cast<unsigned long long>(clock64());
#endif
}

// ---------------------------------------------------------------------------
// Open-addressing hash table, one wavefront per query: the lanes read a
// window of consecutive slots and vote on hits and empty slots.
__global__ void probeWindowed(const uint32_t* __restrict__ keys, const uint32_t* __restrict__ vals,
                              const uint32_t* __restrict__ queries, uint32_t* __restrict__ results,
                              unsigned long long* __restrict__ probeNs, int nq, uint32_t capacity) {
  __shared__ uint32_t winResult[1024 / kLanes];                             // quiet: W64-WARP-COUNT
  const int lane = static_cast<int>(laneId());
  const int win = threadIdx.x / kLanes;                                     // quiet: W64-LANE-MATH
  const int q = blockIdx.x * (blockDim.x / kLanes) + win;                   // quiet: W64-WARP-COUNT
  if (q >= nq) return;
  const unsigned long long t0 = nowNs();
  const uint32_t key = queries[q];
  const uint32_t start = (key * 2654435761u) % capacity;
  if (lane == 0) winResult[win] = kEmpty;
  __syncwarp(ALL_LANES);
  for (uint32_t probed = 0; probed < capacity; probed += kLanes) {
    const uint32_t slot = (start + probed + lane) % capacity;
    const uint32_t k = keys[slot];
    const lane_bits_t hit = __ballot_sync(ALL_LANES, k == key);             // quiet: W64-MASK32, W64-BALLOT-NARROW
    const lane_bits_t empty = __ballot_sync(ALL_LANES, k == kEmpty);        // quiet: W64-MASK32, W64-BALLOT-NARROW
    if (hit) {
      if (lane == ffsLanes(hit) - 1) winResult[win] = vals[slot];
      break;
    }
    if (empty) break;
  }
  __syncwarp(ALL_LANES);
  if (lane == 0) {
    results[q] = winResult[win];
    probeNs[q] = nowNs() - t0;
  }
}

// ---------------------------------------------------------------------------
// Block-sparse attention: one warp per query row takes the maximum score over
// the key blocks the layout keeps, and the row sum of the kept scores.
__global__ void sparseRowMax(const float* __restrict__ scores, const uint8_t* __restrict__ layout,
                             float* __restrict__ rowMax, float* __restrict__ rowSum,
                             int nRows, int nBlocks, int blk) {
  const int lane = threadIdx.x & (WARP_SIZE - 1);                           // expect: W64-LANE-MATH
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE;      // expect: W64-LANE-MATH
  if (row >= nRows) return;
  const int qb = row / blk;
  float m = -FLT_MAX, s = 0.f;
  for (int b = lane; b < nBlocks; b += WARP_SIZE) {                         // expect: W64-LANE-MATH
    if (!layout[static_cast<size_t>(qb) * nBlocks + b]) continue;
    for (int j = 0; j < blk; ++j) {
      const float v = scores[static_cast<size_t>(row) * nBlocks * blk + b * blk + j];
      m = fmaxf(m, v);
      s += v;
    }
  }
  for (int o = WARP_SIZE / 2; o > 0; o >>= 1)                              // expect: W64-SHFL-OFFSET
    m = fmaxf(m, __shfl_xor_sync(ALL_LANES, m, o));                         // quiet: W64-MASK32
  s = waveSum(s);
  if (lane == 0) { rowMax[row] = m; rowSum[row] = s; }
}

// ---------------------------------------------------------------------------
// Stream compaction of positive values, kept from before the AMD port.
__global__ void compactPositive(const float* __restrict__ in, float* __restrict__ out,
                                int* __restrict__ count, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool keep = i < n && in[i] > 0.f;
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));                                // expect: W64-INLINE-PTX
  const unsigned votes = __ballot_sync(ALL_LANES, keep);                    // expect: W64-BALLOT-NARROW // quiet: W64-MASK32
  int base = 0;
  if (lane == 0) base = atomicAdd(count, __popc(votes));                    // expect: W64-BALLOT-NARROW
  base = __shfl_sync(ALL_LANES, base, 0);                                   // quiet: W64-MASK32
  if (keep) out[base + __popc(votes & ((1u << lane) - 1u))] = in[i];        // expect: W64-BALLOT-NARROW
}

// ---------------------------------------------------------------------------
// Host side.
static bool checkDevice(int dev) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  if (prop.warpSize != kLanes) {                                            // quiet: W64-HOST-WARP-SIZE
    std::fprintf(stderr, "built for %d-lane warps, device has %d\n", kLanes, prop.warpSize);
    return false;
  }
  return true;
}

static int legacyCheck(int dev) {
  int ws = 0;
  cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, dev);
  return ws == 32 ? 0 : 2;                                                  // expect: W64-HOST-WARP-SIZE
}

void launchProbe(const uint32_t* keys, const uint32_t* vals, const uint32_t* queries, uint32_t* results,
                 unsigned long long* probeNs, int nq, uint32_t capacity) {
  const int threads = kLanes * 3;                                           // quiet: W64-BLOCK-SIZE
  const int perBlock = threads / kLanes;                                    // quiet: W64-WARP-COUNT
  probeWindowed<<<(nq + perBlock - 1) / perBlock, threads>>>(keys, vals, queries, results, probeNs, nq, capacity);   // quiet: W64-BLOCK-SIZE
}

void launchSparse(const float* scores, const uint8_t* layout, float* rowMax, float* rowSum,
                  int nRows, int nBlocks, int blk) {
  const int grid = (nRows * WARP_SIZE + 255) / 256;                         // expect: W64-BLOCK-SIZE
  sparseRowMax<<<grid, 256>>>(scores, layout, rowMax, rowSum, nRows, nBlocks, blk);
}

int runAll(int dev, const float* in, float* out, int* count, int n) {
  if (!checkDevice(dev) || legacyCheck(dev) != 0) return 1;
  compactPositive<<<(n + 255) / 256, 256>>>(in, out, count, n);
  return 0;
}
