/* cu2dcu wave64 emulation, part 2 of 2: HIP's cross-lane operations over a
 * 64-lane wavefront made of two NVIDIA warps.
 *
 * Installed as hip/cu2dcu_wave64.h by
 * `scripts/hip-nvidia/make-compat-headers.py --wave64` and included at the end
 * of hip/nvidia_detail/nvidia_hip_runtime.h. docs/wave64-emulation.md gives
 * the model, the sources of each semantic and where emulation cannot match
 * hardware.
 *
 * A wavefront is 64 consecutive threads of the block in linear thread order:
 * NVIDIA warps 2w and 2w+1, its two halves. A cross-lane operation is a
 * meeting of the halves in shared memory: each half writes its lanes' values
 * and its active mask, the halves meet (or one finds the other's lanes
 * inactive on AMD: at a block barrier, exited, or at another operation), and
 * each lane reads the lane that HIP's formula names. A lane that is inactive,
 * or missing from a partial last wavefront, reads 0, as ds_bpermute does. */
#ifndef CU2DCU_WAVE64_H
#define CU2DCU_WAVE64_H
#if defined(__CUDACC__)

#include <hip/cu2dcu_wave64_core.h>
/* CUDA's cooperative groups keep CUDA's own warp calls (their tiles of 32 or
 * fewer lanes lie inside one half, where the native operations give AMD's
 * answer); included after the core, their block sync is the emulated barrier.
 * CUDA 13's cooperative groups need C++17 (code in an older dialect cannot
 * include them at all). */
#if __cplusplus >= 201703L
#define CU2DCU_W64_COOPERATIVE_GROUPS 1
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#endif

namespace __cu2dcu_w64 {

/* ---- operations: each lane of the calling half takes part ---------------- */

/* A meeting of the halves for one operation: this half's active lanes, the
 * other half's (0 when its lanes are inactive), and each half's predicate bits. */
struct Exchange {
  Wave *wave;
  unsigned active, partnerActive, bits, partnerBits;
  bool joint;
};

__device__ inline Exchange exchange(unsigned site, const char *op, unsigned value, int predicate) {
  Exchange x;
  x.active = __activemask();
  Gate &g = gateOf(x.active);
  x.wave = &waveOf(x.active);
  Wave &w = *x.wave;
  const unsigned h = half(), me = halfLane(), leader = leaderOf(x.active);
  x.bits = __ballot_sync(x.active, predicate);
  if (me == leader)
    failIfPresumedExited(g, op);
  /* The waits are loops of all these lanes (leaderSays, in the core). */
  lockHalf(w, x.active);
  waitForPreviousMeeting(w, x.active);
  __syncwarp(x.active);
  store(w.data[h * kHalfLanes + me], value);
  __syncwarp(x.active);
  if (me == leader) {
    store(w.active[h], x.active);
    store(w.bits[h], x.bits);
    __threadfence_block();
  }
  x.joint = partnerExists() && meet(w, g, site, x.active);
  __threadfence_block();
  __syncwarp(x.active);
  x.partnerActive = x.joint ? load(w.active[h ^ 1]) : 0u;
  x.partnerBits = x.joint ? load(w.bits[h ^ 1]) : 0u;
  return x;
}

__device__ inline bool laneActive(const Exchange &x, unsigned lane64) {
  const unsigned mask = lane64 / kHalfLanes == half() ? x.active : x.partnerActive;
  return (mask >> (lane64 % kHalfLanes)) & 1u;
}

/* ds_bpermute reads lane (index & 63); an inactive lane reads as 0. */
__device__ inline unsigned readLane(const Exchange &x, int index) {
  const unsigned lane64 = static_cast<unsigned>(index) % kLanes;
  return laneActive(x, lane64) ? load(x.wave->data[lane64]) : 0u;
}

__device__ inline unsigned long long laneMask64(unsigned mine, unsigned partners) {
  return half() == 0 ? (static_cast<unsigned long long>(partners) << 32) | mine
                     : (static_cast<unsigned long long>(mine) << 32) | partners;
}

/* Ends a meeting: once both halves have read, the slots are free again. */
__device__ inline void finish(const Exchange &x) {
  __syncwarp(x.active);
  if (halfLane() == leaderOf(x.active)) {
    if (x.joint)
      endMeeting(*x.wave);
    unlockHalf(*x.wave);
  }
}

/* A value of up to 8 bytes moved word by word, as HIP moves 64-bit values
 * with two ds_bpermutes. */
template <class T>
__device__ inline T permute(unsigned site, const char *op, T var, int index) {
  static_assert(sizeof(T) <= 8, "HIP's shuffles move values of at most 8 bytes");
  constexpr unsigned words = (sizeof(T) + 3) / 4;
  unsigned in[words] = {}, out[words];
  memcpy(in, &var, sizeof(T));
  for (unsigned i = 0; i < words; ++i) {
    const Exchange x = exchange(site, op, in[i], 0);
    out[i] = readLane(x, index);
    finish(x);
  }
  T result;
  memcpy(&result, out, sizeof(T));
  return result;
}

/* HIP's source-lane formulas (amd_warp_functions.h), self being the lane id. */
__device__ inline int shflIndex(int self, int src, int width) {
#if defined(HIP_VERSION_MAJOR) && HIP_VERSION_MAJOR >= 6
  return (src & (width - 1)) + (self & ~(width - 1));
#else
  return src + (self & ~(width - 1));
#endif
}
__device__ inline int shflUpIndex(int self, unsigned int delta, int width) {
  int index = self - delta;
  return (index < (self & ~(width - 1))) ? self : index;
}
__device__ inline int shflDownIndex(int self, unsigned int delta, int width) {
  int index = self + delta;
  return (int)((self & (width - 1)) + delta) >= width ? self : index;
}
__device__ inline int shflXorIndex(int self, int laneMask, int width) {
  int index = self ^ laneMask;
  return index >= ((self + width) & ~(width - 1)) ? self : index;
}

template <class T> __device__ inline T shfl(unsigned site, T var, int src, int width = 64) {
  return permute(site, "__shfl", var, shflIndex(lane(), src, width));
}
template <class T> __device__ inline T shfl_up(unsigned site, T var, unsigned int delta, int width = 64) {
  return permute(site, "__shfl_up", var, shflUpIndex(lane(), delta, width));
}
template <class T> __device__ inline T shfl_down(unsigned site, T var, unsigned int delta, int width = 64) {
  return permute(site, "__shfl_down", var, shflDownIndex(lane(), delta, width));
}
template <class T> __device__ inline T shfl_xor(unsigned site, T var, int laneMask, int width = 64) {
  return permute(site, "__shfl_xor", var, shflXorIndex(lane(), laneMask, width));
}

__device__ inline unsigned long long ballot(unsigned site, int predicate) {
  const Exchange x = exchange(site, "__ballot", 0, predicate);
  const unsigned long long result = laneMask64(x.bits, x.partnerBits);
  finish(x);
  return result;
}
__device__ inline unsigned long long activemask(unsigned site) {
  const Exchange x = exchange(site, "__activemask", 0, 1);
  const unsigned long long result = laneMask64(x.active, x.partnerActive);
  finish(x);
  return result;
}
__device__ inline int any(unsigned site, int predicate) { return ballot(site, predicate) != 0; }
__device__ inline int all(unsigned site, int predicate) {
  const Exchange x = exchange(site, "__all", 0, predicate);
  const bool result = laneMask64(x.bits, x.partnerBits) == laneMask64(x.active, x.partnerActive);
  finish(x);
  return result;
}

/* HIP's lane masks (amd_device_functions.h): lt and gt are limited to the
 * active lanes, eq is not. */
__device__ inline unsigned long long lanemask_lt(unsigned site) {
  return ((1ull << lane()) - 1ull) & activemask(site);
}
__device__ inline unsigned long long lanemask_gt(unsigned site) {
  const unsigned long long active = activemask(site);
  return lane() == kLanes - 1 ? 0ull : (~0ull << (lane() + 1)) & active;
}
__device__ inline unsigned long long lanemask_eq() { return 1ull << lane(); }

/* A wavefront barrier with memory ordering, as HIP's __syncwarp is on AMD
 * (fence, wave barrier, fence): the halves meet, so each sees the other's
 * writes. */
__device__ inline void syncwarp(unsigned site) {
  __threadfence_block();
  finish(exchange(site, "__syncwarp", 0, 0));
  __threadfence_block();
}

/* ---- HIP 6.2+ *_sync forms: a 64-bit mask, checked as HIP checks it ------- */

/* HIP's __hip_check_mask (amd_warp_sync_functions.h): the lanes that execute
 * the operation with the same mask must be exactly that mask; HIP asserts it
 * unless NDEBUG is defined. */
__device__ inline unsigned long long lanesWithSameWord(unsigned site, const char *op, unsigned word) {
  const Exchange x = exchange(site, op, word, 0);
  unsigned long long same = 0;
  for (unsigned l = 0; l < kLanes; ++l)
    if (laneActive(x, l) && load(x.wave->data[l]) == word)
      same |= 1ull << l;
  finish(x);
  return same;
}
__device__ inline void checkMask(unsigned site, const char *op, unsigned long long mask) {
#ifndef NDEBUG
  if (mask == 0)
    fail(op, "the mask must be non-zero (HIP asserts this)");
  const unsigned long long same = lanesWithSameWord(site, op, static_cast<unsigned>(mask)) &
                                  lanesWithSameWord(site, op, static_cast<unsigned>(mask >> 32));
  if (same != mask)
    fail(op, "all threads named in the mask must execute the same operation with the same mask "
             "(HIP 6.2+ asserts this on AMD unless NDEBUG is defined)");
#else
  (void)site; (void)op; (void)mask;
#endif
}

/* A 32-bit mask is CUDA's: the native call, as CUDA's headers and libraries
 * (CUB, libcu++) make it. A 64-bit mask is HIP's. Tag dispatch, not
 * `if constexpr`, so that C++11 and C++14 code compiles. */
template <bool> struct WaveMask {};

/* CUDA requires a calling lane to be in its mask. A 32-bit mask made from a
 * 64-bit HIP ballot (`unsigned m = __ballot(1)` in a branch AMD would not
 * compile) names the lower half's lanes only: the emulation cannot say what
 * AMD would do with it. */
__device__ inline void checkCudaMask(const char *op, unsigned mask) {
  if (!((mask >> halfLane()) & 1u))
    fail(op, "a 32-bit (CUDA) mask that does not name the calling lane; in HIP the mask is "
             "64-bit (a truncated __ballot or a 32-bit constant selects only the lower half)");
}
template <class M> using MaskKind = WaveMask<sizeof(M) == 8>;

#define CU2DCU_W64_SYNC_FORM(NAME, OPERATION, ARG)                                               \
  template <class M, class T>                                                                    \
  __device__ inline T NAME(WaveMask<true>, unsigned site, M mask, T var, ARG arg, int width) {   \
    checkMask(site, "__" #NAME, static_cast<unsigned long long>(mask));                          \
    return OPERATION(site, var, arg, width);                                                     \
  }                                                                                              \
  template <class M, class T>                                                                    \
  __device__ inline T NAME(WaveMask<false>, unsigned, M mask, T var, ARG arg, int width) {       \
    checkCudaMask("__" #NAME, static_cast<unsigned>(mask));                                      \
    return ::__##NAME(static_cast<unsigned>(mask), var, arg, width);                            \
  }                                                                                              \
  template <class M, class T>                                                                    \
  __device__ inline T NAME(unsigned site, M mask, T var, ARG arg,                                 \
                           int width = sizeof(M) == 8 ? 64 : 32) {                               \
    return NAME(MaskKind<M>(), site, mask, var, arg, width);                                     \
  }
CU2DCU_W64_SYNC_FORM(shfl_sync, shfl, int)
CU2DCU_W64_SYNC_FORM(shfl_up_sync, shfl_up, unsigned int)
CU2DCU_W64_SYNC_FORM(shfl_down_sync, shfl_down, unsigned int)
CU2DCU_W64_SYNC_FORM(shfl_xor_sync, shfl_xor, int)
#undef CU2DCU_W64_SYNC_FORM

template <class M>
__device__ inline unsigned long long ballot_sync(WaveMask<true>, unsigned site, M mask, int predicate) {
  checkMask(site, "__ballot_sync", static_cast<unsigned long long>(mask));
  return ballot(site, predicate) & static_cast<unsigned long long>(mask);
}
template <class M>
__device__ inline unsigned long long ballot_sync(WaveMask<false>, unsigned, M mask, int predicate) {
  checkCudaMask("__ballot_sync", static_cast<unsigned>(mask));
  return ::__ballot_sync(static_cast<unsigned>(mask), predicate);
}
template <class M> __device__ inline unsigned long long ballot_sync(unsigned site, M mask, int predicate) {
  return ballot_sync(MaskKind<M>(), site, mask, predicate);
}
template <class M>
__device__ inline int any_sync(WaveMask<true> wide, unsigned site, M mask, int predicate) {
  return ballot_sync(wide, site, mask, predicate) != 0;
}
template <class M> __device__ inline int any_sync(WaveMask<false>, unsigned, M mask, int predicate) {
  checkCudaMask("__any_sync", static_cast<unsigned>(mask));
  return ::__any_sync(static_cast<unsigned>(mask), predicate);
}
template <class M> __device__ inline int any_sync(unsigned site, M mask, int predicate) {
  return any_sync(MaskKind<M>(), site, mask, predicate);
}
template <class M>
__device__ inline int all_sync(WaveMask<true> wide, unsigned site, M mask, int predicate) {
  return ballot_sync(wide, site, mask, predicate) == static_cast<unsigned long long>(mask);
}
template <class M> __device__ inline int all_sync(WaveMask<false>, unsigned, M mask, int predicate) {
  checkCudaMask("__all_sync", static_cast<unsigned>(mask));
  return ::__all_sync(static_cast<unsigned>(mask), predicate);
}
template <class M> __device__ inline int all_sync(unsigned site, M mask, int predicate) {
  return all_sync(MaskKind<M>(), site, mask, predicate);
}

/* ---- cooperative groups ---------------------------------------------------- */
#if defined(CU2DCU_W64_COOPERATIVE_GROUPS)

/* CUDA's coalesced_group holds at most one warp's lanes; the active lanes of a
 * wavefront can span both halves, and then it cannot represent them. */
__device__ inline cooperative_groups::coalesced_group coalesced_threads(unsigned site) {
  const Exchange x = exchange(site, "coalesced_threads", 0, 0);
  const bool spans = x.partnerActive != 0;
  finish(x);
  if (spans)
    fail("cooperative_groups::coalesced_threads",
         "the active lanes span both 32-lane halves of the wavefront; CUDA's coalesced_group "
         "cannot hold them, so the emulation cannot give AMD's group");
  return cooperative_groups::coalesced_threads();
}
#endif

/* CUDA warp intrinsics HIP has no counterpart of (__match_*, __reduce_*): code
 * reaches them only through a branch AMD never compiles, such as
 * `#if __CUDA_ARCH__ >= 700` (undefined on AMD, 900 under nvcc). Run natively
 * they would answer for a 32-lane warp (HeCBench atomicAggregate printed FAIL
 * that way), so the emulation traps instead. */
__device__ inline unsigned cudaOnly(const char *op) {
  fail(op, "a CUDA warp intrinsic HIP does not have: this code runs only because nvcc "
           "defines __CUDA_ARCH__ (AMD compiles another branch, or nothing), so the emulation "
           "cannot give AMD's answer");
  return 0;
}

} // namespace __cu2dcu_w64

/* ---- HIP's names ------------------------------------------------------------ */

#define __CU2DCU_W64_SITE (::__cu2dcu_w64::Site<::__cu2dcu_w64::siteOf(__FILE__, __LINE__)>::value)

#undef __shfl
#undef __shfl_up
#undef __shfl_down
#undef __shfl_xor
#define __shfl(...) ::__cu2dcu_w64::shfl(__CU2DCU_W64_SITE, __VA_ARGS__)
#define __shfl_up(...) ::__cu2dcu_w64::shfl_up(__CU2DCU_W64_SITE, __VA_ARGS__)
#define __shfl_down(...) ::__cu2dcu_w64::shfl_down(__CU2DCU_W64_SITE, __VA_ARGS__)
#define __shfl_xor(...) ::__cu2dcu_w64::shfl_xor(__CU2DCU_W64_SITE, __VA_ARGS__)
#define __ballot(p) ::__cu2dcu_w64::ballot(__CU2DCU_W64_SITE, (p))
#define __ballot64(p) ::__cu2dcu_w64::ballot(__CU2DCU_W64_SITE, (p))
#define __any(p) ::__cu2dcu_w64::any(__CU2DCU_W64_SITE, (p))
#define __all(p) ::__cu2dcu_w64::all(__CU2DCU_W64_SITE, (p))
#define __activemask() ::__cu2dcu_w64::activemask(__CU2DCU_W64_SITE)
#define __lanemask_lt() ::__cu2dcu_w64::lanemask_lt(__CU2DCU_W64_SITE)
#define __lanemask_gt() ::__cu2dcu_w64::lanemask_gt(__CU2DCU_W64_SITE)
#define __lanemask_eq() ::__cu2dcu_w64::lanemask_eq()
#define __shfl_sync(...) ::__cu2dcu_w64::shfl_sync(__CU2DCU_W64_SITE, __VA_ARGS__)
#define __shfl_up_sync(...) ::__cu2dcu_w64::shfl_up_sync(__CU2DCU_W64_SITE, __VA_ARGS__)
#define __shfl_down_sync(...) ::__cu2dcu_w64::shfl_down_sync(__CU2DCU_W64_SITE, __VA_ARGS__)
#define __shfl_xor_sync(...) ::__cu2dcu_w64::shfl_xor_sync(__CU2DCU_W64_SITE, __VA_ARGS__)
#define __ballot_sync(m, p) ::__cu2dcu_w64::ballot_sync(__CU2DCU_W64_SITE, (m), (p))
#define __any_sync(m, p) ::__cu2dcu_w64::any_sync(__CU2DCU_W64_SITE, (m), (p))
#define __all_sync(m, p) ::__cu2dcu_w64::all_sync(__CU2DCU_W64_SITE, (m), (p))
#if defined(CU2DCU_W64_COOPERATIVE_GROUPS)
namespace cooperative_groups {
__device__ inline coalesced_group __cu2dcu_w64_coalesced_threads(unsigned site) {
  return ::__cu2dcu_w64::coalesced_threads(site);
}
} // namespace cooperative_groups
#define coalesced_threads() __cu2dcu_w64_coalesced_threads(__CU2DCU_W64_SITE)
#endif

#define __match_any_sync(...) ::__cu2dcu_w64::cudaOnly("__match_any_sync")
#define __match_all_sync(...) ::__cu2dcu_w64::cudaOnly("__match_all_sync")
#define __reduce_add_sync(...) ::__cu2dcu_w64::cudaOnly("__reduce_add_sync")
#define __reduce_min_sync(...) ::__cu2dcu_w64::cudaOnly("__reduce_min_sync")
#define __reduce_max_sync(...) ::__cu2dcu_w64::cudaOnly("__reduce_max_sync")
#define __reduce_and_sync(...) ::__cu2dcu_w64::cudaOnly("__reduce_and_sync")
#define __reduce_or_sync(...) ::__cu2dcu_w64::cudaOnly("__reduce_or_sync")
#define __reduce_xor_sync(...) ::__cu2dcu_w64::cudaOnly("__reduce_xor_sync")

__device__ inline unsigned int __lane_id() { return ::__cu2dcu_w64::lane(); }
/* cu2dcu's __syncwarp shim (mappings/shims/cu2dcu_syncwarp.yaml) calls this
 * under the emulation. */
#define __cu2dcu_w64_syncwarp(...) ::__cu2dcu_w64::syncwarp(__CU2DCU_W64_SITE)

#endif /* __CUDACC__ */
#endif /* CU2DCU_WAVE64_H */
