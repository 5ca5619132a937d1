// W64-LANE-MATH and W64-WARP-COUNT in a function template whose operands are
// dependent (Cfg::kSpan) while operator overloads are in scope (cuda_fp16.h's
// operator/ for __half): the pattern spells `threadIdx.x / Cfg::kSpan` as a
// dependent operator call, a built-in division only in the instantiation.
// The checks read such operators in the template's first instantiation, so
// every use folds into kSpan's definition as the '%' does (checked by
// definition_sites.py, CTest checks/definition-sites-related/template-operators).
#include <cuda_fp16.h>
#include <cuda_runtime.h>

struct RowCfg {
  static constexpr int kSpan = 32;  // def: kSpan
};

template <typename Cfg>
__global__ void rowSums(const float *in, float *out) {
  const int lane = threadIdx.x % Cfg::kSpan;  // use: kSpan
  const int row = blockIdx.x * (blockDim.x / Cfg::kSpan) + threadIdx.x / Cfg::kSpan;  // use: kSpan
  float s = in[row * Cfg::kSpan + lane];  // use: kSpan
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_xor_sync(0xffffffffu, s, o);
  unsigned live = __ballot_sync(0xffffffffu, s > 0.f);
  if (lane == 0)
    out[row] = s + __popc(live);
}

template __global__ void rowSums<RowCfg>(const float *, float *);
