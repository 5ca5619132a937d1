// Definition sites: a warp size or lane mask written once as a named constant
// is one line to change. It is reported there, with its uses as related
// locations (JSON "related", SARIF relatedLocations); the uses are not
// reported on their own. definition_sites.py checks the related locations:
// a line marked "def: NAME" is a definition, "use: NAME" one of its uses.
#include <cuda_runtime.h>

#define WARP_SIZE 32  // def: WARP_SIZE
constexpr int kWarpSize = 32;  // def: kWarpSize
// The whole call is in the body: its mask is changed there, not at the uses.
#define SHFL_DOWN(v, d) __shfl_down_sync(0xffffffff, v, d)  // def: SHFL_DOWN

__global__ void reduce(float *out, const float *in) {
  if (blockDim.x % warpSize) // reads the wavefront's width: no consistent 32-lane groups
    return;
  int lane = threadIdx.x % WARP_SIZE;  // use: WARP_SIZE
  int warp = threadIdx.x / WARP_SIZE;  // use: WARP_SIZE
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o /= 2)  // a literal 16: reported here
    v += SHFL_DOWN(v, o);  // use: SHFL_DOWN
  __shared__ float partial[kWarpSize];  // use: kWarpSize
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0] + partial[1];
}

__global__ void serial(float *out) { out[0] = 1.f; }

void launch(float *o, const float *i) {
  reduce<<<1, kWarpSize * 3>>>(o, i);  // use: kWarpSize
  serial<<<1, 1>>>(o);  // one thread: no wavefront to fill, quiet
}

// reduce reads warpSize, so its part of the unit does not work in consistent
// 32-lane groups and the definitions above are hazards (warnings with
// fixes); this vote reads the whole warp in a part of its own.
__global__ void anyPositive(const float *in, int *flag) {
  if (__any_sync(0xffffffff, in[threadIdx.x] > 0.f))
    *flag = 1;
}
