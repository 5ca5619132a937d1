// Lane strides (W64-LANE-MATH): a lane index stepped by 32 must change
// together with the lane. --fix-wave64 fixes a loop's step with its lane, and
// holds the lane back where the stride is written another way.
#include <cuda_runtime.h>

// Each lane sums every 32nd element from its own: on a 64-lane wavefront
// with the lane widened alone, lanes 32-63 would repeat lanes 0-31's work.
__global__ void stridedSum(const float *in, float *out, int n) { __syncwarp(); // warp-level work: its 32s count lanes
  int lane = threadIdx.x % 32; // fixed
  float sum = 0.f;
  for (int i = lane; i < n; i += 32) // fixed
    sum += in[i];
  atomicAdd(out, sum);
}

// The j-th element of a lane in 32-lane strides: left to the reviewer, so
// the lane is held back with it.
__global__ void perLaneElements(const float *in, float *out) { __syncwarp(); // warp-level work: its 32s count lanes
  int lane = threadIdx.x & 31; // waits: split
  float sum = 0.f;
  for (int j = 0; j < 4; ++j)
    sum += in[blockIdx.x * 128 + lane + j * 32]; // blocker: split
  atomicAdd(out + blockIdx.x, sum);
}

// A thread index (not a lane) plus 32 is no lane stride.
__global__ void blockOffset(float *data) { __syncwarp(); // warp-level work: its 32s count lanes
  data[threadIdx.x + 32] = 0.f;
}
