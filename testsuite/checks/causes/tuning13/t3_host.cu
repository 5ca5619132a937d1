// Tuning round 13. Cause 3: host code that assumes 32-lane warps.
// Domains: SSSP delta-stepping (light edges per thread with a per-warp
// minimum, heavy edges per warp with a per-warp edge cache, the next bucket as
// a ballot bitmap), Barnes-Hut tree walk with a per-warp stack and a per-warp
// potential energy, 2D FFT transposes of complex tiles.
// The device code numbers its warps by warpSize (except bucketBitmap, which
// divides by 32 itself), so the host's 32s are the findings.
// Ambiguous calls (labelled from the check pages only, never run):
// - `(nFront / 32 + 1) * sizeof(float)` is a host warp count inside a sum,
//   written in the cudaMalloc size; relaxLightEdges shuffles and numbers its
//   warps by warpSize: W64-WARP-COUNT at that line.
// - `bhBlocks * threads / 32` and `threads / 32` are host warp counts of a
//   block size: W64-WARP-COUNT (the first sizes a cudaMalloc buffer that
//   bhForces fills per warp, the second a shared-memory size).
// - `heavyWarps * 32` is a constant block of whole wavefronts built from 32,
//   launched for a kernel that shuffles and splits its work by warpSize:
//   labelled W64-BLOCK-SIZE; its shared-memory size `sizeof(int2) * 32 *
//   heavyWarps` and grid `(nFront * 32 + 255) / 256` are labelled at the
//   locals' lines, where the 32 is.
// - bucketBitmap's ballot and its store into a 32-bit word are one line, so
//   a narrowing reported at the store or at the variable lands on it.
// - bucketWords' `(nVerts + 31) / 32` feeds a kernel that divides by 32
//   itself: quiet on the host, the kernel's own lines are the findings.
// - kTunedWidth (32) has a name that says nothing of warps and main does not
//   shuffle: no definition finding, the comparison is reported.
// - launchTranspose's `dim3 block(32, tileRows)` takes a parameter: quiet.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int kStackDepth = 48;

// Light edges: one thread per frontier vertex; each warp writes the smallest
// distance it produced, for the bucket bookkeeping on the host.
__global__ void relaxLightEdges(const int* __restrict__ rowPtr, const int* __restrict__ col, const float* __restrict__ w,
                                const int* __restrict__ frontier, int nFront, float delta, float* __restrict__ dist,
                                float* __restrict__ warpMin) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  float best = INFINITY;
  if (t < nFront) {
    const int u = frontier[t];
    const float du = dist[u];
    for (int e = rowPtr[u]; e < rowPtr[u + 1]; ++e) {
      if (w[e] > delta) continue;
      const float nd = du + w[e];
      const float old = __int_as_float(atomicMin(reinterpret_cast<int*>(&dist[col[e]]), __float_as_int(nd)));
      if (nd < old) best = fminf(best, nd);
    }
  }
  for (int o = warpSize / 2; o > 0; o >>= 1) best = fminf(best, __shfl_xor_sync(__activemask(), best, o));   // quiet: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0 && t < nFront) warpMin[t / warpSize] = best;                              // quiet: W64-LANE-MATH
}

// Heavy edges: one warp per frontier vertex, the edges staged warpSize at a
// time in a per-warp slice of dynamic shared memory.
__global__ void relaxHeavyEdges(const int* __restrict__ rowPtr, const int* __restrict__ col, const float* __restrict__ w,
                                const int* __restrict__ frontier, int nFront, float delta, float* __restrict__ dist,
                                int* __restrict__ improved) {
  extern __shared__ int2 edgeCache[];
  const int lane = threadIdx.x % warpSize;
  const int wib = threadIdx.x / warpSize;
  const int v = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  const int unroll = (warpSize == 32) ? 2 : 1;                                            // quiet: W64-HOST-WARP-SIZE
  if (v >= nFront) return;
  int2* mine = edgeCache + wib * warpSize;
  const int u = frontier[v];
  const float du = dist[u];
  int cnt = 0;
  for (int e0 = rowPtr[u]; e0 < rowPtr[u + 1]; e0 += warpSize * unroll) {
    for (int r = 0; r < unroll; ++r) {
      const int e = e0 + r * warpSize + lane;
      mine[lane] = e < rowPtr[u + 1] ? make_int2(col[e], __float_as_int(w[e])) : make_int2(-1, 0);
      __syncwarp();
      const int2 ce = mine[lane];
      if (ce.x >= 0 && __int_as_float(ce.y) > delta) {
        const float nd = du + __int_as_float(ce.y);
        cnt += nd < __int_as_float(atomicMin(reinterpret_cast<int*>(&dist[ce.x]), __float_as_int(nd)));
      }
      __syncwarp();
    }
  }
  for (int o = warpSize / 2; o > 0; o >>= 1) cnt += __shfl_xor_sync(__activemask(), cnt, o);   // quiet: W64-SHFL-OFFSET, W64-MASK32
  if (lane == 0) atomicAdd(improved, cnt);
}

// The next bucket as a bitmap: one 32-bit word per 32 threads, from a ballot.
__global__ void bucketBitmap(const float* __restrict__ dist, int nVerts, float lo, float hi, unsigned* __restrict__ words) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  const bool in = v < nVerts && dist[v] >= lo && dist[v] < hi;
  const unsigned bits = __ballot_sync(0xffffffffu, in); if ((threadIdx.x & 31) == 0 && v < nVerts) words[v / 32] = bits;   // expect: W64-BALLOT-NARROW, W64-MASK32, W64-LANE-MATH
}

// Barnes-Hut: each warp walks the octree together from a per-warp stack; a
// cell is opened when any lane needs it. Each warp sums its bodies' energy.
__global__ void bhForces(const float4* __restrict__ body, int nBodies, const float4* __restrict__ cell,
                         const float* __restrict__ cellSize2, const int* __restrict__ child, int root, float theta2,
                         float3* __restrict__ accel, float* __restrict__ warpEnergy) {
  extern __shared__ int stackMem[];
  const int lane = threadIdx.x % warpSize;
  const int wib = threadIdx.x / warpSize;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int* stack = stackMem + wib * kStackDepth;
  const float4 p = i < nBodies ? body[i] : make_float4(0.f, 0.f, 0.f, 0.f);
  float3 a = make_float3(0.f, 0.f, 0.f);
  float e = 0.f;
  int top = 0;
  if (lane == 0) stack[0] = root;
  __syncwarp();
  while (top >= 0) {
    const int nd = stack[top];
    const float4 c = cell[nd];
    const float dx = c.x - p.x, dy = c.y - p.y, dz = c.z - p.z;
    const float r2 = dx * dx + dy * dy + dz * dz + 1e-6f;
    const bool open = __any_sync(__activemask(), r2 * theta2 < cellSize2[nd]) && child[8 * nd] >= 0;
    __syncwarp();
    --top;
    if (!open) {
      const float inv = rsqrtf(r2), s = c.w * inv * inv * inv;
      a.x += dx * s; a.y += dy * s; a.z += dz * s;
      e -= c.w * inv;
    } else if (lane == 0) {
      for (int k = 0; k < 8; ++k)
        if (child[8 * nd + k] >= 0 && top + 1 < kStackDepth) stack[++top] = child[8 * nd + k];
    }
    top = __shfl_sync(__activemask(), top, 0);                                            // quiet: W64-MASK32
    __syncwarp();
  }
  if (i < nBodies) accel[i] = a;
  e *= 0.5f * p.w;
  for (int o = warpSize / 2; o > 0; o >>= 1) e += __shfl_down_sync(__activemask(), e, o);  // quiet: W64-SHFL-OFFSET
  if (lane == 0) warpEnergy[blockIdx.x * (blockDim.x / warpSize) + wib] = e;               // quiet: W64-WARP-COUNT
}

// 2D FFT: transpose of complex rows through a padded tile.
__global__ void transposeTiles(const float2* __restrict__ in, float2* __restrict__ out, int rows, int cols) {
  __shared__ float2 tile[32][33];                                                          // quiet: W64-WARP-COUNT
  const int x = blockIdx.x * 32 + threadIdx.x, y0 = blockIdx.y * 32;
  for (int j = threadIdx.y; j < 32; j += blockDim.y)
    if (x < cols && y0 + j < rows) tile[j][threadIdx.x] = in[static_cast<size_t>(y0 + j) * cols + x];
  __syncthreads();
  const int ox = blockIdx.y * 32 + threadIdx.x, oy0 = blockIdx.x * 32;
  for (int j = threadIdx.y; j < 32; j += blockDim.y)
    if (ox < rows && oy0 + j < cols) out[static_cast<size_t>(oy0 + j) * rows + ox] = tile[threadIdx.x][j];
}

static int queryWarpWidth(int dev) {
  int v = 0;
  cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, dev);
  return v;
}

static void launchTranspose(const float2* in, float2* out, int rows, int cols, int tileRows, cudaStream_t s) {
  dim3 block(32, tileRows);                                                                // quiet: W64-BLOCK-SIZE
  dim3 grid((cols + 31) / 32, (rows + 31) / 32);
  transposeTiles<<<grid, block, 0, s>>>(in, out, rows, cols);
}

int main(int argc, char** argv) {
  const int dev = 0;
  const int nVerts = 1 << 20, nEdges = 16 * nVerts, nBodies = 1 << 18, nCells = 2 * nBodies;
  const int nFront = argc > 1 ? atoi(argv[1]) : 1 << 16;
  const int warpsPerBlock = argc > 2 ? atoi(argv[2]) : 4;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  if (prop.warpSize != 32)                                                                  // expect: W64-HOST-WARP-SIZE
    std::fprintf(stderr, "kernels were tuned for 32-lane warps, device has %d\n", prop.warpSize);
  const int lanesOnDevice = prop.warpSize;
  const bool pairTables = lanesOnDevice == 2 * 16;                                         // expect: W64-HOST-WARP-SIZE
  const int kTunedWidth = 32;
  if (queryWarpWidth(dev) != kTunedWidth) std::puts("falling back to the generic bucket width");   // expect: W64-HOST-WARP-SIZE
  const int wavesPerSM = prop.maxThreadsPerMultiProcessor / prop.warpSize;                 // quiet: W64-HOST-WARP-SIZE
  const float delta = pairTables ? 0.5f : 0.25f;

  int *rowPtr, *col, *frontier, *improved, *child;
  unsigned* bucketWords;
  float *w, *dist, *warpMin, *warpEnergy, *cellSize2, *scratch;
  float4 *body, *cell;
  float3* accel;
  float2 *spec, *specT;
  cudaMalloc(&rowPtr, sizeof(int) * (nVerts + 1));
  cudaMalloc(&col, sizeof(int) * nEdges);
  cudaMalloc(&w, sizeof(float) * nEdges);
  cudaMalloc(&dist, sizeof(float) * nVerts);
  cudaMalloc(&frontier, sizeof(int) * nFront);
  cudaMalloc(&improved, sizeof(int));
  cudaMalloc(&warpMin, (nFront / 32 + 1) * sizeof(float));                                 // expect: W64-WARP-COUNT
  cudaMalloc(&bucketWords, (nVerts + 31) / 32 * sizeof(unsigned));                         // quiet: W64-WARP-COUNT
  cudaMalloc(&scratch, 32 * nFront * sizeof(float));                                       // quiet: W64-BLOCK-SIZE

  const int paddedFront = (nFront + 31) / 32 * 32;                                         // quiet: W64-BLOCK-SIZE, W64-WARP-COUNT
  relaxLightEdges<<<(paddedFront + 255) / 256, 256>>>(rowPtr, col, w, frontier, nFront, delta, dist, warpMin);
  bucketBitmap<<<(nVerts + 255) / 256, 256>>>(dist, nVerts, delta, 2 * delta, bucketWords);

  const int heavyWarps = 8;
  const size_t heavySmem = sizeof(int2) * 32 * heavyWarps;                                 // expect: W64-BLOCK-SIZE
  const int heavyBlocks = (nFront * 32 + 255) / 256;                                       // expect: W64-BLOCK-SIZE
  relaxHeavyEdges<<<heavyBlocks, heavyWarps * 32, heavySmem>>>(rowPtr, col, w, frontier, nFront, delta, dist, improved);   // expect: W64-BLOCK-SIZE

  cudaMalloc(&body, sizeof(float4) * nBodies);
  cudaMalloc(&cell, sizeof(float4) * nCells);
  cudaMalloc(&cellSize2, sizeof(float) * nCells);
  cudaMalloc(&child, sizeof(int) * 8 * nCells);
  cudaMalloc(&accel, sizeof(float3) * nBodies);
  const int threads = 32 * warpsPerBlock;                                                  // expect: W64-BLOCK-SIZE
  const int bhBlocks = (nBodies + threads - 1) / threads;
  const int bhWarps = bhBlocks * threads / 32;                                             // expect: W64-WARP-COUNT
  cudaMalloc(&warpEnergy, bhWarps * sizeof(float));
  const size_t stackBytes = (threads / 32) * kStackDepth * sizeof(int);                    // expect: W64-WARP-COUNT // quiet: W64-BLOCK-SIZE
  bhForces<<<bhBlocks, threads, stackBytes>>>(body, nBodies, cell, cellSize2, child, 0, 0.25f, accel, warpEnergy);
  std::vector<float> hE(bhWarps);
  cudaMemcpy(hE.data(), warpEnergy, bhWarps * sizeof(float), cudaMemcpyDeviceToHost);
  double energy = 0.0;
  for (float v : hE) energy += v;

  const int n = 2048;
  cudaMalloc(&spec, sizeof(float2) * n * n);
  cudaMalloc(&specT, sizeof(float2) * n * n);
  launchTranspose(spec, specT, n, n, 8, 0);
  transposeTiles<<<dim3(n / 32, n / 32), dim3(32, 3)>>>(specT, spec, n, n);               // expect: W64-BLOCK-SIZE
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("E = %g, %d waves/SM, %s\n", energy, wavesPerSM, cudaGetErrorString(err));
  cudaFree(rowPtr); cudaFree(col); cudaFree(w); cudaFree(dist); cudaFree(frontier); cudaFree(improved);
  cudaFree(warpMin); cudaFree(bucketWords); cudaFree(scratch); cudaFree(body); cudaFree(cell);
  cudaFree(cellSize2); cudaFree(child); cudaFree(accel); cudaFree(warpEnergy); cudaFree(spec); cudaFree(specT);
  return 0;
}
