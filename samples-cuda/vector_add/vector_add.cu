// vector_add: c[i] = a[i] + b[i] over N floats.
//
// Kernels (names are shared with the hand-written HIP port):
//   coalesced         one element per thread, consecutive threads touch consecutive floats
//   gridstride_float4 grid-stride loop over float4 (16-byte loads/stores), fixed grid
//   strided_sS        the same N elements in a permuted order: consecutive threads are
//                     S floats apart, so total bytes stay 3*N*4 but coalescing degrades
//   memcpy_d2d        cudaMemcpy device-to-device of N floats: the device's copy
//                     bandwidth limit, measured in the same run (bytes = read + write)
//
// Verification: every element, bit-exact against the CPU sum (tolerance 0); the
// output is poisoned with NaN before each checked launch.
#include "../common/bench.h"

static const int kBlock = 256;

__global__ void vadd_coalesced(const float* __restrict__ a, const float* __restrict__ b,
                               float* __restrict__ c, size_t n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void vadd_gridstride_float4(const float* __restrict__ a, const float* __restrict__ b,
                                       float* __restrict__ c, size_t n) {
    size_t n4 = n / 4;
    size_t step = (size_t)gridDim.x * blockDim.x;
    const float4* a4 = reinterpret_cast<const float4*>(a);
    const float4* b4 = reinterpret_cast<const float4*>(b);
    float4* c4 = reinterpret_cast<float4*>(c);
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += step) {
        float4 x = a4[i], y = b4[i];
        c4[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    // tail (n not a multiple of 4)
    size_t t = n4 * 4 + (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) c[t] = a[t] + b[t];
}

// Thread t handles element (t % m) * stride + t / m, with m = n / stride: a
// permutation of 0..n-1, so every element is read and written exactly once.
__global__ void vadd_strided(const float* __restrict__ a, const float* __restrict__ b,
                             float* __restrict__ c, size_t n, size_t stride) {
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    size_t m = n / stride;
    size_t i = (t % m) * stride + t / m;
    c[i] = a[i] + b[i];
}

static bool check(const std::vector<float>& c, const std::vector<float>& a,
                  const std::vector<float>& b, double* max_err) {
    size_t bad = 0;
    double err = 0;
    for (size_t i = 0; i < c.size(); ++i) {
        float ref = a[i] + b[i];
        if (!(c[i] == ref)) {  // NaN-safe
            ++bad;
            double e = std::isfinite(c[i]) ? std::fabs((double)c[i] - ref) : INFINITY;
            err = std::max(err, e);
        }
    }
    *max_err = err;
    return bad == 0;
}

int main(int argc, char** argv) {
    bench::Options o = bench::parse_args(argc, argv, (size_t)1 << 24, /*has_stride=*/true);
    if (o.strides.empty()) o.strides = {1, 2, 4, 8, 16, 32, 64};
    const size_t n = o.size;
    const size_t bytes = n * sizeof(float);
    bench::Report rep("vector_add", o);

    const std::vector<float> ha = bench::uniform(n, o.seed, -1.0f, 1.0f);
    const std::vector<float> hb = bench::uniform(n, o.seed + 1, -1.0f, 1.0f);
    std::vector<float> hc(n);

    float *da, *db, *dc;
    CUDA_CHECK(cudaMalloc(&da, bytes));
    CUDA_CHECK(cudaMalloc(&db, bytes));
    CUDA_CHECK(cudaMalloc(&dc, bytes));
    CUDA_CHECK(cudaMemcpy(da, ha.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, hb.data(), bytes, cudaMemcpyHostToDevice));

    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    const unsigned blocks = (unsigned)((n + kBlock - 1) / kBlock);
    const unsigned gs_blocks = (unsigned)prop.multiProcessorCount * 8;

    auto run_kernel = [&](const char* name, const std::string& extra,
                          const std::function<void()>& launch) {
        bench::Result r;
        r.name = name;
        r.size = n;
        r.bytes = 3.0 * bytes;
        r.extra = extra;
        if (o.verify) {
            bench::poison(dc, n);
            launch();
            CUDA_CHECK_LAUNCH();
            CUDA_CHECK(cudaMemcpy(hc.data(), dc, bytes, cudaMemcpyDeviceToHost));
            r.verified = 1;
            r.tol = 0;
            r.pass = check(hc, ha, hb, &r.max_err);
        }
        r.t = bench::time_it(o, launch);
        rep.add(r);
    };

    if (bench::selected(o, "coalesced"))
        run_kernel("coalesced", "", [&] {
            vadd_coalesced<<<blocks, kBlock>>>(da, db, dc, n);
        });
    if (bench::selected(o, "gridstride_float4"))
        run_kernel("gridstride_float4", "", [&] {
            vadd_gridstride_float4<<<gs_blocks, kBlock>>>(da, db, dc, n);
        });
    for (int s : o.strides) {
        char name[64], extra[64];
        snprintf(name, sizeof name, "strided_s%d", s);
        snprintf(extra, sizeof extra, "\"stride\": %d", s);
        if (s < 1 || n % (size_t)s != 0) {
            fprintf(stderr, "vector_add: stride %d must divide size %zu\n", s, n);
            return 2;
        }
        if (bench::selected(o, name))
            run_kernel(name, extra, [&] {
                vadd_strided<<<blocks, kBlock>>>(da, db, dc, n, (size_t)s);
            });
    }
    if (bench::selected(o, "memcpy_d2d")) {
        bench::Result r;
        r.name = "memcpy_d2d";
        r.size = n;
        r.bytes = 2.0 * bytes;  // read + write
        r.extra = "\"reference\": true";
        auto copy = [&] { CUDA_CHECK(cudaMemcpy(dc, da, bytes, cudaMemcpyDeviceToDevice)); };
        if (o.verify) {
            bench::poison(dc, n);
            copy();
            CUDA_CHECK(cudaMemcpy(hc.data(), dc, bytes, cudaMemcpyDeviceToHost));
            r.verified = 1;
            r.pass = memcmp(hc.data(), ha.data(), bytes) == 0;
        }
        r.t = bench::time_it(o, copy);
        rep.add(r);
    }

    CUDA_CHECK(cudaFree(da));
    CUDA_CHECK(cudaFree(db));
    CUDA_CHECK(cudaFree(dc));
    return rep.finish();
}
