// Held out, round 10. Cause 4: a thread index used as data (bitmap words and bit
// positions, rows and columns of 32-wide tiles, bank padding, bit tricks).
// Domains: Morton codes and a Karras radix tree (octree build), multi-pattern
// Shift-And string matching, voxel occupancy bitmaps for SDF ray marching, a
// padded 32 x 33 transpose of a match-score matrix.
// Ambiguous calls (labelled from the check pages alone, never run through the tool):
// - Only compactHits does warp-level work (a ballot and a broadcast); its lane, mask
//   and ballot lines are ordinary findings. No other function here shuffles, votes
//   or reads warpSize, so the bitmap words and bits (`p / 32`, `p % 32`, `v >> 5`,
//   `v & 31`, also through locals with a cast), the tile rows and columns
//   (`t / 32`, `t % 32` used as tile[r][c], rows stepped by 8 up to 32) and the
//   bank padding (`(n) >> LOG_NUM_BANKS`) are quiet.
// - rayMarch adds one per hitting ray into a per-packet counter `packetHits[ray >> 5]`:
//   a per-group output in a kernel without warp-level work, which the LANE-MATH page
//   makes a note (not quiet: it is no bitmap and no tile row).
// - commonPrefix's tie-break `32 + __clz(i ^ j)` (Karras 2012) is a bit count of
//   thread indices, not a lane stride, and __clz reads no lane mask: quiet.
// - `code << 32 | i` packs a sort key (quiet); `1u << octant`, `1u << (len - 1)`
//   and __popc / __ffs of bitmap words and child masks are no lane bits (quiet).
#include <cuda_runtime.h>
#include <cstdint>

#define NUM_BANKS 32                                                           // quiet: W64-LANE-MATH
#define LOG_NUM_BANKS 5                                                        // quiet: W64-LANE-MATH
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

__device__ __forceinline__ unsigned expandBits10(unsigned v) {
  v = (v * 0x00010001u) & 0xFF0000FFu;
  v = (v * 0x00000101u) & 0x0F00F00Fu;
  v = (v * 0x00000011u) & 0xC30C30C3u;
  v = (v * 0x00000005u) & 0x49249249u;
  return v;
}

// 30-bit Morton codes of points in [lo, lo + extent), with 64-bit sort keys that
// break ties by point index.
__global__ void mortonCodes(const float3* __restrict__ pts, int n, float3 lo, float3 invExtent,
                            unsigned* __restrict__ codes, unsigned long long* __restrict__ keys) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float3 p = pts[i];
  const unsigned x = min(max(__float2int_rd((p.x - lo.x) * invExtent.x * 1024.f), 0), 1023);
  const unsigned y = min(max(__float2int_rd((p.y - lo.y) * invExtent.y * 1024.f), 0), 1023);
  const unsigned z = min(max(__float2int_rd((p.z - lo.z) * invExtent.z * 1024.f), 0), 1023);
  const unsigned code = (expandBits10(x) << 2) | (expandBits10(y) << 1) | expandBits10(z);
  codes[i] = code;
  keys[i] = (static_cast<unsigned long long>(code) << 32) | static_cast<unsigned>(i);   // quiet: W64-LANE-MATH
}

// Length of the common prefix of codes i and j (Karras 2012); -1 outside [0, n).
__device__ __forceinline__ int commonPrefix(const unsigned* __restrict__ codes, int n, int i, int j) {
  if (j < 0 || j >= n) return -1;
  const unsigned a = codes[i], b = codes[j];
  return a != b ? __clz(a ^ b) : 32 + __clz(i ^ j);                            // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
}

// Internal node i of the binary radix tree over n sorted codes; leaves are numbered
// after the n - 1 internal nodes.
__global__ void karrasInternalNodes(const unsigned* __restrict__ codes, int n, int2* __restrict__ children,
                                    int* __restrict__ parent) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n - 1) return;
  const int d = commonPrefix(codes, n, i, i + 1) - commonPrefix(codes, n, i, i - 1) >= 0 ? 1 : -1;
  const int dmin = commonPrefix(codes, n, i, i - d);
  int lmax = 2;
  while (commonPrefix(codes, n, i, i + lmax * d) > dmin) lmax <<= 1;
  int l = 0;
  for (int t = lmax >> 1; t >= 1; t >>= 1)
    if (commonPrefix(codes, n, i, i + (l + t) * d) > dmin) l += t;
  const int j = i + l * d;
  const int dnode = commonPrefix(codes, n, i, j);
  int s = 0;
  for (int t = (l + 1) >> 1;; t = (t + 1) >> 1) {
    if (commonPrefix(codes, n, i, i + (s + t) * d) > dnode) s += t;
    if (t == 1) break;
  }
  const int gamma = i + s * d + min(d, 0);
  const int left = min(i, j) == gamma ? (n - 1) + gamma : gamma;
  const int right = max(i, j) == gamma + 1 ? (n - 1) + gamma + 1 : gamma + 1;
  children[i] = make_int2(left, right);
  parent[left] = i;
  parent[right] = i;
}

// Octree level: the 8-bit child mask of each node, then its child count.
__global__ void octreeChildMasks(const unsigned* __restrict__ codes, int n, int level, unsigned* __restrict__ childMask) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned node = codes[i] >> (3 * (level + 1));
  const unsigned octant = (codes[i] >> (3 * level)) & 7u;
  atomicOr(&childMask[node], 1u << octant);                                    // quiet: W64-BALLOT-NARROW
}

__global__ void octreeChildCounts(const unsigned* __restrict__ childMask, int nodes, int* __restrict__ childCount,
                                  int* __restrict__ firstChild) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nodes) return;
  childCount[k] = __popc(childMask[k]);                                        // quiet: W64-BALLOT-NARROW
  firstChild[k] = __ffs(childMask[k]) - 1;                                     // quiet: W64-BALLOT-NARROW
}

// Multi-pattern Shift-And (bitap): thread p runs pattern p (at most 32 characters)
// over the text; a match of pattern p ending at position i sets bit p % 32 of word
// p / 32 of that position's hit row.
__global__ void shiftAndMulti(const unsigned char* __restrict__ text, int n, const uint32_t* __restrict__ charMasks,
                              const int* __restrict__ patLen, int P, int wordsPerRow, uint32_t* __restrict__ hitRows) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= P) return;
  const uint32_t* B = charMasks + static_cast<size_t>(p) * 256;
  const uint32_t accept = 1u << (patLen[p] - 1);                               // quiet: W64-BALLOT-NARROW
  uint32_t D = 0;
  for (int i = 0; i < n; ++i) {
    D = ((D << 1) | 1u) & B[text[i]];
    if (D & accept) atomicOr(&hitRows[static_cast<size_t>(i) * wordsPerRow + p / 32], 1u << (p % 32));   // quiet: W64-LANE-MATH, W64-BALLOT-NARROW
  }
}

// Transposes the position-major match-score matrix (rows x cols floats) through a
// padded 32 x 33 tile; 256 threads per block, each moving four elements.
__global__ void transposeScores(const float* __restrict__ in, int rows, int cols, float* __restrict__ out) {
  __shared__ float tile[32][33];                                               // quiet: W64-WARP-COUNT
  const int t = threadIdx.x;
  const int r = t / 32, c = t % 32;                                            // quiet: W64-LANE-MATH
  const int r0 = blockIdx.y * 32, c0 = blockIdx.x * 32;                        // quiet: W64-LANE-MATH
  for (int rr = r; rr < 32; rr += 8)                                           // quiet: W64-LANE-MATH
    if (r0 + rr < rows && c0 + c < cols) tile[rr][c] = in[static_cast<size_t>(r0 + rr) * cols + c0 + c];
  __syncthreads();
  for (int rr = r; rr < 32; rr += 8)                                           // quiet: W64-LANE-MATH
    if (c0 + rr < cols && r0 + c < rows) out[static_cast<size_t>(c0 + rr) * rows + r0 + c] = tile[c][rr];
}

__device__ __forceinline__ float sceneSdf(float3 p) {
  const float sphere = sqrtf(p.x * p.x + p.y * p.y + p.z * p.z) - 1.f;
  const float qx = fabsf(p.x - 1.5f) - 0.5f, qy = fabsf(p.y) - 0.5f, qz = fabsf(p.z) - 0.5f;
  const float box = sqrtf(fmaxf(qx, 0.f) * fmaxf(qx, 0.f) + fmaxf(qy, 0.f) * fmaxf(qy, 0.f) + fmaxf(qz, 0.f) * fmaxf(qz, 0.f)) +
                    fminf(fmaxf(qx, fmaxf(qy, qz)), 0.f);
  return fminf(sphere, box);
}

// Marks the voxels whose centre lies within half a diagonal of the surface.
__global__ void buildOccupancy(int res, float3 lo, float cell, uint32_t* __restrict__ occ) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= res * res * res) return;
  const int x = v % res, y = (v / res) % res, z = v / (res * res);
  const float3 c = make_float3(lo.x + (x + 0.5f) * cell, lo.y + (y + 0.5f) * cell, lo.z + (z + 0.5f) * cell);
  if (fabsf(sceneSdf(c)) > 0.8660254f * cell) return;
  const unsigned word = static_cast<unsigned>(v) >> 5;                         // quiet: W64-LANE-MATH
  const unsigned bit = static_cast<unsigned>(v) & 31u;                         // quiet: W64-LANE-MATH
  atomicOr(&occ[word], 1u << bit);                                             // quiet: W64-BALLOT-NARROW
}

// Sphere tracing that skips empty voxels; one thread per pixel ray, rays numbered
// row-major in packets of 32 for the adaptive re-trace.
__global__ void rayMarch(int width, int height, float3 eye, float fovScale, const uint32_t* __restrict__ occ,
                         int res, float3 lo, float cell, float* __restrict__ depth, int* __restrict__ packetHits) {
  const int ray = blockIdx.x * blockDim.x + threadIdx.x;
  if (ray >= width * height) return;
  const int px = ray % width, py = ray / width;
  float3 dir = make_float3((2.f * (px + 0.5f) / width - 1.f) * fovScale, (1.f - 2.f * (py + 0.5f) / height) * fovScale, -1.f);
  const float inv = rsqrtf(dir.x * dir.x + dir.y * dir.y + dir.z * dir.z);
  dir = make_float3(dir.x * inv, dir.y * inv, dir.z * inv);
  float t = 0.f;
  bool hit = false;
  for (int step = 0; step < 256 && t < 20.f; ++step) {
    const float3 p = make_float3(eye.x + t * dir.x, eye.y + t * dir.y, eye.z + t * dir.z);
    const int vx = __float2int_rd((p.x - lo.x) / cell), vy = __float2int_rd((p.y - lo.y) / cell), vz = __float2int_rd((p.z - lo.z) / cell);
    if (vx >= 0 && vy >= 0 && vz >= 0 && vx < res && vy < res && vz < res) {
      const int v = (vz * res + vy) * res + vx;
      if (!((occ[v >> 5] >> (v & 31)) & 1u)) { t += cell; continue; }          // quiet: W64-LANE-MATH
    }
    const float d = sceneSdf(p);
    if (d < 1e-3f) { hit = true; break; }
    t += d;
  }
  depth[ray] = hit ? t : -1.f;
  if (hit) atomicAdd(&packetHits[ray >> 5], 1);                                // note: W64-LANE-MATH
}

// Exclusive scan of n <= 2 * blockDim.x packet counts (Blelloch, bank-padded).
__global__ void scanPacketCounts(const int* __restrict__ in, int n, int* __restrict__ out) {
  extern __shared__ int temp[];
  const int thid = threadIdx.x;
  const int ai = thid, bi = thid + n / 2;
  const int bankOffsetA = CONFLICT_FREE_OFFSET(ai);                            // quiet: W64-LANE-MATH, W64-WARP-COUNT
  const int bankOffsetB = CONFLICT_FREE_OFFSET(bi);                            // quiet: W64-LANE-MATH, W64-WARP-COUNT
  temp[ai + bankOffsetA] = ai < n ? in[ai] : 0;
  temp[bi + bankOffsetB] = bi < n ? in[bi] : 0;
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a); b += CONFLICT_FREE_OFFSET(b);              // quiet: W64-LANE-MATH, W64-WARP-COUNT
      temp[b] += temp[a];
    }
    offset *= 2;
  }
  if (thid == 0) temp[n - 1 + CONFLICT_FREE_OFFSET(n - 1)] = 0;
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a); b += CONFLICT_FREE_OFFSET(b);              // quiet: W64-LANE-MATH, W64-WARP-COUNT
      const int x = temp[a]; temp[a] = temp[b]; temp[b] += x;
    }
  }
  __syncthreads();
  if (ai < n) out[ai] = temp[ai + bankOffsetA];
  if (bi < n) out[bi] = temp[bi + bankOffsetB];
}

// Compacts the indices of the rays that hit, with warp-aggregated atomics.
__global__ void compactHits(const float* __restrict__ depth, int nRays, int* __restrict__ list, int* __restrict__ count) {
  const int ray = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;                                           // expect: W64-LANE-MATH
  const bool hit = ray < nRays && depth[ray] >= 0.f;
  const unsigned ballot = __ballot_sync(0xffffffff, hit);                      // expect: W64-MASK32, W64-BALLOT-NARROW
  int base = 0;
  if (lane == 0 && ballot) base = atomicAdd(count, __popc(ballot));            // expect: W64-BALLOT-NARROW
  base = __shfl_sync(0xffffffff, base, 0);                                     // expect: W64-MASK32
  if (hit) list[base + __popc(ballot & ((1u << lane) - 1))] = ray;             // expect: W64-BALLOT-NARROW
}

void tracePackets(int width, int height, float3 eye, const uint32_t* occ, int res, float3 lo, float cell,
                  float* depth, int* packetHits, int* packetOffsets, int* list, int* count) {
  const int rays = width * height;
  rayMarch<<<(rays + 255) / 256, 256>>>(width, height, eye, 0.577f, occ, res, lo, cell, depth, packetHits);
  const int packets = (rays + 31) / 32;                                       // quiet: W64-BLOCK-SIZE, W64-WARP-COUNT
  const int threads = (packets + 1) / 2;
  const size_t smem = (2 * threads + (2 * threads) / NUM_BANKS) * sizeof(int);   // quiet: W64-BLOCK-SIZE
  scanPacketCounts<<<1, threads, smem>>>(packetHits, packets, packetOffsets);
  compactHits<<<(rays + 255) / 256, 256>>>(depth, rays, list, count);
}
