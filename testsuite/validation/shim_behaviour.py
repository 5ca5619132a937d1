#!/usr/bin/env python3
"""Runs the AMD code of cu2dcu's generated device shims on an NVIDIA GPU, as
CUDA device code, against CUDA's own functions, and the float-routed fp16
conversions against CUDA's constructors:

- the directed-rounding shims (mappings/tools/api_shims.py) against CUDA's
  __fadd_rd, ..., __dsqrt_rz on the same operands (every binade, subnormals,
  zeros, infinities, NaN);
- atomicInc_system / atomicDec_system's atomicCAS_system loops against CUDA's,
  under contention from the whole grid;
- atomicAdd on __half, __half2 and __nv_bfloat16 (the shims' atomicCAS loops
  on a shared 32-bit word) against CUDA's, with sums that are exact in the
  type, the two halves of one word added to by alternate threads;
- atomicAdd and atomicAdd_system on float2 and float4 (the shims' per-element
  float atomics) against CUDA's, every thread of the grid adding to one vector;
- __hmax2 / __hmin2 on __half2 (the shims' per-lane rule) against CUDA's, bit
  for bit, on 16.7M lane pairs of 16-bit patterns;
- the 16-bit lane shims (unordered comparisons on __half and __half2, HIP
  5.2's being ordered; the bfloat16 pair comparisons, _sat (fused ones
  included) and _nan forms HIP 6.4 lacks) against CUDA's, bit for bit, on
  16.7M operand pairs (or triples) each;
- __half(static_cast<float>(b)) against __half(b), and the reverse, for every
  16-bit pattern (Fp16ConversionTranslator's rewrite).

Needs nvcc and a GPU (the H200 through the device tool); writes JSON with the
number of differences of each, and exits 1 on any difference."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "mappings", "tools"))
sys.path.insert(0, os.path.join(REPO, "testsuite", "maps"))
import api_shims  # noqa: E402
from directed_rounding_test import amd_code  # noqa: E402

# nvcc's device front end spells clang's classification built-ins as CUDA's math.
PRELUDE = r'''
#include <cstdio>
#include <cstdint>
#include <random>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#define __builtin_isinf(x) isinf(x)
#define __builtin_isfinite(x) isfinite(x)
#define __builtin_signbit(x) signbit(x)
#define __builtin_fabs(x) fabs(x)
#define __builtin_memcpy memcpy
#define __hip_bfloat16 __nv_bfloat16
#define __hip_bfloat162 __nv_bfloat162
'''

MAIN = r'''
template <typename T> T pick(std::mt19937_64 &rng) {
  const T edges[] = {(T)0.0, (T)-0.0, (T)1.0, (T)-1.0, (T)3.0, (T)0.1, (T)INFINITY, (T)-INFINITY, (T)NAN,
                     std::numeric_limits<T>::max(), std::numeric_limits<T>::min(),
                     std::numeric_limits<T>::denorm_min(), -std::numeric_limits<T>::denorm_min()};
  unsigned choice = rng() % 8;
  if (choice == 0) return edges[rng() % (sizeof edges / sizeof edges[0])];
  int range = std::numeric_limits<T>::max_exponent, digits = std::numeric_limits<T>::digits;
  int exponent = choice <= 2 ? (int)(rng() % (2 * range + digits)) - range - digits : (int)(rng() % 40) - 20;
  T mantissa = (T)(rng() >> 11) / (T)(1ull << 53) + (T)0.5;
  return (rng() & 1 ? -1 : 1) * std::ldexp(mantissa, exponent);
}
template <typename T> __device__ bool same(T x, T y) {
  if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
  return x == y && signbit(x) == signbit(y);
}
template <typename T, typename Op> __global__ void compare(const T *a, const T *b, int n, Op op,
                                                          unsigned long long *differences) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && !op(a[i], b[i])) atomicAdd(differences, 1ull);
}
template <typename T, typename Op> unsigned long long run(Op op) {
  const int n = 1 << 20;
  std::mt19937_64 rng(2026);
  T *a, *b;
  unsigned long long *differences;
  cudaMallocManaged(&a, n * sizeof(T));
  cudaMallocManaged(&b, n * sizeof(T));
  cudaMallocManaged(&differences, sizeof *differences);
  for (int i = 0; i < n; ++i) a[i] = pick<T>(rng), b[i] = pick<T>(rng);
  *differences = 0;
  compare<<<n / 256, 256>>>(a, b, n, op, differences);
  cudaDeviceSynchronize();
  unsigned long long result = *differences;
  cudaFree(a); cudaFree(b); cudaFree(differences);
  return result;
}
__global__ void wrap(unsigned *counters, unsigned limit) {
  atomicInc_system(&counters[0], limit);
  cu2dcu_atomicInc_system(&counters[1], limit);
  atomicDec_system(&counters[2], limit);
  cu2dcu_atomicDec_system(&counters[3], limit);
}
// Alternate threads add to the two halves of one word; every sum is exact.
__global__ void fp16_atomics(__half *shim_h, __half *cuda_h, __half2 *shim_h2, __half2 *cuda_h2,
                             __nv_bfloat16 *shim_b, __nv_bfloat16 *cuda_b) {
  int odd = threadIdx.x & 1;
  __half step = __float2half(odd ? 2.0f : 1.0f);
  cu2dcu_atomicAdd_half(&shim_h[odd], step);
  atomicAdd(&cuda_h[odd], step);
  __half2 pair = __floats2half2_rn(1.0f, -1.0f);
  cu2dcu_atomicAdd_half(shim_h2, pair);
  atomicAdd(cuda_h2, pair);
  if (threadIdx.x < 512) {
    cu2dcu_atomicAdd_bf16(&shim_b[odd], __float2bfloat16(1.0f));
    atomicAdd(&cuda_b[odd], __float2bfloat16(1.0f));
  }
}
// Every thread adds the same vector: the totals are exact integers.
__global__ void vector_atomics(float2 *f2, float4 *f4) {
  float2 step2 = make_float2(1.0f, 2.0f);
  float4 step4 = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
  cu2dcu_atomicAdd_vector(&f2[0], step2);
  atomicAdd(&f2[1], step2);
  cu2dcu_atomicAdd_system_vector(&f2[2], step2);
  atomicAdd_system(&f2[3], step2);
  cu2dcu_atomicAdd_vector(&f4[0], step4);
  atomicAdd(&f4[1], step4);
  cu2dcu_atomicAdd_system_vector(&f4[2], step4);
  atomicAdd_system(&f4[3], step4);
}
// Every pair of lanes from a spread of 16-bit patterns (all NaNs, zeros,
// infinities and subnormals among them), compared bit for bit.
__global__ void half2_max_min(unsigned long long *differences) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned short p = (unsigned short)(i * 2654435761u >> 16), q = (unsigned short)i;
  __half2 a = __halves2half2(__ushort_as_half(p), __ushort_as_half(q));
  __half2 b = __halves2half2(__ushort_as_half(q), __ushort_as_half((unsigned short)(p ^ 0x8000)));
  __half2 shim_max = cu2dcu_hmax2_half2(a, b), cuda_max = __hmax2(a, b);
  __half2 shim_min = cu2dcu_hmin2_half2(a, b), cuda_min = __hmin2(a, b);
  unsigned int bits[4];
  __builtin_memcpy(&bits[0], &shim_max, 4);
  __builtin_memcpy(&bits[1], &cuda_max, 4);
  __builtin_memcpy(&bits[2], &shim_min, 4);
  __builtin_memcpy(&bits[3], &cuda_min, 4);
  if (bits[0] != bits[1]) atomicAdd(&differences[0], 1ull);
  if (bits[2] != bits[3]) atomicAdd(&differences[1], 1ull);
}
// The 16-bit lane shims (api_shims.LANE_SHIMS) against CUDA's own, bit for
// bit, on 16.7M operand pairs of 16-bit patterns: every pattern as b, with
// 256 patterns as a, the first 16 of them zeros, ones, subnormals,
// infinities and NaNs of both types; pairs take them in both lanes, swapped.
__device__ __half lane_value(__half, unsigned short u) { return __ushort_as_half(u); }
__device__ __nv_bfloat16 lane_value(__nv_bfloat16, unsigned short u) { return __ushort_as_bfloat16(u); }
__device__ __half2 lane_value(__half2, unsigned short u, unsigned short v) {
  return __halves2half2(__ushort_as_half(u), __ushort_as_half(v));
}
__device__ __nv_bfloat162 lane_value(__nv_bfloat162, unsigned short u, unsigned short v) {
  return __halves2bfloat162(__ushort_as_bfloat16(u), __ushort_as_bfloat16(v));
}
template <typename R> __device__ unsigned bits_of(R r) {
  unsigned u = 0;
  __builtin_memcpy(&u, &r, sizeof r);
  return u;
}
// A third operand for the fused forms: a spread pattern, or one near a * b.
__device__ unsigned short third(unsigned int i, unsigned short p, unsigned short q) {
  unsigned h = i * 2246822519u;
  h ^= h >> 13;
  return (i & 1) ? (unsigned short)(h >> 8) : (unsigned short)(((p + q) ^ 0x8000) + (h >> 28) - 0x3f80);
}
template <typename T, typename Shim, typename Cuda>
__global__ void lanes3(unsigned long long *differences, Shim shim, Cuda cuda) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned short p = (unsigned short)(i * 2654435761u >> 16), q = (unsigned short)i, r = third(i, p, q);
  T a, b, c;
  if constexpr (sizeof(T) == 2) {
    a = lane_value(T(), p);
    b = lane_value(T(), q);
    c = lane_value(T(), r);
  } else {
    a = lane_value(T(), p, q);
    b = lane_value(T(), q, p);
    c = lane_value(T(), r, third(i ^ 1, q, p));
  }
  if (bits_of(shim(a, b, c)) != bits_of(cuda(a, b, c))) atomicAdd(differences, 1ull);
}
template <typename T, typename Shim, typename Cuda>
__global__ void lanes(unsigned long long *differences, Shim shim, Cuda cuda) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned short specials[16] = {0x0000, 0x8000, 0x0001, 0x8001, 0x3c00, 0xbc00, 0x3f80, 0xbf80,
                                       0x7c00, 0xfc00, 0x7f80, 0xff80, 0x7e00, 0x7fc0, 0xffff, 0x7bff};
  unsigned short p = (i >> 16) < 16 ? specials[i >> 16] : (unsigned short)(i * 2654435761u >> 16);
  unsigned short q = (unsigned short)i;
  T a, b;
  if constexpr (sizeof(T) == 2) {
    a = lane_value(T(), p);
    b = lane_value(T(), q);
  } else {
    a = lane_value(T(), p, q);
    b = lane_value(T(), q, (unsigned short)(p ^ 0x8000));
  }
  if (bits_of(shim(a, b)) != bits_of(cuda(a, b))) atomicAdd(differences, 1ull);
}
template <typename T, int Arity, typename Shim, typename Cuda>
unsigned long long lane_differences(Shim shim, Cuda cuda) {
  static unsigned long long *differences;
  if (!differences) cudaMallocManaged(&differences, sizeof *differences);
  *differences = 0;
  if constexpr (Arity == 3)
    lanes3<T><<<65536, 256>>>(differences, shim, cuda);
  else
    lanes<T><<<65536, 256>>>(differences, shim, cuda);
  cudaDeviceSynchronize();
  return *differences;
}
__global__ void conversions(unsigned long long *differences) {
  unsigned short bits = (unsigned short)(blockIdx.x * blockDim.x + threadIdx.x);
  __nv_bfloat16 b = __ushort_as_bfloat16(bits);
  __half h = __ushort_as_half(bits);
  __half from_b = __half(b), via_float = __half(static_cast<float>(b));
  __nv_bfloat16 from_h = __nv_bfloat16(h), via_float_b = __nv_bfloat16(static_cast<float>(h));
  if (__half_as_ushort(from_b) != __half_as_ushort(via_float) && !(__hisnan(from_b) && __hisnan(via_float)))
    atomicAdd(&differences[0], 1ull);
  if (__bfloat16_as_ushort(from_h) != __bfloat16_as_ushort(via_float_b) &&
      !(__hisnan(from_h) && __hisnan(via_float_b)))
    atomicAdd(&differences[1], 1ull);
}
int main() {
  printf("{\n");
%(checks)s
  unsigned *counters;
  cudaMallocManaged(&counters, 4 * sizeof(unsigned));
  for (int i = 0; i < 4; ++i) counters[i] = 7;
  wrap<<<4096, 256>>>(counters, 1000);
  cudaDeviceSynchronize();
  printf("  \"atomicInc_system\": %d,\n  \"atomicDec_system\": %d,\n", counters[0] != counters[1],
         counters[2] != counters[3]);
  __half *h;
  __half2 *h2;
  __nv_bfloat16 *b;
  cudaMallocManaged(&h, 4 * sizeof *h);
  cudaMallocManaged(&h2, 2 * sizeof *h2);
  cudaMallocManaged(&b, 4 * sizeof *b);
  cudaMemset(h, 0, 4 * sizeof *h);
  cudaMemset(h2, 0, 2 * sizeof *h2);
  cudaMemset(b, 0, 4 * sizeof *b);
  fp16_atomics<<<1, 1024>>>(h, h + 2, h2, h2 + 1, b, b + 2);
  cudaDeviceSynchronize();
  int atomic_differences = 0;
  for (int i = 0; i < 2; ++i) {
    atomic_differences += __half2float(h[i]) != __half2float(h[2 + i]) || __half2float(h[i]) != 512.0f * (i + 1);
    atomic_differences += __bfloat162float(b[i]) != __bfloat162float(b[2 + i]) || __bfloat162float(b[i]) != 256.0f;
  }
  atomic_differences += __low2float(h2[0]) != 1024.0f || __high2float(h2[0]) != -1024.0f ||
                        __low2float(h2[1]) != 1024.0f || __high2float(h2[1]) != -1024.0f;
  printf("  \"atomicAdd(__half, __half2, __nv_bfloat16)\": %d,\n", atomic_differences);
  float2 *f2;
  float4 *f4;
  cudaMallocManaged(&f2, 4 * sizeof *f2);
  cudaMallocManaged(&f4, 4 * sizeof *f4);
  cudaMemset(f2, 0, 4 * sizeof *f2);
  cudaMemset(f4, 0, 4 * sizeof *f4);
  vector_atomics<<<64, 256>>>(f2, f4);
  cudaDeviceSynchronize();
  int vector_differences = 0;
  for (int i = 0; i < 4; ++i)
    vector_differences += f2[i].x != 16384.0f || f2[i].y != 32768.0f || f4[i].x != 16384.0f ||
                          f4[i].y != 32768.0f || f4[i].z != 49152.0f || f4[i].w != 65536.0f;
  printf("  \"atomicAdd(float2, float4), atomicAdd_system\": %d,\n", vector_differences);
  unsigned long long *differences;
  cudaMallocManaged(&differences, 2 * sizeof *differences);
  differences[0] = differences[1] = 0;
  half2_max_min<<<65536, 256>>>(differences);
  cudaDeviceSynchronize();
  printf("  \"__hmax2(__half2)\": %llu,\n  \"__hmin2(__half2)\": %llu,\n", differences[0],
         differences[1]);
  differences[0] = differences[1] = 0;
  conversions<<<256, 256>>>(differences);
  cudaDeviceSynchronize();
  printf("  \"__half(__nv_bfloat16)\": %llu,\n  \"__nv_bfloat16(__half)\": %llu\n}\n", differences[0],
         differences[1]);
  return cudaGetLastError() != cudaSuccess;
}
'''


def source():
    files = api_shims.shim_files()
    parts = [PRELUDE, amd_code(files[api_shims.ROUNDING_HELPER + ".yaml"])]
    for op in ("Inc", "Dec"):
        parts.append(amd_code(files[api_shims.shim_name("atomic%s_system" % op) + ".yaml"]))
    for shim in (list(api_shims.FP16_ATOMIC_ADD) + list(api_shims.VECTOR_ATOMIC_ADD.values()) +
                 [api_shims.half2_shim_name(n) for n in api_shims.HALF2_LANEWISE]):
        parts.append(amd_code(files[shim + ".yaml"]))
    checks = []
    for stem, (_, arity) in api_shims.ROUNDED_OPS.items():
        real = "float" if stem.startswith("f") else "double"
        for mode in api_shims.ROUNDING_MODES:
            cuda = "__%s_%s" % (stem, mode)
            parts.append(amd_code(files[api_shims.shim_name(cuda) + ".yaml"]))
            args = "a, b" if arity == 2 else "a"
            checks.append('  printf("  \\"%s\\": %%llu,\\n", run<%s>([] __device__ (%s a, %s b) '
                          '{ (void)b; return same(%s(%s), %s(%s)); }));'
                          % (cuda, real, real, real, api_shims.shim_name(cuda), args, cuda, args))
    for cuda, keys in api_shims.LANE_SHIMS.items():
        for key in keys:
            shim, param = api_shims.lane_shim_name(cuda, key), api_shims.shim_param(cuda, key)
            parts.append(amd_code(files[shim + ".yaml"]))
            names = "abc"[:api_shims.lane_arity(cuda)]
            params = ", ".join("%s %s" % (param, n) for n in names)
            call = lambda f: "[] __device__ (%s) { return %s(%s); }" % (params, f, ", ".join(names))
            checks.append('  printf("  \\"%s(%s)\\": %%llu,\\n", lane_differences<%s, %d>(%s, %s));'
                          % (cuda, param, param, len(names), call(shim), call(cuda)))
    return "\n".join(parts) + MAIN.replace("%(checks)s", "\n".join(checks))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--out", required=True, help="JSON file to write")
    ap.add_argument("--source-only", action="store_true", help="write the CUDA source and stop")
    a = ap.parse_args()
    if a.source_only:
        open(a.out, "w").write(source())
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "shims.cu"), os.path.join(tmp, "shims")
        open(src, "w").write(source())
        # -fmad=false: the shims' code is written for contraction off.
        build = subprocess.run([a.nvcc, "-arch=sm_90", "-std=c++17", "-O2", "-fmad=false",
                                "--extended-lambda", "-w", "-o", exe, src], capture_output=True, text=True)
        if build.returncode != 0:
            print(build.stderr[-4000:])
            return 1
        run = subprocess.run([exe], capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stdout + run.stderr)
            return 1
        results = json.loads(run.stdout)
    report = {"what": __doc__.split("\n\n")[0], "differences": results,
              "total": sum(results.values())}
    json.dump(report, open(a.out, "w"), indent=1)
    print("%d differences" % report["total"])
    return 0 if report["total"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
