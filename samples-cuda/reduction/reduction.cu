// reduction: sum of N floats, plus a warp-vote count.
//
// Kernels (names are shared with the hand-written HIP port):
//   shared_tree   classic shared-memory tree reduction (sequential addressing, first
//                 add during load), one partial per block, relaunched until one value
//   warp_shuffle  grid-stride accumulation, then a warp-shuffle reduction written the
//                 usual CUDA way: 32-lane warps hard-coded (lane = threadIdx.x % 32,
//                 __shfl_down_sync(0xffffffff, ...) from offset 16, partial[32]),
//                 one atomicAdd per block.  This kernel is a deliberate test subject
//                 for cu2dcu's wave64 analysis.
//   ballot_count  counts elements > 0.5 with __ballot_sync + __popc per warp (32-bit
//                 mask: another wave64 test subject)
//   memcpy_d2d    cudaMemcpy device-to-device of N floats: the copy bandwidth limit
//
// Bytes counted: N*4 (each input read once).
// Verification: sum against a double-precision CPU sum, |gpu - ref| <= 1e-5 * sum|x|
// (inputs in [0,1), so that is 1e-5 relative); count is exact.
#include "../common/bench.h"

static const int kTreeBlock = 256;
static const int kShflBlock = 1024;

__global__ void reduce_shared_tree(const float* __restrict__ in, float* __restrict__ out,
                                   size_t n) {
    __shared__ float sdata[kTreeBlock];
    unsigned tid = threadIdx.x;
    size_t i = (size_t)blockIdx.x * (blockDim.x * 2) + threadIdx.x;
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

__inline__ __device__ float warpReduceSum(float val) {
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

__global__ void reduce_warp_shuffle(const float* __restrict__ in, float* out, size_t n) {
    __shared__ float partial[32];
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;

    float sum = 0.0f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)blockDim.x * gridDim.x)
        sum += in[i];

    sum = warpReduceSum(sum);
    if (lane == 0) partial[warp] = sum;
    __syncthreads();

    sum = (threadIdx.x < blockDim.x / 32) ? partial[lane] : 0.0f;
    if (warp == 0) {
        sum = warpReduceSum(sum);
        if (lane == 0) atomicAdd(out, sum);
    }
}

__global__ void count_ballot(const float* __restrict__ in, unsigned int* count, size_t n,
                             float threshold) {
    int lane = threadIdx.x % 32;
    unsigned int local = 0;
    // every lane of the warp runs the same number of iterations (n rounded up)
    size_t step = (size_t)blockDim.x * gridDim.x;
    size_t rounded = (n + step - 1) / step * step;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < rounded; i += step) {
        bool pred = i < n && in[i] > threshold;
        unsigned int mask = __ballot_sync(0xffffffff, pred);
        if (lane == 0) local += __popc(mask);
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

    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    const unsigned grid = (unsigned)prop.multiProcessorCount * 2;

    float *din, *dtmp1, *dtmp2, *dsum, *dcopy;
    unsigned int* dcount;
    const size_t max_partials = (n + 2 * kTreeBlock - 1) / (2 * kTreeBlock);
    CUDA_CHECK(cudaMalloc(&din, bytes));
    CUDA_CHECK(cudaMalloc(&dtmp1, max_partials * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dtmp2, max_partials * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dsum, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dcount, sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(din, h.data(), bytes, cudaMemcpyHostToDevice));

    // Returns the device pointer that holds the final sum.
    auto tree = [&]() -> float* {
        const float* src = din;
        float* dst = dtmp1;
        size_t len = n;
        do {
            unsigned blocks = (unsigned)((len + 2 * kTreeBlock - 1) / (2 * kTreeBlock));
            reduce_shared_tree<<<blocks, kTreeBlock>>>(src, dst, len);
            len = blocks;
            src = dst;
            dst = (dst == dtmp1) ? dtmp2 : dtmp1;
        } while (len > 1);
        return const_cast<float*>(src);
    };
    auto shfl = [&] {
        CUDA_CHECK(cudaMemsetAsync(dsum, 0, sizeof(float)));
        reduce_warp_shuffle<<<grid, kShflBlock>>>(din, dsum, n);
    };
    auto ballot = [&] {
        CUDA_CHECK(cudaMemsetAsync(dcount, 0, sizeof(unsigned int)));
        count_ballot<<<grid, kTreeBlock>>>(din, dcount, n, 0.5f);
    };

    const double tol = 1e-5 * ref;
    auto check_sum = [&](bench::Result& r, const float* dres) {
        float got = 0;
        CUDA_CHECK(cudaMemcpy(&got, dres, sizeof(float), cudaMemcpyDeviceToHost));
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
            CUDA_CHECK_LAUNCH();
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
            CUDA_CHECK_LAUNCH();
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
            CUDA_CHECK_LAUNCH();
            unsigned int got = 0;
            CUDA_CHECK(cudaMemcpy(&got, dcount, sizeof got, cudaMemcpyDeviceToHost));
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
        CUDA_CHECK(cudaMalloc(&dcopy, bytes));
        r.t = bench::time_it(o, [&] {
            CUDA_CHECK(cudaMemcpy(dcopy, din, bytes, cudaMemcpyDeviceToDevice));
        });
        CUDA_CHECK(cudaFree(dcopy));
        rep.add(r);
    }

    CUDA_CHECK(cudaFree(din));
    CUDA_CHECK(cudaFree(dtmp1));
    CUDA_CHECK(cudaFree(dtmp2));
    CUDA_CHECK(cudaFree(dsum));
    CUDA_CHECK(cudaFree(dcount));
    return rep.finish();
}
