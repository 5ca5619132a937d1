// Held out, round 5. Cause 2: recognition by value, not by name or syntax.
// Ambiguous calls: ProbeCfg::kSlots (a neutral name, read through the
// template argument of hashProbe<ProbeCfg>) is labelled at its definition and
// at each use; the lambda `laneOf` carries its 32 as a default argument, and
// `beyond` compares `lane + d` with 31, both labelled on the lambda's line;
// the scan bound is a second variable of the for statement (`span = 32`);
// the host count `threads / ProbeCfg::kSlots` is labelled W64-WARP-COUNT (a
// queries-per-block count that must change with the kernel's lane width).
#include <cstdint>
#include <cuda_runtime.h>

constexpr unsigned kWarpMask = 0xffffffffu;                                  // expect: W64-MASK32

// Probe geometry of the hash table: one slot per lane and round.
struct ProbeCfg {
  static constexpr int kSlots = 32;                                          // expect: W64-LANE-MATH
  static constexpr int kMaxRounds = 8;
};

// Warp-cooperative open addressing: the lanes check kSlots consecutive slots
// at once, and the lowest matching lane gives the slot.
template <class C>
__global__ void hashProbe(const uint32_t *table, uint32_t capMask, const uint32_t *keys,
                          int *slotOf, int nKeys) {
  const int lane = threadIdx.x % C::kSlots;                                  // expect: W64-LANE-MATH
  const int q = blockIdx.x * (blockDim.x / C::kSlots) + threadIdx.x / C::kSlots; // expect: W64-WARP-COUNT, W64-LANE-MATH
  const uint32_t key = keys[q < nKeys ? q : nKeys - 1];
  const uint32_t h = key * 2654435761u;
  int found = -1;
  for (int r = 0; r < C::kMaxRounds && found < 0; ++r) {
    const uint32_t slot = (h + r * C::kSlots + lane) & capMask;              // expect: W64-LANE-MATH
    unsigned hits = __ballot_sync(kWarpMask, table[slot] == key);            // expect: W64-MASK32, W64-BALLOT-NARROW
    if (hits) found = __shfl_sync(kWarpMask, (int)slot, __ffs(hits) - 1);    // expect: W64-MASK32, W64-BALLOT-NARROW
  }
  if (lane == 0 && q < nKeys) slotOf[q] = found;
}

// Right-to-left scan per warp (exclusive prefix = warp total - suffix sum).
__global__ void prefixFromSuffix(const int *in, int *excl) {
  auto laneOf = [](int tid, int width = 32) { return tid % width; };        // expect: W64-LANE-MATH
  auto beyond = [](int lane, int d) { return lane + d > 31; };              // expect: W64-LANE-MATH
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = laneOf(threadIdx.x);
  int v = in[t];
  for (int d = 1, span = 32; d < span; d <<= 1) {                           // expect: W64-SHFL-OFFSET
    const int below = __shfl_down_sync(kWarpMask, v, d);                    // expect: W64-MASK32
    if (!beyond(lane, d)) v += below;
  }
  const int total = __shfl_sync(kWarpMask, v, 0);                           // expect: W64-MASK32
  excl[t] = total - v;
}

void probeAll(const uint32_t *table, uint32_t capMask, const uint32_t *keys, int *slotOf,
              int nKeys, int threads) {
  const int perBlock = threads / ProbeCfg::kSlots;                          // expect: W64-WARP-COUNT
  hashProbe<ProbeCfg><<<(nKeys + perBlock - 1) / perBlock, threads>>>(table, capMask, keys,
                                                                      slotOf, nKeys);
}
