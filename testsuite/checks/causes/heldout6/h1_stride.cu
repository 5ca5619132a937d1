// Held out, round 6. Cause 1: lane strides and per-lane splits.
// Ambiguous calls (labelled as a demanding GPU engineer would expect):
// - jacobiRows: the while loop's start 16 is written on the line of the
//   `while`, so the SHFL-OFFSET label does not depend on which of the two
//   lines (the start or the loop) the finding is put on.
// - nbodyWarp: the per-lane slice `span = (n + 31) / 32` is labelled at its
//   definition (where the 32 is) and at `lane * span` (the lane's share, the
//   pattern the LANE-MATH page lists as `lane * perLane`).
#include <cuda_runtime.h>

// One warp per interior row of a 2D Jacobi stencil: the lanes stride over the
// row's columns and the warp reduces the row's largest update.
__global__ void jacobiRows(const float *u, float *v, float *rowRes, int nx, int ny) {
  const int warpInBlock = threadIdx.x >> 5;                            // expect: W64-LANE-MATH
  const int lane = threadIdx.x - (warpInBlock << 5);                   // expect: W64-LANE-MATH
  const int y = 1 + blockIdx.x * (blockDim.x >> 5) + warpInBlock;      // expect: W64-WARP-COUNT
  if (y >= ny - 1) return;
  float res = 0.f;
  for (int x = 1 + lane; x < nx - 1; x += 32) {                        // expect: W64-LANE-MATH
    const float nv = 0.25f * (u[(y - 1) * nx + x] + u[(y + 1) * nx + x] +
                              u[y * nx + x - 1] + u[y * nx + x + 1]);
    res = fmaxf(res, fabsf(nv - u[y * nx + x]));
    v[y * nx + x] = nv;
  }
  int d = 16; while (d > 0) {                                          // expect: W64-SHFL-OFFSET
    res = fmaxf(res, __shfl_xor_sync(0xffffffff, res, d));             // expect: W64-MASK32
    d >>= 1;
  }
  if (lane == 0) rowRes[y] = res;
}

__device__ __forceinline__ float warpAdd(float s) {
  for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(__activemask(), s, o); // expect: W64-SHFL-OFFSET
  return s;
}

constexpr int kTile = 256;

// One warp per body: the block stages a tile of bodies in shared memory, each
// lane takes kTile / 32 of them; a second pass over the tail of the bodies
// gives each lane a contiguous slice.
__global__ void nbodyWarp(const float4 *pos, float4 *acc, int n, float eps2) {
  __shared__ float4 tile[kTile];
  const int lane = threadIdx.x % 32;                                   // expect: W64-LANE-MATH
  const int i = (blockIdx.x * blockDim.x + threadIdx.x) / 32;           // expect: W64-LANE-MATH
  const float4 pi = pos[i < n ? i : 0];
  float ax = 0.f, ay = 0.f, az = 0.f;
  const int full = n / kTile * kTile;
  for (int t = 0; t < full; t += kTile) {
    for (int s = threadIdx.x; s < kTile; s += blockDim.x) tile[s] = pos[t + s];
    __syncthreads();
    for (int k = 0; k < kTile / 32; ++k) {                             // expect: W64-LANE-MATH
      const float4 pj = tile[k * 32 + lane];                           // expect: W64-LANE-MATH
      const float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
      const float r = rsqrtf(dx * dx + dy * dy + dz * dz + eps2);
      const float f = pj.w * r * r * r;
      ax += f * dx; ay += f * dy; az += f * dz;
    }
    __syncthreads();
  }
  const int span = (n - full + 31) / 32;                               // expect: W64-LANE-MATH
  for (int j = full + lane * span; j < min(full + (lane + 1) * span, n); ++j) { // expect: W64-LANE-MATH
    const float4 pj = pos[j];
    const float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
    const float r = rsqrtf(dx * dx + dy * dy + dz * dz + eps2);
    ax += pj.w * r * r * r * dx; ay += pj.w * r * r * r * dy; az += pj.w * r * r * r * dz;
  }
  ax = warpAdd(ax); ay = warpAdd(ay); az = warpAdd(az);
  if (lane == 0 && i < n) acc[i] = make_float4(ax, ay, az, 0.f);
}

// Dirichlet boundary: one thread per column, halo rows 32 apart (a stride
// over rows, not over lanes; no warp-level work here).
__global__ void haloRows(float *v, int nx, int ny, float value) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= nx) return;
  for (int y = 0; y < ny; y += 32) v[y * nx + x] = value;             // quiet: W64-LANE-MATH
}
