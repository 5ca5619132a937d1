// Tests of the wave64 emulation (scripts/hip-nvidia/wave64): every cross-lane
// operation, run on the GPU through the emulation, against a host model of
// AMD's semantics written from HIP's headers (amd_warp_functions.h,
// amd_device_functions.h) and AMD's ISA (ds_bpermute reads 0 from an inactive
// lane). Block shapes include partial wavefronts and 2D blocks; activity
// patterns include divergence inside a half and a half that exits or parks at a
// block barrier.
//
//   emulation_test              all semantic cases; exit 0 when all pass
//   emulation_test trap-NAME    one case that must trap (a process of its own:
//                               a trap ends the CUDA context)
//
// Built with: nvcc -x cu -arch=sm_90 -D__HIP_PLATFORM_NVIDIA__
//             -isystem <make-compat-headers.py --wave64 output> emulation_test.cpp
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#if !defined(__CU2DCU_WAVE64_EMULATION__)
#error "build against the wave64 headers: make-compat-headers.py --wave64"
#endif

namespace {

constexpr uint64_t kNotRun = 0xDEADDEADDEADDEADull;

enum Op { Shfl, ShflUp, ShflDown, ShflXor, ShflDouble, ShflLong, Ballot, Any, All, ActiveMask,
          LaneId, LanemaskLt, LanemaskGt, LanemaskEq, ShflSync64, BallotSync64, ShflSync32,
          OpCount };
const char *const kOpNames[] = {"__shfl", "__shfl_up", "__shfl_down", "__shfl_xor",
                                "__shfl(double)", "__shfl(long long)", "__ballot", "__any",
                                "__all", "__activemask", "__lane_id", "__lanemask_lt",
                                "__lanemask_gt", "__lanemask_eq", "__shfl_sync(64-bit mask)",
                                "__ballot_sync(64-bit mask)", "__shfl_sync(32-bit mask)"};

// Which lanes of a wavefront run the operation. ExitUpper/ParkUpper: the upper
// half skips it and exits / waits at a block barrier.
enum Pattern { Everyone, OddLanes, First40, ExitUpper, ParkUpper, PatternCount };
const char *const kPatternNames[] = {"all lanes", "odd lanes", "lanes < 40",
                                     "lower half, upper exits", "lower half, upper at barrier"};

__host__ __device__ bool runsOp(int pattern, unsigned lane) {
  switch (pattern) {
  case OddLanes: return lane % 2 == 1;
  case First40: return lane < 40;
  case ExitUpper:
  case ParkUpper: return lane < 32;
  default: return true;
  }
}

__host__ __device__ uint32_t valueOf(unsigned thread) { return thread * 7u + 1u; }

__device__ uint64_t runOp(int op, int param, int width, uint32_t v) {
  switch (op) {
  case Shfl: return (uint32_t)__shfl((int)v, param, width);
  case ShflUp: return __shfl_up(v, (unsigned)param, width);
  case ShflDown: return __shfl_down(v, (unsigned)param, width);
  case ShflXor: return __shfl_xor(v, param, width);
  case ShflDouble: {
    double d = __shfl((double)v * 0.5, param, width);
    return (uint64_t)(d * 2.0);
  }
  case ShflLong: return (uint64_t)__shfl((long long)v << 32 | v, param, width);
  case Ballot: return __ballot(v % 3 == 0);
  case Any: return __any(v % 64 == 1);
  case All: return __all(v % 2 == 1);
  case ActiveMask: return __activemask();
  case LaneId: return __lane_id();
  case LanemaskLt: return __lanemask_lt();
  case LanemaskGt: return __lanemask_gt();
  case LanemaskEq: return __lanemask_eq();
  case ShflSync64: return (uint32_t)__shfl_sync(~0ull, (int)v, param, width);
  case BallotSync64: return __ballot_sync(~0ull, v % 3 == 0);
  case ShflSync32: return (uint32_t)__shfl_sync(0xffffffffu, (int)v, param % 32, 32);
  }
  return 0;
}

__global__ void probe(int op, int param, int width, int pattern, uint64_t *out) {
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  uint64_t *mine = out + blockIdx.x * threads + t;
  *mine = kNotRun;
  const unsigned lane = t % warpSize;
  if (runsOp(pattern, lane))
    *mine = runOp(op, param, width, valueOf(t));
  else if (pattern == ExitUpper)
    return;
  if (pattern == ParkUpper) {
    __syncthreads();
    // After the barrier the halves must meet again (a half wrongly taken as
    // exited would trap here).
    if (__ballot(1) == 0)
      *mine = 0;
  }
}

// ---- the host model of AMD's semantics -------------------------------------

struct WaveModel {
  unsigned base, threads;  // first thread of the wavefront, threads in the block
  int pattern;
  bool exists(unsigned l) const { return base + l < threads; }
  bool active(unsigned l) const { return exists(l) && runsOp(pattern, l); }
  uint64_t activeMask() const {
    uint64_t m = 0;
    for (unsigned l = 0; l < 64; ++l)
      if (active(l)) m |= 1ull << l;
    return m;
  }
  uint64_t ballotOf(uint32_t (*pred)(uint32_t)) const {
    uint64_t m = 0;
    for (unsigned l = 0; l < 64; ++l)
      if (active(l) && pred(valueOf(base + l))) m |= 1ull << l;
    return m;
  }
  // ds_bpermute: lane index & 63; an inactive or missing lane reads 0.
  uint32_t read(int index) const {
    unsigned l = (unsigned)index & 63u;
    return active(l) ? valueOf(base + l) : 0u;
  }
};

// HIP 5.2's index formulas (the emulation is generated from HIP 5.2).
int shflSource(int self, int src, int width) { return src + (self & ~(width - 1)); }
int shflUpSource(int self, unsigned delta, int width) {
  int index = self - (int)delta;
  return index < (self & ~(width - 1)) ? self : index;
}
int shflDownSource(int self, unsigned delta, int width) {
  return (int)((self & (width - 1)) + delta) >= width ? self : self + (int)delta;
}
int shflXorSource(int self, int mask, int width) {
  int index = self ^ mask;
  return index >= ((self + width) & ~(width - 1)) ? self : index;
}

uint32_t isMultipleOf3(uint32_t v) { return v % 3 == 0; }
uint32_t isOneMod64(uint32_t v) { return v % 64 == 1; }
uint32_t isOdd(uint32_t v) { return v % 2 == 1; }

uint64_t modelShuffle(const WaveModel &w, int op, int self, int param, int width) {
  switch (op) {
  case ShflUp: return w.read(shflUpSource(self, param, width));
  case ShflDown: return w.read(shflDownSource(self, param, width));
  case ShflXor: return w.read(shflXorSource(self, param, width));
  case ShflDouble: return w.read(shflSource(self, param, width));
  case ShflLong: {
    uint64_t v = w.read(shflSource(self, param, width));
    return v << 32 | v;
  }
  case ShflSync32: return valueOf(w.base + (self & 32) + param % 32);
  default: return w.read(shflSource(self, param, width));
  }
}

uint64_t model(int op, int param, int width, const WaveModel &w, int self) {
  if (!w.active(self)) return kNotRun;
  const uint64_t active = w.activeMask();
  switch (op) {
  case Ballot: return w.ballotOf(isMultipleOf3);
  case BallotSync64: return w.ballotOf(isMultipleOf3);
  case Any: return w.ballotOf(isOneMod64) != 0;
  case All: return w.ballotOf(isOdd) == active;
  case ActiveMask: return active;
  case LaneId: return self;
  case LanemaskLt: return ((1ull << self) - 1) & active;
  case LanemaskGt: return self == 63 ? 0 : (~0ull << (self + 1)) & active;
  case LanemaskEq: return 1ull << self;
  default: return modelShuffle(w, op, self, param, width);
  }
}

// ---- running the cases ----------------------------------------------------

struct Shape {
  dim3 block;
  const char *name;
};

int failures = 0, cases = 0;

void check(int op, int param, int width, int pattern, const Shape &shape) {
  const unsigned threads = shape.block.x * shape.block.y * shape.block.z, blocks = 2;
  uint64_t *out = nullptr;
  std::vector<uint64_t> got(threads * blocks);
  hipMalloc(&out, got.size() * sizeof(uint64_t));
  hipLaunchKernelGGL(probe, dim3(blocks), shape.block, 0, 0, op, param, width, pattern, out);
  hipError_t e = hipMemcpy(got.data(), out, got.size() * sizeof(uint64_t), hipMemcpyDeviceToHost);
  hipFree(out);
  ++cases;
  if (e != hipSuccess) {
    printf("FAIL %s %s block %s: %s\n", kOpNames[op], kPatternNames[pattern], shape.name,
           hipGetErrorString(e));
    exit(1);
  }
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < threads; ++t) {
      const WaveModel w{t / 64 * 64, threads, pattern};
      const uint64_t want = model(op, param, width, w, t % 64);
      if (got[b * threads + t] != want) {
        if (failures++ < 20)
          printf("FAIL %s(param %d, width %d) %s, block %s, thread %u: got %#llx, AMD gives %#llx\n",
                 kOpNames[op], param, width, kPatternNames[pattern], shape.name, t,
                 (unsigned long long)got[b * threads + t], (unsigned long long)want);
        return;
      }
    }
}

bool shuffles(int op) { return op <= ShflLong || op == ShflSync64 || op == ShflSync32; }

void semanticCases() {
  const Shape shapes[] = {{dim3(64), "64"},        {dim3(128), "128"},      {dim3(96), "96 (partial)"},
                          {dim3(48), "48 (partial)"}, {dim3(200), "200 (partial)"},
                          {dim3(16, 12), "16x12"}, {dim3(1024), "1024"}};
  const int params[] = {0, 1, 5, 16, 31, 32, 33, 63};
  const int widths[] = {64, 32, 16, 8};
  for (int op = 0; op < OpCount; ++op)
    for (int pattern = 0; pattern < PatternCount; ++pattern) {
      // HIP 6.2+ checks a *_sync mask against the lanes that run the call.
      if ((op == ShflSync64 || op == BallotSync64) && pattern != Everyone) continue;
      if (op == ShflSync32 && pattern != Everyone) continue;
      for (const Shape &shape : shapes) {
        const unsigned threads = shape.block.x * shape.block.y * shape.block.z;
        // A 64-bit full mask names missing lanes of a partial wavefront (HIP
        // traps); CUDA leaves reads of missing lanes of a 32-lane warp undefined.
        if ((op == ShflSync64 || op == BallotSync64) && threads % 64) continue;
        if (op == ShflSync32 && threads % 32) continue;
        if (!shuffles(op)) {
          check(op, 0, 64, pattern, shape);
          continue;
        }
        for (int width : widths)
          for (int param : params)
            if (op != ShflSync32 || width == 32) check(op, param, width, pattern, shape);
      }
    }
}

// ---- operations whose order matters -----------------------------------------

// A loop whose trip count differs between the halves (3 and 5), then a
// shuffle across the halves after it: AMD runs the extra trips with the lower
// half inactive and meets both halves after the loop.
__global__ void unevenLoop(uint32_t *out) {
  const unsigned lane = threadIdx.x % warpSize;
  uint32_t x = lane + 1;
  const int trips = lane < 32 ? 3 : 5;
  for (int i = 0; i < trips; ++i)
    x += __shfl_xor(x, 1);
  out[threadIdx.x] = __shfl(x, lane ^ 32);
}

void unevenLoopCase() {
  uint32_t x[64], want[64], *out;
  for (unsigned l = 0; l < 64; ++l) x[l] = l + 1;
  for (int i = 0; i < 5; ++i) {
    uint32_t next[64];
    for (unsigned l = 0; l < 64; ++l) {
      const bool active = i < (l < 32 ? 3 : 5);
      const unsigned src = l ^ 1;  // same half: active alike
      next[l] = active ? x[l] + x[src] : x[l];
    }
    memcpy(x, next, sizeof x);
  }
  for (unsigned l = 0; l < 64; ++l) want[l] = x[l ^ 32];
  hipMalloc(&out, sizeof want);
  hipLaunchKernelGGL(unevenLoop, dim3(1), dim3(64), 0, 0, out);
  uint32_t got[64];
  hipMemcpy(got, out, sizeof got, hipMemcpyDeviceToHost);
  hipFree(out);
  ++cases;
  if (memcmp(got, want, sizeof got) != 0) {
    ++failures;
    printf("FAIL uneven loop then cross-half shuffle: lane 0 got %u, AMD gives %u\n", got[0], want[0]);
  }
}

// The upper half writes late; after the wavefront barrier (cu2dcu's
// __syncwarp shim under the emulation) the lower half must see its writes.
__global__ void syncwarpVisibility(uint32_t *out) {
  __shared__ uint32_t slots[64];
  const unsigned lane = threadIdx.x;
  slots[lane] = 0;
  __syncthreads();
  if (lane >= 32) __nanosleep(20000);
  slots[lane] = lane + 100;
  __cu2dcu_w64_syncwarp();
  out[lane] = slots[lane ^ 32];
}

void syncwarpCase() {
  uint32_t got[64], *out;
  hipMalloc(&out, sizeof got);
  hipLaunchKernelGGL(syncwarpVisibility, dim3(1), dim3(64), 0, 0, out);
  hipMemcpy(got, out, sizeof got, hipMemcpyDeviceToHost);
  hipFree(out);
  ++cases;
  for (unsigned l = 0; l < 64; ++l)
    if (got[l] != (l ^ 32) + 100) {
      ++failures;
      printf("FAIL __syncwarp: lane %u read %u, AMD gives %u\n", l, got[l], (l ^ 32) + 100);
      return;
    }
}

__global__ void deviceWarpSize(int *out) {
  out[0] = warpSize;
  out[1] = __AMDGCN_WAVEFRONT_SIZE;
}

void warpSizeCase() {
  int *out, got[2] = {0, 0}, attribute = 0;
  hipDeviceProp_t prop;
  hipMalloc(&out, sizeof got);
  hipLaunchKernelGGL(deviceWarpSize, dim3(1), dim3(1), 0, 0, out);
  hipMemcpy(got, out, sizeof got, hipMemcpyDeviceToHost);
  hipFree(out);
  hipGetDeviceProperties(&prop, 0);
  hipDeviceGetAttribute(&attribute, hipDeviceAttributeWarpSize, 0);
  ++cases;
  if (got[0] != 64 || got[1] != 64 || prop.warpSize != 64 || attribute != 64 || warpSize != 64) {
    ++failures;
    printf("FAIL warp size: device %d, __AMDGCN_WAVEFRONT_SIZE %d, prop %d, attribute %d, host %d\n",
           got[0], got[1], prop.warpSize, attribute, (int)warpSize);
  }
}

// ---- cases that must trap ---------------------------------------------------

__global__ void coalescedAcrossHalves(int *out) {
  namespace cg = cooperative_groups;
  out[threadIdx.x] = cg::coalesced_threads().size();
}

// The upper half arrives long after the lower half gave up waiting for it.
__global__ void lateHalf(int *out) {
  if (threadIdx.x >= 32) {
    const long long start = clock64();
    while (clock64() - start < 40000000) {}  // about 20 ms
  }
  out[threadIdx.x] = __shfl(threadIdx.x, 0);
}

// HIP 6.2+: a 64-bit full mask while only the lower half runs the call.
__global__ void maskNotActive(unsigned long long *out) {
  if (threadIdx.x < 32) out[threadIdx.x] = __ballot_sync(~0ull, 1);
}

// A 64-bit ballot truncated to a CUDA mask (HeCBench lda's CUDA 9 branch):
// its low 32 bits are the lower half's lanes, so with lanes 0-15 idle the
// upper half's lanes 32-47 are not in it.
__global__ void truncatedBallotMask(float *out) {
  if (threadIdx.x < 16) return;
  const unsigned int active = __ballot(1);
  out[threadIdx.x] = __shfl_down_sync(active, (float)threadIdx.x, 1);
}

// A CUDA-only warp intrinsic behind an architecture test AMD never passes
// (HeCBench atomicAggregate): natively it would answer for 32 lanes.
__global__ void cudaOnlyIntrinsic(unsigned *out) {
#if __CUDA_ARCH__ >= 700
  out[threadIdx.x] = __match_any_sync(0xffffffffu, threadIdx.x / 4);
#else
  out[threadIdx.x] = 0;
#endif
}

int trapCase(const std::string &name) {
  void *out;
  hipMalloc(&out, 64 * sizeof(unsigned long long));
  if (name == "coalesced")
    hipLaunchKernelGGL(coalescedAcrossHalves, dim3(1), dim3(64), 0, 0, (int *)out);
  else if (name == "late")
    hipLaunchKernelGGL(lateHalf, dim3(1), dim3(64), 0, 0, (int *)out);
  else if (name == "cuda-mask")
    hipLaunchKernelGGL(truncatedBallotMask, dim3(1), dim3(64), 0, 0, (float *)out);
  else if (name == "cuda-only")
    hipLaunchKernelGGL(cudaOnlyIntrinsic, dim3(1), dim3(64), 0, 0, (unsigned *)out);
  else if (name == "mask")
    hipLaunchKernelGGL(maskNotActive, dim3(1), dim3(64), 0, 0, (unsigned long long *)out);
  else {
    printf("unknown trap case %s\n", name.c_str());
    return 2;
  }
  const hipError_t e = hipDeviceSynchronize();
  printf("trap-%s: %s\n", name.c_str(), hipGetErrorString(e));
  return e == hipSuccess ? 1 : 0;  // it must not succeed
}

} // namespace

int main(int argc, char **argv) {
  int count = 0;
  if (hipGetDeviceCount(&count) != hipSuccess || count == 0) {
    printf("no GPU\n");
    return 77;
  }
  if (argc > 1 && std::string(argv[1]).rfind("trap-", 0) == 0)
    return trapCase(std::string(argv[1]).substr(5));
  semanticCases();
  unevenLoopCase();
  syncwarpCase();
  warpSizeCase();
  printf("%s: %d cases, %d failing\n", failures ? "FAIL" : "PASS", cases, failures);
  return failures ? 1 : 0;
}
