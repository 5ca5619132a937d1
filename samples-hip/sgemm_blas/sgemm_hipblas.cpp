// sgemm_hipblas (HIP, hand-written): the library reference for the SGEMM ladder
// (kernel name "blas", program "sgemm_blas", like samples-cuda/sgemm_cublas).
//
// C = A * B, row-major n x n, by hipblasSgemm (column-major: C^T = B^T * A^T).
// hipBLAS is not part of the Debian HIP 5.2 packages: the build scripts compile
// this file only where the hipBLAS header is found and otherwise print
// "skipped: hipBLAS not installed" (it is never reported as passing).
#if __has_include(<hipblas/hipblas.h>)
#include <hipblas/hipblas.h>
#else
#include <hipblas.h>
#endif

#include "../common/bench.h"
#include "../common/gemm_ref.h"

#define HIPBLAS_CHECK(call)                                                         \
    do {                                                                            \
        hipblasStatus_t st_ = (call);                                               \
        if (st_ != HIPBLAS_STATUS_SUCCESS) {                                        \
            fprintf(stderr, "hipBLAS error at %s:%d: %s: status %d\n", __FILE__,    \
                    __LINE__, #call, (int)st_);                                     \
            exit(2);                                                                \
        }                                                                           \
    } while (0)

int main(int argc, char** argv) {
    bench::Options o = bench::parse_args(argc, argv, 1024);
    const int n = (int)o.size;
    const size_t elems = (size_t)n * n, bytes = elems * sizeof(float);
    bench::Report rep("sgemm_blas", o);

    const std::vector<float> hA = bench::uniform(elems, o.seed, -1.0f, 1.0f);
    const std::vector<float> hB = bench::uniform(elems, o.seed + 1, -1.0f, 1.0f);
    std::vector<float> hC(elems);
    float *dA, *dB, *dC;
    HIP_CHECK(hipMalloc(&dA, bytes));
    HIP_CHECK(hipMalloc(&dB, bytes));
    HIP_CHECK(hipMalloc(&dC, bytes));
    HIP_CHECK(hipMemcpy(dA, hA.data(), bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(dB, hB.data(), bytes, hipMemcpyHostToDevice));

    hipblasHandle_t handle;
    HIPBLAS_CHECK(hipblasCreate(&handle));
    const float alpha = 1.0f, beta = 0.0f;
    auto launch = [&] {
        HIPBLAS_CHECK(hipblasSgemm(handle, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, &alpha, dB, n, dA,
                                   n, &beta, dC, n));
    };

    if (bench::selected(o, "blas")) {
        bench::Result r;
        r.name = "blas";
        r.size = n;
        r.flops = 2.0 * n * (double)n * n;
        r.extra = "\"reference\": true";
        if (o.verify) {
            bench::poison(dC, elems);
            launch();
            HIP_CHECK(hipDeviceSynchronize());
            HIP_CHECK(hipMemcpy(hC.data(), dC, bytes, hipMemcpyDeviceToHost));
            bench::GemmCheck g = bench::check_gemm(hA, hB, hC, n, o.seed);
            r.verified = 1;
            r.pass = g.pass;
            r.max_err = g.max_err;
            r.tol = g.tol;
        }
        r.t = bench::time_it(o, launch);
        rep.add(r);
    }

    HIPBLAS_CHECK(hipblasDestroy(handle));
    HIP_CHECK(hipFree(dA));
    HIP_CHECK(hipFree(dB));
    HIP_CHECK(hipFree(dC));
    return rep.finish();
}
