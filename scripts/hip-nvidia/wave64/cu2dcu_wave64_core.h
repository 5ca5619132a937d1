/* cu2dcu wave64 emulation: the wavefront's shared state, the meeting of its
 * two halves, and the block barrier that tells one half the other is parked.
 * Included by hip/cu2dcu_wave64.h; docs/wave64-emulation.md. */
#ifndef CU2DCU_WAVE64_CORE_H
#define CU2DCU_WAVE64_CORE_H
#if defined(__CUDACC__)

#include <stdio.h>

#ifndef CU2DCU_WAVE64_TIMEOUT_NS
/* How long a half waits for the other at an operation before it takes the
 * other's lanes as exited. A half that then arrives anyway traps. */
#define CU2DCU_WAVE64_TIMEOUT_NS 2000000ull
#endif
#ifndef CU2DCU_WAVE64_TIMEOUT_POLLS
/* ...and at least this many polls: time that passes while the GPU runs
 * another process's context does not count as waiting. */
#define CU2DCU_WAVE64_TIMEOUT_POLLS 20000u
#endif

namespace __cu2dcu_w64 {

constexpr unsigned kLanes = 64;
constexpr unsigned kHalfLanes = 32;
constexpr unsigned kMaxWaves = 1024 / kLanes;

/* ---- where a thread is -------------------------------------------------- */

__device__ inline unsigned linearThread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ inline unsigned blockThreads() { return blockDim.x * blockDim.y * blockDim.z; }
__device__ inline unsigned lane() { return linearThread() % kLanes; }
__device__ inline unsigned halfLane() { return linearThread() % kHalfLanes; }
__device__ inline unsigned half() { return (linearThread() / kHalfLanes) % 2; }
__device__ inline unsigned waveIndex() { return linearThread() / kLanes; }
/* The upper half of the block's last wavefront may not exist. */
__device__ inline bool partnerExists() {
  return half() == 1 || waveIndex() * kLanes + kHalfLanes < blockThreads();
}
__device__ inline unsigned leaderOf(unsigned active) { return __ffs(active) - 1; }

/* ---- where an operation is written: file hash and line ------------------- */

__host__ __device__ constexpr unsigned fnv1a(const char *s, unsigned h) {
  return *s ? fnv1a(s + 1, (h ^ static_cast<unsigned char>(*s)) * 16777619u) : h;
}
__host__ __device__ constexpr unsigned siteOf(const char *file, unsigned line) {
  return ((fnv1a(file, 2166136261u) & 0xFFFu) << 20) | (line & 0xFFFFFu);
}
template <unsigned V> struct Site { static constexpr unsigned value = V; };
__device__ inline bool sameFile(unsigned a, unsigned b) { return (a >> 20) == (b >> 20); }
__device__ inline unsigned lineOf(unsigned site) { return site & 0xFFFFFu; }

/* ---- the shared state of a wavefront -------------------------------------- */

template <class T> __device__ inline T load(const T &x) { return *const_cast<const volatile T *>(&x); }
template <class T> __device__ inline void store(T &x, T v) { *const_cast<volatile T *>(&x) = v; }

/* What block barriers need: small, since every kernel with a barrier holds it. */
struct Gate {
  unsigned long long tag;     /* which block initialized it (shared memory starts undefined) */
  unsigned barriers[2];       /* block barriers each half has entered */
  unsigned gone[2];           /* a half the other presumed exited */
  __device__ void reset() {
    for (unsigned h = 0; h < 2; ++h) {
      store(barriers[h], 0u);
      store(gone[h], 0u);
    }
  }
};

/* What cross-lane operations need. */
struct Wave {
  unsigned long long tag;
  unsigned long long meet;    /* the meeting word: site, state, half */
  unsigned lock[2];           /* one operation at a time per half (diverged lanes queue) */
  unsigned active[2], bits[2];
  unsigned reads;             /* halves done reading in a joint meeting */
  unsigned data[kLanes];
  __device__ void reset() {
    store(meet, 0ull);
    for (unsigned h = 0; h < 2; ++h) {
      store(lock[h], 0u);
      store(active[h], 0u);
      store(bits[h], 0u);
    }
    store(reads, 0u);
  }
};

__device__ inline unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/* Polls spin at first (the other half is usually a few cycles behind), then
 * sleep so that a long wait leaves the issue slots to the warps that work. */
__device__ inline void backOff(unsigned polls) {
  if (polls > 64)
    __nanosleep(64);
}

__device__ __noinline__ inline void fail(const char *op, const char *why) {
  printf("cu2dcu wave64 emulation: %s in block (%u,%u,%u) thread (%u,%u,%u): %s\n", op,
         blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z, why);
  __trap();
}

/* A tag no block gets (odd tags only) and no leftover is likely to hold. */
constexpr unsigned long long kInitializing = 0x5bd1e9955bd1e994ull;

__device__ inline unsigned long long blockTag() {
  unsigned long long grid;
  asm volatile("mov.u64 %0, %%gridid;" : "=l"(grid));
  const unsigned long long block =
      blockIdx.x + static_cast<unsigned long long>(gridDim.x) *
                       (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
  return ((grid * 0x9E3779B97F4A7C15ull + block) << 1) | 1ull;
}

/* Every wait of the emulation is a loop of all the calling lanes: one leader
 * lane polls shared memory, and all of them learn its answer here. When the
 * leader spun alone while the other lanes waited at the branch's end, an
 * H200 ran the next operation without it (lanes 1-31 of a half, all of them
 * active): independent thread scheduling may let waiting lanes go on without
 * a lane that spins, and a later __syncwarp waited for it but did not rejoin
 * it, so __activemask() saw the half in pieces and one operation ran as two
 * (a whole-wavefront mask failing HIP's check, a ballot losing lanes). */
__device__ inline int leaderSays(unsigned active, int answer) {
  return __shfl_sync(active, answer, leaderOf(active));
}

/* The state of the calling half's wavefront, reset by whichever half comes
 * first in this block. All active lanes call it. */
template <class State> __device__ inline State &initialized(State *states, unsigned active) {
  State &s = states[waveIndex()];
  const unsigned long long tag = blockTag();
  const bool leader = halfLane() == leaderOf(active);
  for (unsigned polls = 0;; backOff(++polls)) {
    int ready = 0;
    if (leader) {
      const unsigned long long seen = load(s.tag);
      ready = seen == tag;
      if (!ready && seen != kInitializing && atomicCAS(&s.tag, seen, kInitializing) == seen) {
        s.reset();
        __threadfence_block();
        atomicExch(&s.tag, tag);
        ready = 1;
      }
    }
    if (leaderSays(active, ready))
      break;
  }
  __syncwarp(active);
  __threadfence_block();
  return s;
}

__device__ inline Gate &gateOf(unsigned active) {
  __shared__ Gate gates[kMaxWaves];
  return initialized(gates, active);
}
__device__ inline Wave &waveOf(unsigned active) {
  __shared__ Wave waves[kMaxWaves];
  return initialized(waves, active);
}

__device__ inline void failIfPresumedExited(Gate &g, const char *op) {
  if (load(g.gone[half()]))
    fail(op, "this half of the wavefront arrived after the other half had waited "
             "CU2DCU_WAVE64_TIMEOUT_NS for it and taken its lanes as exited; the "
             "emulation cannot know which lanes AMD would have run together here");
}

/* ---- the meeting of the halves (one leader lane per half) ----------------- */

/* A meeting word of 0: nobody is waiting. */
enum : unsigned { kWaiting = 1, kMatched = 2, kReleased = 3 };

__device__ inline unsigned long long meetWord(unsigned site, unsigned state, unsigned h) {
  return (static_cast<unsigned long long>(site) << 32) | (state << 8) | h;
}
__device__ inline unsigned stateOf(unsigned long long m) { return (m >> 8) & 0xFFu; }
__device__ inline unsigned siteOfMeet(unsigned long long m) { return static_cast<unsigned>(m >> 32); }
__device__ inline unsigned halfOf(unsigned long long m) { return m & 0xFFu; }

/* The other half is parked at a block barrier this half has not reached
 * (its count is ahead), or skipped one this half passed (it exited). */
__device__ inline bool partnerAway(Gate &g) {
  const unsigned h = half();
  return load(g.barriers[h ^ 1]) != load(g.barriers[h]) || load(g.gone[h ^ 1]);
}

/* The slots are written only once both halves have read the last joint
 * meeting's values. All active lanes call it. */
__device__ inline void waitForPreviousMeeting(Wave &w, unsigned active) {
  const bool leader = halfLane() == leaderOf(active);
  for (unsigned polls = 0;; backOff(++polls))
    if (leaderSays(active, leader && stateOf(load(w.meet)) != kMatched))
      break;
}

__device__ inline void endMeeting(Wave &w) {
  if (atomicAdd(&w.reads, 1u) == 1u) {
    store(w.reads, 0u);
    __threadfence_block();
    atomicExch(&w.meet, 0ull);
  }
}

/* Lanes of one half that diverged and reach operations apart take turns.
 * All active lanes call it. */
__device__ inline void lockHalf(Wave &w, unsigned active) {
  const bool leader = halfLane() == leaderOf(active);
  for (unsigned polls = 0;; backOff(++polls))
    if (leaderSays(active, leader && atomicCAS(&w.lock[half()], 0u, 1u) == 0u))
      break;
  __threadfence_block();
}
__device__ inline void unlockHalf(Wave &w) {
  __threadfence_block();
  atomicExch(&w.lock[half()], 0u);
}

/* The leader's side of a meeting: one poll at a time (kUndecided: poll again). */
enum : int { kAlone = 0, kJoined = 1, kUndecided = -1 };
struct Meeting {
  unsigned long long mine;   /* this half's waiting word */
  unsigned long long start;  /* when it was posted */
  unsigned polls;            /* polls since */
  bool posted;
};

/* This half waits at its site for the other: kJoined when both halves' lanes
 * take part, kAlone when the other's lanes are inactive here. */
__device__ inline int waitAtSite(Wave &w, Gate &g, Meeting &meeting) {
  const unsigned long long m = load(w.meet);
  if (stateOf(m) == kMatched)
    return kJoined;
  if (stateOf(m) == kReleased) {
    atomicExch(&w.meet, 0ull);
    return kAlone;
  }
  const bool timedOut = meeting.polls++ > CU2DCU_WAVE64_TIMEOUT_POLLS && now() - meeting.start > CU2DCU_WAVE64_TIMEOUT_NS;
  if ((partnerAway(g) || timedOut) && atomicCAS(&w.meet, meeting.mine, 0ull) == meeting.mine) {
    if (timedOut && !partnerAway(g))
      store(g.gone[half() ^ 1], 1u);
    return kAlone;
  }
  return kUndecided;
}

/* The halves meet at one operation when both stand at the same site. At
 * different sites AMD runs them one after the other, each with the other
 * half's lanes inactive; the earlier line (same file) goes first, as a
 * loop's body comes before the code after the loop. */
__device__ inline int meetPoll(Wave &w, Gate &g, unsigned site, Meeting &meeting) {
  if (meeting.posted)
    return waitAtSite(w, g, meeting);
  const unsigned h = half();
  if (partnerAway(g))
    return kAlone;
  const unsigned long long m = atomicCAS(&w.meet, 0ull, meeting.mine);
  if (m == 0ull) {
    meeting.posted = true;
    meeting.start = now();
    return waitAtSite(w, g, meeting);
  }
  if (stateOf(m) == kWaiting && halfOf(m) != h) {
    const unsigned theirs = siteOfMeet(m);
    if (theirs == site)
      return atomicCAS(&w.meet, m, meetWord(site, kMatched, h)) == m ? kJoined : kUndecided;
    if (!sameFile(theirs, site) || lineOf(theirs) > lineOf(site))
      return kAlone;
    atomicCAS(&w.meet, m, meetWord(theirs, kReleased, h ^ 1));
  }
  return kUndecided;
}

/* All active lanes call it; the leader meets the other half's leader. */
__device__ inline bool meet(Wave &w, Gate &g, unsigned site, unsigned active) {
  const bool leader = halfLane() == leaderOf(active);
  Meeting meeting = {meetWord(site, kWaiting, half()), 0ull, 0u, false};
  for (unsigned polls = 0;; backOff(++polls)) {
    const int outcome = leaderSays(active, leader ? meetPoll(w, g, site, meeting) : kUndecided);
    if (outcome != kUndecided)
      return outcome == kJoined;
  }
}

/* ---- block barriers -------------------------------------------------------- */

/* A half entering a block barrier counts it first, so that the other half,
 * waiting at an operation, knows these lanes will not come. */
__device__ inline void enterBarrier() {
  const unsigned active = __activemask();
  Gate &g = gateOf(active);
  if (halfLane() == leaderOf(active)) {
    failIfPresumedExited(g, "__syncthreads");
    store(g.barriers[half()], load(g.barriers[half()]) + 1u);
    __threadfence_block();
  }
  __syncwarp(active);
}

__device__ inline void syncthreads() {
  enterBarrier();
  (__syncthreads)();
}
__device__ inline int syncthreads_count(int predicate) {
  enterBarrier();
  return (__syncthreads_count)(predicate);
}
__device__ inline int syncthreads_and(int predicate) {
  enterBarrier();
  return (__syncthreads_and)(predicate);
}
__device__ inline int syncthreads_or(int predicate) {
  enterBarrier();
  return (__syncthreads_or)(predicate);
}

/* CUDA's cooperative groups sync a block with __barrier_sync(0); other ids
 * are named barriers of some warps, not the block's. */
__device__ inline void barrier_sync(unsigned id) {
  if (id == 0)
    enterBarrier();
  (__barrier_sync)(id);
}

} // namespace __cu2dcu_w64

#define __barrier_sync(id) ::__cu2dcu_w64::barrier_sync(id)
#define __syncthreads() ::__cu2dcu_w64::syncthreads()
#define __syncthreads_count(p) ::__cu2dcu_w64::syncthreads_count(p)
#define __syncthreads_and(p) ::__cu2dcu_w64::syncthreads_and(p)
#define __syncthreads_or(p) ::__cu2dcu_w64::syncthreads_or(p)

#endif /* __CUDACC__ */
#endif /* CU2DCU_WAVE64_CORE_H */
