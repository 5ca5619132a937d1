// W64-LANE-MATH in a member function of a class template (RowReducer<Cfg>::
// sum), whose operands are dependent (Cfg::kSpan): the checks read the
// member's pattern through the members the class's specializations
// instantiate, as they read a function template's specializations. The '%'
// is a dependent built-in operator in the pattern; the '/' is a dependent
// operator call there (cuda_fp16.h's operator/ for __half is in scope), read
// in the first instantiation. Every use folds into kSpan's definition
// (checked by definition_sites.py, CTest
// checks/definition-sites-related/class-template-members).
#include <cuda_fp16.h>
#include <cuda_runtime.h>

struct RowCfg {
  static constexpr int kSpan = 32;  // def: kSpan
};

template <typename Cfg>
struct RowReducer {
  __device__ float sum(const float *in) const {
    const int lane = threadIdx.x % Cfg::kSpan;  // use: kSpan
    const int row = threadIdx.x / Cfg::kSpan;  // use: kSpan
    float s = in[row * Cfg::kSpan + lane];  // use: kSpan
    for (int o = 16; o > 0; o >>= 1)
      s += __shfl_xor_sync(0xffffffffu, s, o);
    unsigned live = __ballot_sync(0xffffffffu, s > 0.f);
    return lane == 0 ? s + __popc(live) : 0.f;
  }
};

__global__ void rowSums(const float *in, float *out) {
  RowReducer<RowCfg> reducer;
  out[blockIdx.x * blockDim.x + threadIdx.x] = reducer.sum(in);
}
