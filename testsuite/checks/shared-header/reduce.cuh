// A helper two units share: a.cu can take the whole-wavefront fix, b.cu
// cannot (a half-warp test), so --fix-wave64 changes neither.
#pragma once
__device__ inline float warpSum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}
