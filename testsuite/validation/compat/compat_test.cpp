// Compile test for the generated HIP-on-NVIDIA headers (scripts/hip-nvidia).
// Built with: nvcc -x cu -D__HIP_PLATFORM_NVIDIA__ -I<generated> compat_test.cpp
// It only has to compile and link here (no GPU); on a GPU host it also runs.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                  \
    do {                                                                             \
        hipError_t e_ = (call);                                                      \
        if (e_ != hipSuccess) {                                                      \
            fprintf(stderr, "%s failed: %s\n", #call, hipGetErrorString(e_));        \
            return 1;                                                                \
        }                                                                            \
    } while (0)

__global__ void scale_and_sum(float* x, float* out, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 0.0f;
    if (i < n) {
        x[i] *= s;
        v = x[i];
    }
    for (int off = warpSize / 2; off > 0; off /= 2) v += __shfl_down(v, off);  // HIP, no _sync
    unsigned long long ballot = __ballot(i < n);                               // 64-bit in HIP
    if (threadIdx.x % warpSize == 0 && __popcll(ballot) > 0) atomicAdd(out, v);
}

// A CUDA 9 shim whose body translation turned into HIP's own name (HeCBench
// nbnxm) replaces HIP's macro: the call must still find a function.
#pragma push_macro("__shfl_down")
#undef __shfl_down
#define __shfl_down(v, d) __shfl_down(v, d)
__global__ void shim_shuffle(float* x) { x[threadIdx.x] += __shfl_down(x[threadIdx.x], 1); }
#pragma pop_macro("__shfl_down")

int main() {
    int count = 0;
    if (hipGetDeviceCount(&count) != hipSuccess || count == 0) {
        printf("compat_test: built; no GPU here, nothing run\n");
        return 0;
    }
    hipDeviceProp_t prop;
    CHECK(hipGetDeviceProperties(&prop, 0));
    int max_threads = 0, clock_khz = 0, coop_multi = -1;
    CHECK(hipDeviceGetAttribute(&max_threads, hipDeviceAttributeMaxThreadsPerBlock, 0));
    CHECK(hipDeviceGetAttribute(&clock_khz, hipDeviceAttributeClockRate, 0));
    CHECK(hipDeviceGetAttribute(&coop_multi, hipDeviceAttributeCooperativeMultiDeviceLaunch, 0));
    printf("%s: warpSize %d, %d SMs, clock %d kHz (prop %d), mem clock %d kHz, "
           "max threads %d, coop multi-device %d\n",
           prop.name, prop.warpSize, prop.multiProcessorCount, clock_khz, prop.clockRate,
           prop.memoryClockRate, max_threads, coop_multi);

    const int n = 1 << 20;
    float* h = (float*)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i) h[i] = 1.0f;
    float *d, *dsum, sum = 0.0f;
    CHECK(hipMalloc(&d, n * sizeof(float)));
    CHECK(hipMalloc(&dsum, sizeof(float)));
    CHECK(hipMemcpy(d, h, n * sizeof(float), hipMemcpyHostToDevice));
    CHECK(hipMemset(dsum, 0, sizeof(float)));
    hipEvent_t start, stop;
    CHECK(hipEventCreate(&start));
    CHECK(hipEventCreate(&stop));
    CHECK(hipEventRecord(start, 0));
    hipLaunchKernelGGL(scale_and_sum, dim3((n + 255) / 256), dim3(256), 0, 0, d, dsum, 2.0f, n);
    CHECK(hipGetLastError());
    CHECK(hipEventRecord(stop, 0));
    CHECK(hipEventSynchronize(stop));
    float ms = 0;
    CHECK(hipEventElapsedTime(&ms, start, stop));
    CHECK(hipMemcpy(&sum, dsum, sizeof(float), hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(h, d, n * sizeof(float), hipMemcpyDeviceToHost));
    bool ok = sum == 2.0f * n && h[0] == 2.0f && h[n - 1] == 2.0f;
    printf("compat_test: sum %.0f (expect %d), %.3f ms: %s\n", sum, 2 * n, ms, ok ? "PASS" : "FAIL");
    CHECK(hipEventDestroy(start));
    CHECK(hipEventDestroy(stop));
    CHECK(hipFree(d));
    CHECK(hipFree(dsum));
    free(h);
    return ok ? 0 : 1;
}
