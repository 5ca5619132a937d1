#!/usr/bin/env python3
"""Writes a synthetic but realistic CUDA source tree for the throughput benchmark.

The tree looks like a mid-sized CUDA application: shared project headers
(error-check macros, configuration macros, templated device helpers, library
wrappers), modules of translation units of several kinds, per-module headers,
host-only C++ files without CUDA, and build/doc files that are only copied.

Every translation unit parses as CUDA against the installed CUDA headers (the
benchmark checks that with --mode=ast), and uses what real code uses:
templates, macros, shared memory, warp shuffles, streams and events, cuBLAS,
cuRAND (host and device API), Thrust, CUB and the C++ standard library.

Half of the .cu files start with system includes, the other half with a
project header that pulls them in, as real projects do.

The output is a pure function of (--units, --seed): the same arguments give
the same bytes.

  gen_corpus.py OUT_DIR --units 200 [--seed 1] [--samples samples-cuda]
"""

import argparse
import os
import random
import shutil
import sys

# --- shared project headers -------------------------------------------------

COMMON_H = """\
// Project-wide CUDA helpers: error checking, launch geometry, timing.
#ifndef PROJ_COMMON_H
#define PROJ_COMMON_H

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "proj/config.h"

#define CUDA_CHECK(call)                                                        \\
    do {                                                                        \\
        cudaError_t err_ = (call);                                              \\
        if (err_ != cudaSuccess) {                                              \\
            std::fprintf(stderr, "CUDA error %s at %s:%d: %s\\n",                \\
                         cudaGetErrorName(err_), __FILE__, __LINE__,            \\
                         cudaGetErrorString(err_));                             \\
            std::exit(1);                                                       \\
        }                                                                       \\
    } while (0)

#define CUDA_CHECK_LAST() CUDA_CHECK(cudaGetLastError())

namespace proj {

inline unsigned blocks_for(size_t n, unsigned block = PROJ_BLOCK) {
    return static_cast<unsigned>((n + block - 1) / block);
}

inline int device_count() {
    int n = 0;
    CUDA_CHECK(cudaGetDeviceCount(&n));
    return n;
}

inline void print_device(int dev) {
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    std::printf("%s: %d SMs, warp %d, %zu bytes shared/block\\n", prop.name,
                prop.multiProcessorCount, prop.warpSize, prop.sharedMemPerBlock);
}

template <typename T>
T *device_alloc(size_t n) {
    T *p = nullptr;
    CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
    return p;
}

template <typename T>
void device_free(T *p) {
    CUDA_CHECK(cudaFree(p));
}

template <typename T>
void upload(T *dst, const std::vector<T> &src, cudaStream_t s = 0) {
    CUDA_CHECK(cudaMemcpyAsync(dst, src.data(), src.size() * sizeof(T),
                               cudaMemcpyHostToDevice, s));
}

template <typename T>
void download(std::vector<T> &dst, const T *src, cudaStream_t s = 0) {
    CUDA_CHECK(cudaMemcpyAsync(dst.data(), src, dst.size() * sizeof(T),
                               cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
}

class GpuTimer {
public:
    GpuTimer() {
        CUDA_CHECK(cudaEventCreate(&start_));
        CUDA_CHECK(cudaEventCreate(&stop_));
    }
    ~GpuTimer() {
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
    }
    void start(cudaStream_t s = 0) { CUDA_CHECK(cudaEventRecord(start_, s)); }
    float stop(cudaStream_t s = 0) {
        float ms = 0.0f;
        CUDA_CHECK(cudaEventRecord(stop_, s));
        CUDA_CHECK(cudaEventSynchronize(stop_));
        CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
        return ms;
    }

private:
    cudaEvent_t start_, stop_;
};

} // namespace proj

#endif // PROJ_COMMON_H
"""

CONFIG_H = """\
// Build configuration shared by host and device code.
#pragma once

#ifndef PROJ_BLOCK
#define PROJ_BLOCK 256
#endif

#define PROJ_WARP 32
#define PROJ_TILE 16
#define PROJ_ITEMS_PER_THREAD 4

#if defined(PROJ_USE_DOUBLE)
typedef double real_t;
#else
typedef float real_t;
#endif

#define PROJ_DIV_UP(a, b) (((a) + (b) - 1) / (b))
#define PROJ_LAUNCH(kernel, grid, block, ...) kernel<<<(grid), (block)>>>(__VA_ARGS__)
"""

DEVICE_MATH_CUH = """\
// Templated device helpers: warp and block reductions, scans, math.
#pragma once

#include <cuda_runtime.h>
#include <cstdint>
#include <type_traits>

#include "proj/config.h"

namespace proj {

template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
    for (int offset = PROJ_WARP / 2; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

template <typename T>
__device__ __forceinline__ T warp_max(T v) {
    for (int offset = PROJ_WARP / 2; offset > 0; offset >>= 1)
        v = max(v, __shfl_xor_sync(0xffffffffu, v, offset));
    return v;
}

template <typename T, int BLOCK>
__device__ T block_sum(T v) {
    static __shared__ T partial[BLOCK / PROJ_WARP];
    const int lane = threadIdx.x % PROJ_WARP;
    const int warp = threadIdx.x / PROJ_WARP;
    v = warp_sum(v);
    if (lane == 0)
        partial[warp] = v;
    __syncthreads();
    v = threadIdx.x < BLOCK / PROJ_WARP ? partial[lane] : T(0);
    if (warp == 0)
        v = warp_sum(v);
    return v;
}

template <typename T>
__device__ __forceinline__ T clamp01(T x) {
    return x < T(0) ? T(0) : (x > T(1) ? T(1) : x);
}

template <typename T>
__host__ __device__ inline T lerp(T a, T b, T t) {
    return a + t * (b - a);
}

__device__ __forceinline__ unsigned lane_id() {
    unsigned id;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
    return id;
}

__device__ __forceinline__ unsigned ballot_count(bool pred) {
    return __popc(__ballot_sync(0xffffffffu, pred));
}

template <typename T>
__device__ void atomic_add_vec(T *dst, T v) {
    atomicAdd(dst, v);
}

} // namespace proj
"""

BLAS_UTILS_H = """\
// cuBLAS handle management and error checking.
#ifndef PROJ_BLAS_UTILS_H
#define PROJ_BLAS_UTILS_H

#include <cublas_v2.h>

#include "proj/common.h"

#define CUBLAS_CHECK(call)                                                      \\
    do {                                                                        \\
        cublasStatus_t st_ = (call);                                            \\
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                     \\
            std::fprintf(stderr, "cuBLAS error %d at %s:%d\\n", (int)st_,         \\
                         __FILE__, __LINE__);                                   \\
            std::exit(1);                                                       \\
        }                                                                       \\
    } while (0)

namespace proj {

class BlasHandle {
public:
    explicit BlasHandle(cudaStream_t s = 0) {
        CUBLAS_CHECK(cublasCreate(&h_));
        CUBLAS_CHECK(cublasSetStream(h_, s));
        CUBLAS_CHECK(cublasSetPointerMode(h_, CUBLAS_POINTER_MODE_HOST));
    }
    ~BlasHandle() { cublasDestroy(h_); }
    cublasHandle_t get() const { return h_; }

private:
    cublasHandle_t h_;
};

} // namespace proj

#endif
"""

RNG_UTILS_CUH = """\
// cuRAND helpers: per-thread device generators and a host generator wrapper.
#pragma once

#include <curand.h>
#include <curand_kernel.h>

#include "proj/common.h"

#define CURAND_CHECK(call)                                                      \\
    do {                                                                        \\
        curandStatus_t st_ = (call);                                            \\
        if (st_ != CURAND_STATUS_SUCCESS) {                                     \\
            std::fprintf(stderr, "cuRAND error %d at %s:%d\\n", (int)st_,         \\
                         __FILE__, __LINE__);                                   \\
            std::exit(1);                                                       \\
        }                                                                       \\
    } while (0)

namespace proj {

__global__ void rng_setup(curandState *states, unsigned long long seed, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        curand_init(seed, i, 0, &states[i]);
}

inline void fill_uniform(float *d, size_t n, unsigned long long seed) {
    curandGenerator_t gen;
    CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
    CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, seed));
    CURAND_CHECK(curandGenerateUniform(gen, d, n));
    CURAND_CHECK(curandDestroyGenerator(gen));
}

} // namespace proj
"""

THRUST_UTILS_H = """\
// Thrust conveniences.
#pragma once

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/functional.h>
#include <thrust/sequence.h>

namespace proj {

template <typename T>
struct scale_by {
    T factor;
    __host__ __device__ T operator()(T x) const { return x * factor; }
};

template <typename T>
T sum(const thrust::device_vector<T> &v) {
    return thrust::reduce(v.begin(), v.end(), T(0), thrust::plus<T>());
}

} // namespace proj
"""

CUB_UTILS_CUH = """\
// CUB block-level primitives used by several modules.
#pragma once

#include <cub/cub.cuh>

#include "proj/config.h"

namespace proj {

template <int BLOCK, typename T>
__device__ T cub_block_sum(T v) {
    using BlockReduce = cub::BlockReduce<T, BLOCK>;
    __shared__ typename BlockReduce::TempStorage temp;
    return BlockReduce(temp).Sum(v);
}

} // namespace proj
"""

SHARED_HEADERS = {
    "include/proj/common.h": COMMON_H,
    "include/proj/config.h": CONFIG_H,
    "include/proj/device_math.cuh": DEVICE_MATH_CUH,
    "include/proj/blas_utils.h": BLAS_UTILS_H,
    "include/proj/rng_utils.cuh": RNG_UTILS_CUH,
    "include/proj/thrust_utils.h": THRUST_UTILS_H,
    "include/proj/cub_utils.cuh": CUB_UTILS_CUH,
}

# --- translation units ------------------------------------------------------

# Each kind: (system includes, project includes, body generator).
KINDS = ["elementwise", "reduce", "blas", "rng", "thrust", "stencil", "host_api", "cub_scan"]


def elementwise_body(r, name, n):
    ops = ["x * a + y", "x * x - a", "a / (1.0f + x * x)", "sqrtf(fabsf(x)) + y", "expf(-x) * a",
           "fmaxf(x, y) - fminf(x, a)", "sinf(x) * cosf(y)", "x - floorf(x)"]
    out = []
    for k in range(n):
        op = r.choice(ops)
        out.append(f"""
template <typename T>
__global__ void {name}_map{k}(const T *__restrict__ xs, const T *__restrict__ ys, T *out, T a,
                             size_t n) {{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {{
        float x = xs[i], y = ys[i];
        out[i] = static_cast<T>({op});
    }}
}}

void run_{name}_map{k}(size_t n, cudaStream_t stream) {{
    std::vector<float> hx(n), hy(n), hout(n);
    for (size_t i = 0; i < n; ++i) {{
        hx[i] = 0.5f * (float)(i % 97);
        hy[i] = 0.25f * (float)(i % 31);
    }}
    float *dx = proj::device_alloc<float>(n);
    float *dy = proj::device_alloc<float>(n);
    float *dout = proj::device_alloc<float>(n);
    proj::upload(dx, hx, stream);
    proj::upload(dy, hy, stream);
    dim3 block(PROJ_BLOCK);
    dim3 grid(proj::blocks_for(n));
    {name}_map{k}<float><<<grid, block, 0, stream>>>(dx, dy, dout, {k + 1}.0f, n);
    CUDA_CHECK_LAST();
    proj::download(hout, dout, stream);
    double acc = 0.0;
    for (float v : hout)
        acc += v;
    std::printf("{name}_map{k}: %g\\n", acc);
    proj::device_free(dx);
    proj::device_free(dy);
    proj::device_free(dout);
}}
""")
    return "".join(out)


def reduce_body(r, name, n):
    out = []
    for k in range(n):
        out.append(f"""
template <int BLOCK>
__global__ void {name}_sum{k}(const float *in, float *out, int n) {{
    float v = 0.0f;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK)
        v += in[i];
    v = proj::block_sum<float, BLOCK>(v);
    if (threadIdx.x == 0)
        atomicAdd(out, v);
}}

__global__ void {name}_max{k}(const float *in, float *out, int n) {{
    __shared__ float tile[PROJ_BLOCK];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : -1e30f;
    __syncthreads();
    for (int s = blockDim.x / 2; s >= PROJ_WARP; s >>= 1) {{
        if (threadIdx.x < s)
            tile[threadIdx.x] = fmaxf(tile[threadIdx.x], tile[threadIdx.x + s]);
        __syncthreads();
    }}
    float v = tile[threadIdx.x];
    if (threadIdx.x < PROJ_WARP) {{
        v = proj::warp_max(v);
        if (threadIdx.x == 0)
            out[blockIdx.x] = v;
    }}
}}

float run_{name}_sum{k}(const std::vector<float> &h) {{
    const int n = (int)h.size();
    float *din = proj::device_alloc<float>(n);
    float *dout = proj::device_alloc<float>(1);
    CUDA_CHECK(cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dout, 0, sizeof(float)));
    proj::GpuTimer timer;
    timer.start();
    {name}_sum{k}<PROJ_BLOCK><<<proj::blocks_for(n), PROJ_BLOCK>>>(din, dout, n);
    float ms = timer.stop();
    float result = 0.0f;
    CUDA_CHECK(cudaMemcpy(&result, dout, sizeof(float), cudaMemcpyDeviceToHost));
    std::printf("{name}_sum{k}: %f in %.3f ms\\n", result, ms);
    proj::device_free(din);
    proj::device_free(dout);
    return result;
}}
""")
    return "".join(out)


def blas_body(r, name, n):
    out = []
    for k in range(n):
        out.append(f"""
__global__ void {name}_bias{k}(float *c, const float *bias, int rows, int cols) {{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols)
        c[row * cols + col] += bias[col];
}}

void {name}_gemm{k}(int m, int n, int k, const float *a, const float *b, float *c,
                   const float *bias, cudaStream_t stream) {{
    proj::BlasHandle handle(stream);
    const float alpha = 1.0f, beta = 0.0f;
    CUBLAS_CHECK(cublasSgemm(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, n, a, k,
                             &beta, c, n));
    dim3 block(PROJ_TILE, PROJ_TILE);
    dim3 grid(PROJ_DIV_UP(n, PROJ_TILE), PROJ_DIV_UP(m, PROJ_TILE));
    {name}_bias{k}<<<grid, block, 0, stream>>>(c, bias, m, n);
    CUDA_CHECK_LAST();
    float norm = 0.0f;
    CUBLAS_CHECK(cublasSnrm2(handle.get(), m * n, c, 1, &norm));
    CUBLAS_CHECK(cublasSscal(handle.get(), m * n, &alpha, c, 1));
    int idx = 0;
    CUBLAS_CHECK(cublasIsamax(handle.get(), m * n, c, 1, &idx));
    std::printf("{name}_gemm{k}: |C| = %f, argmax %d\\n", norm, idx);
}}
""")
    return "".join(out)


def rng_body(r, name, n):
    out = []
    for k in range(n):
        out.append(f"""
__global__ void {name}_pi{k}(curandState *states, unsigned long long *hits, int samples) {{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState local = states[id];
    unsigned long long count = 0;
    for (int s = 0; s < samples; ++s) {{
        float x = curand_uniform(&local);
        float y = curand_uniform(&local);
        count += (x * x + y * y <= 1.0f);
    }}
    states[id] = local;
    atomicAdd(hits, count);
}}

__global__ void {name}_noise{k}(curandStatePhilox4_32_10_t *states, float *out, int n) {{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= n)
        return;
    curandStatePhilox4_32_10_t st;
    curand_init(1234ULL + {k}, id, 0, &st);
    float4 v = curand_normal4(&st);
    out[id] = v.x + v.y + v.z + v.w;
}}

double run_{name}_pi{k}(int threads, int samples) {{
    curandState *states = proj::device_alloc<curandState>(threads);
    unsigned long long *hits = proj::device_alloc<unsigned long long>(1);
    CUDA_CHECK(cudaMemset(hits, 0, sizeof(unsigned long long)));
    proj::rng_setup<<<proj::blocks_for(threads), PROJ_BLOCK>>>(states, 42ULL + {k}, threads);
    {name}_pi{k}<<<proj::blocks_for(threads), PROJ_BLOCK>>>(states, hits, samples);
    CUDA_CHECK(cudaDeviceSynchronize());
    unsigned long long h = 0;
    CUDA_CHECK(cudaMemcpy(&h, hits, sizeof(h), cudaMemcpyDeviceToHost));
    proj::device_free(states);
    proj::device_free(hits);
    float *buf = proj::device_alloc<float>(threads);
    proj::fill_uniform(buf, threads, 7ULL + {k});
    proj::device_free(buf);
    return 4.0 * (double)h / ((double)threads * samples);
}}
""")
    return "".join(out)


def thrust_body(r, name, n):
    out = []
    for k in range(n):
        out.append(f"""
struct {name}_square{k} {{
    __host__ __device__ float operator()(float x) const {{ return x * x + {k}.0f; }}
}};

float run_{name}_pipeline{k}(size_t n) {{
    thrust::device_vector<float> v(n);
    thrust::sequence(v.begin(), v.end(), 1.0f);
    thrust::transform(v.begin(), v.end(), v.begin(), {name}_square{k}());
    thrust::transform(v.begin(), v.end(), v.begin(), proj::scale_by<float>{{0.5f}});
    thrust::sort(v.begin(), v.end(), thrust::greater<float>());
    float total = proj::sum(v);
    thrust::host_vector<float> h = v;
    std::printf("{name}_pipeline{k}: first %f total %f\\n", (float)h[0], total);
    float *raw = thrust::raw_pointer_cast(v.data());
    CUDA_CHECK(cudaMemset(raw, 0, sizeof(float)));
    return total;
}}
""")
    return "".join(out)


def stencil_body(r, name, n):
    out = []
    for k in range(n):
        radius = r.choice([1, 2, 3, 4])
        out.append(f"""
template <int RADIUS>
__global__ void {name}_stencil{k}(const real_t *in, real_t *out, int nx, int ny) {{
    __shared__ real_t tile[PROJ_TILE + 2 * RADIUS][PROJ_TILE + 2 * RADIUS];
    int gx = blockIdx.x * PROJ_TILE + threadIdx.x;
    int gy = blockIdx.y * PROJ_TILE + threadIdx.y;
    int lx = threadIdx.x + RADIUS, ly = threadIdx.y + RADIUS;
    if (gx < nx && gy < ny)
        tile[ly][lx] = in[gy * nx + gx];
    if (threadIdx.x < RADIUS && gx >= RADIUS)
        tile[ly][lx - RADIUS] = in[gy * nx + gx - RADIUS];
    if (threadIdx.y < RADIUS && gy >= RADIUS)
        tile[ly - RADIUS][lx] = in[(gy - RADIUS) * nx + gx];
    __syncthreads();
    if (gx >= nx || gy >= ny)
        return;
    real_t acc = 0;
#pragma unroll
    for (int d = -RADIUS; d <= RADIUS; ++d)
        acc += tile[ly][lx + d] + tile[ly + d][lx];
    out[gy * nx + gx] = acc / (4 * RADIUS + 2);
}}

void run_{name}_stencil{k}(int nx, int ny, int steps) {{
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    real_t *a = proj::device_alloc<real_t>((size_t)nx * ny);
    real_t *b = proj::device_alloc<real_t>((size_t)nx * ny);
    CUDA_CHECK(cudaMemsetAsync(a, 0, sizeof(real_t) * nx * ny, stream));
    dim3 block(PROJ_TILE, PROJ_TILE);
    dim3 grid(PROJ_DIV_UP(nx, PROJ_TILE), PROJ_DIV_UP(ny, PROJ_TILE));
    cudaEvent_t done;
    CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    for (int s = 0; s < steps; ++s) {{
        {name}_stencil{k}<{radius}><<<grid, block, 0, stream>>>(a, b, nx, ny);
        std::swap(a, b);
    }}
    CUDA_CHECK(cudaEventRecord(done, stream));
    CUDA_CHECK(cudaEventSynchronize(done));
    CUDA_CHECK(cudaEventDestroy(done));
    CUDA_CHECK(cudaStreamDestroy(stream));
    proj::device_free(a);
    proj::device_free(b);
}}
""")
    return "".join(out)


def host_api_body(r, name, n):
    out = [f"""
static std::map<std::string, double> {name}_stats;

static void {name}_record(const std::string &key, double value) {{
    {name}_stats[key] += value;
}}
"""]
    for k in range(n):
        out.append(f"""
void {name}_transfer{k}(size_t bytes) {{
    void *host = nullptr;
    void *dev = nullptr;
    CUDA_CHECK(cudaMallocHost(&host, bytes));
    CUDA_CHECK(cudaMalloc(&dev, bytes));
    cudaStream_t streams[2];
    for (auto &s : streams)
        CUDA_CHECK(cudaStreamCreate(&s));
    proj::GpuTimer timer;
    timer.start(streams[0]);
    CUDA_CHECK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, streams[0]));
    CUDA_CHECK(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, streams[0]));
    float ms = timer.stop(streams[0]);
    {name}_record("transfer{k}", ms);
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    std::vector<std::string> names = {{"free", "total"}};
    std::sort(names.begin(), names.end());
    std::cout << names.front() << " " << free_b << "/" << total_b << std::endl;
    for (auto &s : streams)
        CUDA_CHECK(cudaStreamDestroy(s));
    CUDA_CHECK(cudaFree(dev));
    CUDA_CHECK(cudaFreeHost(host));
}}
""")
    return "".join(out)


def cub_scan_body(r, name, n):
    out = []
    for k in range(n):
        out.append(f"""
template <int BLOCK, int ITEMS>
__global__ void {name}_scan{k}(const int *in, int *out, int n) {{
    using Load = cub::BlockLoad<int, BLOCK, ITEMS, cub::BLOCK_LOAD_TRANSPOSE>;
    using Scan = cub::BlockScan<int, BLOCK>;
    using Store = cub::BlockStore<int, BLOCK, ITEMS, cub::BLOCK_STORE_TRANSPOSE>;
    __shared__ union {{
        typename Load::TempStorage load;
        typename Scan::TempStorage scan;
        typename Store::TempStorage store;
    }} temp;
    int items[ITEMS];
    int base = blockIdx.x * BLOCK * ITEMS;
    Load(temp.load).Load(in + base, items, n - base, 0);
    __syncthreads();
    Scan(temp.scan).ExclusiveSum(items, items);
    __syncthreads();
    Store(temp.store).Store(out + base, items, n - base);
    int total = proj::cub_block_sum<BLOCK>(items[0]);
    if (threadIdx.x == 0 && total < 0)
        out[0] = total;
}}

void run_{name}_scan{k}(int n) {{
    int *din = proj::device_alloc<int>(n);
    int *dout = proj::device_alloc<int>(n);
    int *dsum = proj::device_alloc<int>(1);
    void *temp = nullptr;
    size_t temp_bytes = 0;
    CUDA_CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, din, dsum, n));
    CUDA_CHECK(cudaMalloc(&temp, temp_bytes));
    CUDA_CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, din, dsum, n));
    const int tile = PROJ_BLOCK * PROJ_ITEMS_PER_THREAD;
    {name}_scan{k}<PROJ_BLOCK, PROJ_ITEMS_PER_THREAD><<<PROJ_DIV_UP(n, tile), PROJ_BLOCK>>>(din, dout, n);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(temp));
    proj::device_free(din);
    proj::device_free(dout);
    proj::device_free(dsum);
}}
""")
    return "".join(out)


BODIES = {
    "elementwise": elementwise_body,
    "reduce": reduce_body,
    "blas": blas_body,
    "rng": rng_body,
    "thrust": thrust_body,
    "stencil": stencil_body,
    "host_api": host_api_body,
    "cub_scan": cub_scan_body,
}

# System headers a kind needs, and the project headers that provide them.
SYSTEM_INCLUDES = {
    "elementwise": ["cuda_runtime.h", "cmath", "cstdio", "vector"],
    "reduce": ["cuda_runtime.h", "cstdio", "vector", "algorithm"],
    "blas": ["cuda_runtime.h", "cublas_v2.h", "cstdio", "vector"],
    "rng": ["cuda_runtime.h", "curand.h", "curand_kernel.h", "cstdio"],
    "thrust": ["cuda_runtime.h", "thrust/device_vector.h", "thrust/sort.h", "cstdio"],
    "stencil": ["cuda_runtime.h", "cstdio", "utility", "vector"],
    "host_api": ["cuda_runtime.h", "algorithm", "iostream", "map", "string", "vector"],
    "cub_scan": ["cuda_runtime.h", "cub/cub.cuh", "cstdio"],
}
PROJECT_INCLUDES = {
    "elementwise": ["proj/common.h"],
    "reduce": ["proj/common.h", "proj/device_math.cuh"],
    "blas": ["proj/common.h", "proj/blas_utils.h"],
    "rng": ["proj/common.h", "proj/rng_utils.cuh"],
    "thrust": ["proj/common.h", "proj/thrust_utils.h"],
    "stencil": ["proj/common.h", "proj/device_math.cuh"],
    "host_api": ["proj/common.h"],
    "cub_scan": ["proj/common.h", "proj/cub_utils.cuh"],
}
MAIN_LIKE_EXT = {"host_api": ".cpp"}


def unit_text(r, kind, name, module_header, system_first):
    sys_inc = "".join(f"#include <{h}>\n" for h in SYSTEM_INCLUDES[kind])
    proj_inc = "".join(f'#include "{h}"\n' for h in PROJECT_INCLUDES[kind])
    if module_header:
        proj_inc += f'#include "{module_header}"\n'
    head = f"// {name}: generated {kind} unit of the cu2dcu throughput corpus.\n"
    includes = sys_inc + "\n" + proj_inc if system_first else proj_inc + "\n" + sys_inc
    body = BODIES[kind](r, name, r.randint(2, 4))
    return head + includes + "\nnamespace {\nconstexpr int kUnused = 0;\n}\n" + body


def module_header_text(module):
    guard = f"{module.upper()}_KERNELS_CUH"
    return f"""\
// Declarations shared by the {module} module.
#ifndef {guard}
#define {guard}

#include <cuda_runtime.h>

#include "proj/config.h"

namespace {module} {{

struct Params {{
    int n = 0;
    real_t scale = 1;
    cudaStream_t stream = nullptr;
}};

__device__ __forceinline__ real_t {module}_weight(int i) {{
    return static_cast<real_t>(i % PROJ_WARP) / PROJ_WARP;
}}

inline cudaError_t {module}_sync(const Params &p) {{
    return cudaStreamSynchronize(p.stream);
}}

}} // namespace {module}

#endif
"""


def plain_cpp_text(r, name):
    return f"""\
// {name}: host-only helper without CUDA (copied unchanged).
#include <string>
#include <vector>

namespace util {{

std::vector<std::string> split_{name}(const std::string &s, char sep) {{
    std::vector<std::string> parts;
    std::string cur;
    for (char c : s) {{
        if (c == sep) {{
            parts.push_back(cur);
            cur.clear();
        }} else {{
            cur += c;
        }}
    }}
    parts.push_back(cur);
    return parts;
}}

}} // namespace util
"""


def generate(out_dir, units, seed, samples=None):
    r = random.Random(seed)
    if os.path.exists(out_dir):
        shutil.rmtree(out_dir)
    written = []

    def write(rel, text):
        path = os.path.join(out_dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", newline="\n") as f:
            f.write(text)
        written.append(rel)

    for rel, text in SHARED_HEADERS.items():
        write(rel, text)
    write("CMakeLists.txt", "cmake_minimum_required(VERSION 3.20)\nproject(bench_corpus CUDA CXX)\n"
          "file(GLOB_RECURSE SRC src/*.cu src/*.cpp)\nadd_executable(app ${SRC})\n"
          "target_include_directories(app PRIVATE include)\n")
    write("README.md", "Generated by testsuite/bench/gen_corpus.py; do not edit.\n")

    per_module = 10
    modules = max(1, (units + per_module - 1) // per_module)
    made = 0
    for m in range(modules):
        module = f"mod{m:03d}"
        mod_header = f"{module}_kernels.cuh" if m % 2 == 0 else None
        if mod_header:
            write(f"src/{module}/{mod_header}", module_header_text(module))
        for u in range(per_module):
            if made == units:
                break
            kind = KINDS[(m * per_module + u) % len(KINDS)]
            name = f"{module}_u{u:02d}"
            ext = MAIN_LIKE_EXT.get(kind, ".cu")
            system_first = r.random() < 0.5
            write(f"src/{module}/{name}{ext}",
                  unit_text(r, kind, name, mod_header, system_first))
            made += 1
        # One host-only C++ file per module: discovered, pre-scanned, copied.
        write(f"src/{module}/{module}_strings.cpp", plain_cpp_text(r, module))

    if samples:
        for root, _, files in os.walk(samples):
            for f in sorted(files):
                src = os.path.join(root, f)
                rel = os.path.join("samples", os.path.relpath(src, samples))
                os.makedirs(os.path.dirname(os.path.join(out_dir, rel)), exist_ok=True)
                shutil.copyfile(src, os.path.join(out_dir, rel))
                written.append(rel)
    return sorted(written)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--units", type=int, default=200, help="translation units to generate")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples", help="also copy this tree (samples-cuda) under samples/")
    args = ap.parse_args()
    files = generate(args.out, args.units, args.seed, args.samples)
    print(f"{args.out}: {len(files)} files")


if __name__ == "__main__":
    sys.exit(main())
