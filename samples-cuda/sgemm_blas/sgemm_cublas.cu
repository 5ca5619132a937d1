// sgemm_cublas: the library reference for the SGEMM ladder (kernel name "blas").
//
// C = A * B, row-major n x n, computed by cublasSgemm in plain FP32 (the
// default math mode: no TF32).  cuBLAS is column-major, so the row-major
// product is obtained as C^T = B^T * A^T: pass B first, then A.
// FLOPs counted: 2 n^3.  Verification: ../common/gemm_ref.h.
#include <cublas_v2.h>

#include "../common/bench.h"
#include "../common/gemm_ref.h"

#define CUBLAS_CHECK(call)                                                          \
    do {                                                                            \
        cublasStatus_t st_ = (call);                                                \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                         \
            fprintf(stderr, "cuBLAS error at %s:%d: %s: status %d\n", __FILE__,     \
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
    CUDA_CHECK(cudaMalloc(&dA, bytes));
    CUDA_CHECK(cudaMalloc(&dB, bytes));
    CUDA_CHECK(cudaMalloc(&dC, bytes));
    CUDA_CHECK(cudaMemcpy(dA, hA.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, hB.data(), bytes, cudaMemcpyHostToDevice));

    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    const float alpha = 1.0f, beta = 0.0f;
    auto launch = [&] {
        CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, dB, n, dA,
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
            CUDA_CHECK(cudaDeviceSynchronize());
            CUDA_CHECK(cudaMemcpy(hC.data(), dC, bytes, cudaMemcpyDeviceToHost));
            bench::GemmCheck g = bench::check_gemm(hA, hB, hC, n, o.seed);
            r.verified = 1;
            r.pass = g.pass;
            r.max_err = g.max_err;
            r.tol = g.tol;
        }
        r.t = bench::time_it(o, launch);
        rep.add(r);
    }

    CUBLAS_CHECK(cublasDestroy(handle));
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
    return rep.finish();
}
