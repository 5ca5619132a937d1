// Stress test of the wave64 emulation (scripts/hip-nvidia/wave64): many blocks
// of 64-lane wavefronts, every lane active, doing whole-wavefront __ballot_sync
// and __shfl_xor_sync (64-bit masks, so HIP 6.2+'s mask check runs). With all
// 64 lanes active the mask check must never fire and every result must be
// AMD's.
//
//   emulation_stress MODE [blocks] [threads] [iterations] [launches] [delay_ns]
//
//   count    a loop of ballots and butterfly reductions (consecutive
//            operations at one site and at the next), with checkMask's test
//            counted instead of trapped (the same meetings at the same sites)
//   single   one ballot per kernel, its predicate read from global memory, as
//            positiveCount in advice/advice_kernels.cu (each block's first and
//            only operation), counted as in count; many small launches
//   trap     the loop of count with the real __ballot_sync/__shfl_xor_sync: a
//            spurious mask check traps
//
// delay_ns (default 0): the upper half of every wavefront starts that much
// later (well under the meeting timeout), so that the lower half's leader
// lane waits long for it at the first operation, as when one warp's first
// global load is slow. A half whose lanes the emulation's own waits split
// apart then runs the next operation in pieces: spurious mask failures.
//
// Prints one JSON line; exit 0 when no check failed, every value is AMD's and
// nothing trapped. Standalone: needs only CUDA and the three wave64 headers:
//
//   mkdir -p build/w64-stress/hip && cp scripts/hip-nvidia/wave64/*.h build/w64-stress/hip/
//   nvcc -arch=sm_90 -std=c++17 -isystem build/w64-stress -o build/w64-stress/emulation_stress \
//        testsuite/validation/wave64/emulation_stress.cu
//   build/w64-stress/emulation_stress single 192 256 1 2000
#include <hip/cu2dcu_wave64_config.h>
#include <hip/cu2dcu_wave64.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace w64 = ::__cu2dcu_w64;

namespace {

constexpr unsigned kRecorded = 8;

struct Failure {
  unsigned launch, block, iteration, thread, active;  // active: __activemask() of the failing lanes
  unsigned long long same;
};

struct Counts {
  unsigned long long checks;       // mask checks made (per lane)
  unsigned long long spurious;     // lanes whose mask check failed
  unsigned long long failedGroups; // failed checks, counted once per group of lanes that ran it
  unsigned long long wrongBallot;  // lanes with a ballot other than AMD's
  unsigned long long wrongSum;     // lanes with a shuffle reduction other than AMD's
  unsigned recorded;
  Failure first[kRecorded];
};

__device__ Counts gCounts;

__device__ unsigned predicateOf(unsigned lane64, int iteration) { return (lane64 * 7u + iteration) % 3u == 0; }
__device__ unsigned valueOf(unsigned thread, int iteration) { return thread * 13u + iteration; }

// checkMask's test (cu2dcu_wave64.h), counted instead of trapped: the same two
// meetings at the same site as the operation that follows.
__device__ void countedCheck(unsigned site, unsigned launch, int iteration) {
  const unsigned long long mask = ~0ull;
  const unsigned long long same = w64::lanesWithSameWord(site, "__ballot_sync", static_cast<unsigned>(mask)) &
                                  w64::lanesWithSameWord(site, "__ballot_sync", static_cast<unsigned>(mask >> 32));
  atomicAdd(&gCounts.checks, 1ull);
  if (same != mask) {
    atomicAdd(&gCounts.spurious, 1ull);
    const unsigned active = __activemask();
    if (w64::halfLane() == w64::leaderOf(active)) {
      atomicAdd(&gCounts.failedGroups, 1ull);
      const unsigned i = atomicAdd(&gCounts.recorded, 1u);
      if (i < kRecorded)
        gCounts.first[i] = Failure{launch, blockIdx.x, (unsigned)iteration, w64::linearThread(), active, same};
    }
  }
}

// The upper half of each wavefront, all its lanes together, starts late.
__device__ void upperHalfStartsLate(unsigned long long delayNs) {
  if (delayNs == 0 || w64::half() == 0)
    return;
  const unsigned long long start = w64::now();
  while (w64::now() - start < delayNs)
    __nanosleep(500);
}

__device__ unsigned long long expectedBallot(int iteration) {
  unsigned long long m = 0;
  for (unsigned l = 0; l < 64; ++l)
    if (predicateOf(l, iteration))
      m |= 1ull << l;
  return m;
}

__device__ unsigned expectedSum(int iteration) {
  const unsigned base = w64::waveIndex() * 64;
  unsigned s = 0;
  for (unsigned l = 0; l < 64; ++l)
    s += valueOf(base + l, iteration);
  return s;
}

constexpr unsigned kBallotSite = __CU2DCU_W64_SITE;  // a site is a line: one each
constexpr unsigned kShflSite = __CU2DCU_W64_SITE;
constexpr unsigned kSingleSite = __CU2DCU_W64_SITE;

__global__ void countKernel(unsigned launch, int iterations, unsigned long long delayNs) {
  const unsigned lane = w64::lane(), thread = w64::linearThread();
  upperHalfStartsLate(delayNs);
  for (int i = 0; i < iterations; ++i) {
    // __ballot_sync(~0ull, p): the check, then the ballot, at one site.
    countedCheck(kBallotSite, launch, i);
    const unsigned long long b = w64::ballot(kBallotSite, predicateOf(lane, i)) & ~0ull;
    if (b != expectedBallot(i))
      atomicAdd(&gCounts.wrongBallot, 1ull);
    // A whole-wavefront butterfly reduction: __shfl_xor_sync at one site in a loop.
    unsigned v = valueOf(thread, i);
    for (int offset = 32; offset > 0; offset /= 2) {
      countedCheck(kShflSite, launch, i);
      v += w64::shfl_xor(kShflSite, v, offset, 64);
    }
    if (v != expectedSum(i))
      atomicAdd(&gCounts.wrongSum, 1ull);
  }
}

__global__ void singleKernel(const int *in, unsigned launch, unsigned long long delayNs) {
  const unsigned thread = w64::linearThread();
  const int p = in[blockIdx.x * blockDim.x + thread] > 0;
  upperHalfStartsLate(delayNs);
  countedCheck(kSingleSite, launch, 0);
  const unsigned long long b = w64::ballot(kSingleSite, p) & ~0ull;
  unsigned long long expected = 0;
  const unsigned base = blockIdx.x * blockDim.x + w64::waveIndex() * 64;
  for (unsigned l = 0; l < 64; ++l)
    if (in[base + l] > 0)
      expected |= 1ull << l;
  if (b != expected)
    atomicAdd(&gCounts.wrongBallot, 1ull);
}

// The HIP names, as translated code calls them: a spurious check traps.
__global__ void trapKernel(int iterations, unsigned long long delayNs) {
  const unsigned lane = w64::lane(), thread = w64::linearThread();
  upperHalfStartsLate(delayNs);
  for (int i = 0; i < iterations; ++i) {
    const unsigned long long b = __ballot_sync(~0ull, predicateOf(lane, i));
    if (b != expectedBallot(i))
      atomicAdd(&gCounts.wrongBallot, 1ull);
    unsigned v = valueOf(thread, i);
    for (int offset = 32; offset > 0; offset /= 2)
      v += __shfl_xor_sync(~0ull, v, offset, 64);
    if (v != expectedSum(i))
      atomicAdd(&gCounts.wrongSum, 1ull);
  }
}

} // namespace

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "count";
  const unsigned blocks = argc > 2 ? atoi(argv[2]) : 20000;
  const unsigned threads = argc > 3 ? atoi(argv[3]) : 256;
  const int iterations = argc > 4 ? atoi(argv[4]) : 4;
  const unsigned launches = argc > 5 ? atoi(argv[5]) : 4;
  const unsigned long long delayNs = argc > 6 ? strtoull(argv[6], nullptr, 10) : 0;
  const bool single = !strcmp(mode, "single"), trap = !strcmp(mode, "trap");
  if ((!single && !trap && strcmp(mode, "count")) || threads % 64 != 0 || threads == 0 || threads > 1024) {
    fprintf(stderr, "usage: emulation_stress count|single|trap [blocks] [threads (a multiple of 64)] "
                    "[iterations] [launches] [delay_ns]\n");
    return 2;
  }
  // The input of single: as advice_kernels.cu's, positive and negative values.
  const unsigned n = blocks * threads;
  int *host = new int[n], *in = nullptr;
  for (unsigned i = 0; i < n; ++i)
    host[i] = (int)((i * 7919u) % 1000u) - 300;
  cudaMalloc(&in, n * sizeof(int));
  cudaMemcpy(in, host, n * sizeof(int), cudaMemcpyHostToDevice);
  delete[] host;
  Counts zero = {};
  cudaMemcpyToSymbol(gCounts, &zero, sizeof zero);
  cudaError_t err = cudaSuccess;
  for (unsigned l = 0; l < launches && err == cudaSuccess; ++l) {
    if (trap)
      trapKernel<<<blocks, threads>>>(iterations, delayNs);
    else if (single)
      singleKernel<<<blocks, threads>>>(in, l, delayNs);
    else
      countKernel<<<blocks, threads>>>(l, iterations, delayNs);
    err = cudaDeviceSynchronize();
  }
  Counts c = {};
  if (err == cudaSuccess)
    cudaMemcpyFromSymbol(&c, gCounts, sizeof c);
  printf("{\"mode\": \"%s\", \"blocks\": %u, \"threads\": %u, \"iterations\": %d, \"launches\": %u, "
         "\"delay_ns\": %llu, "
         "\"status\": \"%s\", \"mask_checks\": %llu, \"spurious_mask_failures\": %llu, "
         "\"failed_checks\": %llu, \"wrong_ballots\": %llu, \"wrong_sums\": %llu, \"first\": [",
         mode, blocks, threads, single ? 1 : iterations, launches, delayNs, cudaGetErrorString(err), c.checks,
         c.spurious, c.failedGroups, c.wrongBallot, c.wrongSum);
  for (unsigned i = 0; i < c.recorded && i < kRecorded; ++i)
    printf("%s{\"launch\": %u, \"block\": %u, \"iteration\": %u, \"thread\": %u, \"active\": \"0x%08x\", "
           "\"same\": \"0x%016llx\"}",
           i ? ", " : "", c.first[i].launch, c.first[i].block, c.first[i].iteration, c.first[i].thread,
           c.first[i].active, c.first[i].same);
  printf("]}\n");
  cudaFree(in);
  return err == cudaSuccess && c.spurious == 0 && c.wrongBallot == 0 && c.wrongSum == 0 ? 0 : 1;
}
