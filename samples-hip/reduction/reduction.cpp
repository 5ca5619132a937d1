// reduction (HIP, hand-written, wave64-aware): sum of N floats, plus a warp-vote count.
//
// Same kernels, names, command line and JSON as samples-cuda/reduction:
//   shared_tree   shared-memory tree reduction, relaunched until one value
//   warp_shuffle  grid-stride accumulation + warp-shuffle reduction that works for any
//                 wavefront width: lane/warp from warpSize, __shfl_down (HIP 5.2 has no
//                 *_sync) from warpSize/2, one partial slot per wavefront, atomicAdd
//   ballot_count  counts elements > 0.5 with a 64-bit __ballot + __popcll per wavefront
//   memcpy_d2d    hipMemcpy device-to-device of N floats: the copy bandwidth limit
// Bytes counted: N*4.  Verification: |gpu - ref| <= 1e-5 * sum|x| against a double
// CPU sum (inputs in [0,1)); the count is exact.
#include "../common/bench.h"

static const int kTreeBlock = 256;
static const int kShflBlock = 1024;
static const int kMinWarpSize = 32;  // partial[] is sized for the narrowest warp

__global__ void reduce_shared_tree(const float* __restrict__ in, float* __restrict__ out,
                                   size_t n) {
    __shared__ float sdata[kTreeBlock];
    const unsigned tid = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float v = 0.0f;
    if (i < n) v = in[i];
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

// Sum over one wavefront, whatever its width (64 on DCU/AMD GCN/CDNA, 32 on NVIDIA).
__device__ inline float wave_reduce_sum(float v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
    return v;
}

__global__ void reduce_warp_shuffle(const float* __restrict__ in, float* out, size_t n) {
    __shared__ float partial[kShflBlock / kMinWarpSize];
    const int lane = threadIdx.x % warpSize;
    const int wave = threadIdx.x / warpSize;
    const int nwaves = blockDim.x / warpSize;

    float sum = 0.0f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)blockDim.x * gridDim.x)
        sum += in[i];

    sum = wave_reduce_sum(sum);
    if (lane == 0) partial[wave] = sum;
    __syncthreads();

    if (wave == 0) {
        sum = (lane < nwaves) ? partial[lane] : 0.0f;
        sum = wave_reduce_sum(sum);
        if (lane == 0) atomicAdd(out, sum);
    }
}

__global__ void count_ballot(const float* __restrict__ in, unsigned int* count, size_t n,
                             float threshold) {
    const int lane = threadIdx.x % warpSize;
    unsigned int local = 0;
    const size_t step = (size_t)blockDim.x * gridDim.x;
    const size_t rounded = (n + step - 1) / step * step;  // whole wavefronts iterate together
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < rounded; i += step) {
        const bool pred = i < n && in[i] > threshold;
        const unsigned long long mask = __ballot(pred);  // 64-bit: one bit per lane
        if (lane == 0) local += (unsigned int)__popcll(mask);
    }
    if (lane == 0) atomicAdd(count, local);
}

int main(int argc, char** argv) {
    bench::Options o = bench::parse_args(argc, argv, (size_t)1 << 24);
    const size_t n = o.size;
    const size_t bytes = n * sizeof(float);
    bench::Report rep("reduction", o);

    const std::vector<float> h = bench::uniform(n, o.seed, 0.0f, 1.0f);
    double ref = 0;
    unsigned long long ref_count = 0;
    for (size_t i = 0; i < n; ++i) {
        ref += h[i];
        ref_count += h[i] > 0.5f;
    }

    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    const unsigned grid = (unsigned)prop.multiProcessorCount * 2;

    float *din, *dtmp1, *dtmp2, *dsum, *dcopy;
    unsigned int* dcount;
    const size_t max_partials = (n + 2 * kTreeBlock - 1) / (2 * kTreeBlock);
    HIP_CHECK(hipMalloc(&din, bytes));
    HIP_CHECK(hipMalloc(&dtmp1, max_partials * sizeof(float)));
    HIP_CHECK(hipMalloc(&dtmp2, max_partials * sizeof(float)));
    HIP_CHECK(hipMalloc(&dsum, sizeof(float)));
    HIP_CHECK(hipMalloc(&dcount, sizeof(unsigned int)));
    HIP_CHECK(hipMemcpy(din, h.data(), bytes, hipMemcpyHostToDevice));

    auto tree = [&]() -> float* {  // returns the buffer holding the final sum
        const float* src = din;
        float* dst = dtmp1;
        size_t len = n;
        do {
            unsigned blocks = (unsigned)((len + 2 * kTreeBlock - 1) / (2 * kTreeBlock));
            hipLaunchKernelGGL(reduce_shared_tree, dim3(blocks), dim3(kTreeBlock), 0, 0, src, dst,
                               len);
            len = blocks;
            src = dst;
            dst = (dst == dtmp1) ? dtmp2 : dtmp1;
        } while (len > 1);
        return const_cast<float*>(src);
    };
    auto shfl = [&] {
        HIP_CHECK(hipMemsetAsync(dsum, 0, sizeof(float), 0));
        hipLaunchKernelGGL(reduce_warp_shuffle, dim3(grid), dim3(kShflBlock), 0, 0, din, dsum, n);
    };
    auto ballot = [&] {
        HIP_CHECK(hipMemsetAsync(dcount, 0, sizeof(unsigned int), 0));
        hipLaunchKernelGGL(count_ballot, dim3(grid), dim3(kTreeBlock), 0, 0, din, dcount, n, 0.5f);
    };

    const double tol = 1e-5 * ref;
    auto check_sum = [&](bench::Result& r, const float* dres) {
        float got = 0;
        HIP_CHECK(hipMemcpy(&got, dres, sizeof(float), hipMemcpyDeviceToHost));
        r.verified = 1;
        r.tol = tol;
        r.max_err = std::isfinite(got) ? std::fabs((double)got - ref) : INFINITY;
        r.pass = r.max_err <= tol;
    };

    if (bench::selected(o, "shared_tree")) {
        bench::Result r;
        r.name = "shared_tree";
        r.size = n;
        r.bytes = (double)bytes;
        if (o.verify) {
            bench::poison(dtmp1, max_partials);
            bench::poison(dtmp2, max_partials);
            float* res = tree();
            HIP_CHECK_LAUNCH();
            check_sum(r, res);
        }
        r.t = bench::time_it(o, [&] { tree(); });
        rep.add(r);
    }
    if (bench::selected(o, "warp_shuffle")) {
        bench::Result r;
        r.name = "warp_shuffle";
        r.size = n;
        r.bytes = (double)bytes;
        if (o.verify) {
            shfl();
            HIP_CHECK_LAUNCH();
            check_sum(r, dsum);
        }
        r.t = bench::time_it(o, shfl);
        rep.add(r);
    }
    if (bench::selected(o, "ballot_count")) {
        bench::Result r;
        r.name = "ballot_count";
        r.size = n;
        r.bytes = (double)bytes;
        if (o.verify) {
            ballot();
            HIP_CHECK_LAUNCH();
            unsigned int got = 0;
            HIP_CHECK(hipMemcpy(&got, dcount, sizeof got, hipMemcpyDeviceToHost));
            r.verified = 1;
            r.max_err = std::fabs((double)got - (double)ref_count);
            r.pass = got == ref_count;
        }
        r.t = bench::time_it(o, ballot);
        rep.add(r);
    }
    if (bench::selected(o, "memcpy_d2d")) {
        bench::Result r;
        r.name = "memcpy_d2d";
        r.size = n;
        r.bytes = 2.0 * bytes;
        r.extra = "\"reference\": true";
        HIP_CHECK(hipMalloc(&dcopy, bytes));
        r.t = bench::time_it(o, [&] {
            HIP_CHECK(hipMemcpy(dcopy, din, bytes, hipMemcpyDeviceToDevice));
        });
        HIP_CHECK(hipFree(dcopy));
        rep.add(r);
    }

    HIP_CHECK(hipFree(din));
    HIP_CHECK(hipFree(dtmp1));
    HIP_CHECK(hipFree(dtmp2));
    HIP_CHECK(hipFree(dsum));
    HIP_CHECK(hipFree(dcount));
    return rep.finish();
}
