// vector_add (HIP, hand-written): c[i] = a[i] + b[i] over N floats.
//
// Same kernels, names, command line and JSON as samples-cuda/vector_add:
//   coalesced         one element per thread
//   gridstride_float4 grid-stride loop over float4 (16-byte loads/stores), fixed grid
//   strided_sS        the same N elements in a permuted order: consecutive threads are
//                     S floats apart (total bytes stay 3*N*4)
//   memcpy_d2d        hipMemcpy device-to-device of N floats: the copy bandwidth
//                     limit measured in the same run (bytes = read + write)
// Verification: every element, bit-exact (tolerance 0), output poisoned with NaN.
#include "../common/bench.h"

static const int kBlock = 256;  // 4 wavefronts of 64 (8 warps of 32 on NVIDIA)

__global__ void vadd_coalesced(const float* __restrict__ a, const float* __restrict__ b,
                               float* __restrict__ c, size_t n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void vadd_gridstride_float4(const float* __restrict__ a, const float* __restrict__ b,
                                       float* __restrict__ c, size_t n) {
    const size_t n4 = n / 4;
    const size_t step = (size_t)gridDim.x * blockDim.x;
    const float4* a4 = reinterpret_cast<const float4*>(a);
    const float4* b4 = reinterpret_cast<const float4*>(b);
    float4* c4 = reinterpret_cast<float4*>(c);
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += step) {
        float4 x = a4[i], y = b4[i];
        c4[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    size_t t = n4 * 4 + (size_t)blockIdx.x * blockDim.x + threadIdx.x;  // tail
    if (t < n) c[t] = a[t] + b[t];
}

// Thread t handles element (t % m) * stride + t / m, m = n / stride (a permutation).
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
        if (!(c[i] == ref)) {
            ++bad;
            err = std::max(err, std::isfinite(c[i]) ? std::fabs((double)c[i] - ref) : INFINITY);
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
    HIP_CHECK(hipMalloc(&da, bytes));
    HIP_CHECK(hipMalloc(&db, bytes));
    HIP_CHECK(hipMalloc(&dc, bytes));
    HIP_CHECK(hipMemcpy(da, ha.data(), bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(db, hb.data(), bytes, hipMemcpyHostToDevice));

    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
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
            HIP_CHECK_LAUNCH();
            HIP_CHECK(hipMemcpy(hc.data(), dc, bytes, hipMemcpyDeviceToHost));
            r.verified = 1;
            r.tol = 0;
            r.pass = check(hc, ha, hb, &r.max_err);
        }
        r.t = bench::time_it(o, launch);
        rep.add(r);
    };

    if (bench::selected(o, "coalesced"))
        run_kernel("coalesced", "", [&] {
            hipLaunchKernelGGL(vadd_coalesced, dim3(blocks), dim3(kBlock), 0, 0, da, db, dc, n);
        });
    if (bench::selected(o, "gridstride_float4"))
        run_kernel("gridstride_float4", "", [&] {
            hipLaunchKernelGGL(vadd_gridstride_float4, dim3(gs_blocks), dim3(kBlock), 0, 0, da, db,
                               dc, n);
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
                hipLaunchKernelGGL(vadd_strided, dim3(blocks), dim3(kBlock), 0, 0, da, db, dc, n,
                                   (size_t)s);
            });
    }
    if (bench::selected(o, "memcpy_d2d")) {
        bench::Result r;
        r.name = "memcpy_d2d";
        r.size = n;
        r.bytes = 2.0 * bytes;  // read + write
        r.extra = "\"reference\": true";
        auto copy = [&] { HIP_CHECK(hipMemcpy(dc, da, bytes, hipMemcpyDeviceToDevice)); };
        if (o.verify) {
            bench::poison(dc, n);
            copy();
            HIP_CHECK(hipMemcpy(hc.data(), dc, bytes, hipMemcpyDeviceToHost));
            r.verified = 1;
            r.pass = memcmp(hc.data(), ha.data(), bytes) == 0;
        }
        r.t = bench::time_it(o, copy);
        rep.add(r);
    }

    HIP_CHECK(hipFree(da));
    HIP_CHECK(hipFree(db));
    HIP_CHECK(hipFree(dc));
    return rep.finish();
}
