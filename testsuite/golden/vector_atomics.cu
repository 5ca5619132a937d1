// Found by mappings/tools/verify_use.py: CUDA's atomicAdd and
// atomicAdd_system on float2 and float4 (sm_90) have no HIP overload. CUDA
// makes each element's add atomic on its own, so the shims add per element.
#include <cuda_runtime.h>

__global__ void accumulate(float2 *sum2, float4 *sum4, float2 *shared2, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(sum2, make_float2(x[i], 1.0f));
  float4 before = atomicAdd(sum4, make_float4(x[i], x[i], x[i], 1.0f));
  atomicAdd_system(shared2, make_float2(before.w, 2.0f));
  atomicAdd(&sum2->x, x[i]);  // the float overload stays HIP's own
}
