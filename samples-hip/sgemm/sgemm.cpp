// sgemm (HIP, hand-written): C = A * B, single precision, row-major, n x n.
//
// The same ladder, kernel names, command line and JSON as samples-cuda/sgemm:
//   naive            one thread per C entry, threadIdx.x walks ROWS: uncoalesced
//   coalesced        one thread per C entry, threadIdx.x walks columns
//   smem_tiled       32x32 tiles of A and B staged in shared memory
//   regblock_float4  128x128 block tile, BK = 8, 8x8 outputs per thread held in
//                    registers, float4 global loads and float4 shared-memory reads
//   padded_dbuf      as regblock_float4, plus shared-memory padding against bank
//                    conflicts, a conflict-free 4+4 thread-tile layout, and double
//                    buffering (next tile prefetched into registers during compute)
// The library reference is the separate program sgemm_hipblas (built only where
// hipBLAS is installed).  On a 64-lane wavefront the 256-thread blocks are 4 waves
// (8 warps on NVIDIA); LDS has 32 banks of 4 bytes on gfx9, so the padding that
// removes the transposed-store conflicts on NVIDIA does the same here.
//
// n must be a multiple of 128.  FLOPs counted: 2 n^3.
// Verification: see ../common/gemm_ref.h (sampled above n = 512, with tolerance).
#include "../common/bench.h"
#include "../common/gemm_ref.h"

// ---------------------------------------------------------------- naive
__global__ void sgemm_naive(const float* A, const float* B, float* C, int n) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        float acc = 0.0f;
        for (int k = 0; k < n; ++k) acc += A[(size_t)row * n + k] * B[(size_t)k * n + col];
        C[(size_t)row * n + col] = acc;
    }
}

// ---------------------------------------------------------------- coalesced
__global__ void sgemm_coalesced(const float* A, const float* B, float* C, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float acc = 0.0f;
        for (int k = 0; k < n; ++k) acc += A[(size_t)row * n + k] * B[(size_t)k * n + col];
        C[(size_t)row * n + col] = acc;
    }
}

// ---------------------------------------------------------------- smem_tiled
#define TILE 32
__global__ void sgemm_smem_tiled(const float* A, const float* B, float* C, int n) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        As[ty][tx] = A[(size_t)row * n + k0 + tx];
        Bs[ty][tx] = B[(size_t)(k0 + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(size_t)row * n + col] = acc;
}

// ---------------------------------------------------------------- register blocking
#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define NTHREADS 256  // (BM / TM) * (BN / TN)
// Occupancy hint.  On AMD only the maximum block size is given: HIP 5.2 turns a
// second __launch_bounds__ argument into amdgpu_waves_per_eu (not CUDA's "min
// blocks per SM"), and waves_per_eu(2) caps a wave64 kernel at 128 VGPRs, under
// which sgemm_padded_dbuf spills on gfx906.  On NVIDIA (HIP's nvcc path) the
// argument keeps its CUDA meaning: 2 blocks per SM, <= 128 registers, as in
// samples-cuda/sgemm.
#if defined(__HIP_PLATFORM_NVIDIA__)
#define SGEMM_LAUNCH_BOUNDS __launch_bounds__(NTHREADS, 2)
#else
#define SGEMM_LAUNCH_BOUNDS __launch_bounds__(NTHREADS)
#endif

__global__ void SGEMM_LAUNCH_BOUNDS
sgemm_regblock_float4(const float* __restrict__ A, const float* __restrict__ B,
                      float* __restrict__ C, int n) {
    __shared__ float As[BK][BM];  // A tile, transposed: As[k][m]
    __shared__ float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int tr = tid / (BN / TN), tc = tid % (BN / TN);
    const int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
    // each thread loads one float4 of A (128 x 8) and one of B (8 x 128) per step
    const int aRow = tid / (BK / 4), aCol = (tid % (BK / 4)) * 4;
    const int bRow = tid / (BN / 4), bCol = (tid % (BN / 4)) * 4;
    const float* Ap = A + (size_t)(rowBase + aRow) * n + aCol;
    const float* Bp = B + (size_t)bRow * n + colBase + bCol;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;
    float ra[TM], rb[TN];

    for (int k0 = 0; k0 < n; k0 += BK) {
        float4 a4 = *reinterpret_cast<const float4*>(Ap + k0);
        As[aCol + 0][aRow] = a4.x;
        As[aCol + 1][aRow] = a4.y;
        As[aCol + 2][aRow] = a4.z;
        As[aCol + 3][aRow] = a4.w;
        *reinterpret_cast<float4*>(&Bs[bRow][bCol]) =
            *reinterpret_cast<const float4*>(Bp + (size_t)k0 * n);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int i = 0; i < TM; i += 4) {
                float4 x = *reinterpret_cast<const float4*>(&As[k][tr * TM + i]);
                ra[i] = x.x; ra[i + 1] = x.y; ra[i + 2] = x.z; ra[i + 3] = x.w;
            }
#pragma unroll
            for (int j = 0; j < TN; j += 4) {
                float4 y = *reinterpret_cast<const float4*>(&Bs[k][tc * TN + j]);
                rb[j] = y.x; rb[j + 1] = y.y; rb[j + 2] = y.z; rb[j + 3] = y.w;
            }
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        float* c = C + (size_t)(rowBase + tr * TM + i) * n + colBase + tc * TN;
#pragma unroll
        for (int j = 0; j < TN; j += 4)
            *reinterpret_cast<float4*>(c + j) =
                make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
    }
}

// ---------------------------------------------------------------- padding + double buffering
#define PAD 4  // keeps rows 16-byte aligned; breaks the 2-way conflict of the transposed A store

__global__ void SGEMM_LAUNCH_BOUNDS
sgemm_padded_dbuf(const float* __restrict__ A, const float* __restrict__ B,
                  float* __restrict__ C, int n) {
    __shared__ float As[2][BK][BM + PAD];
    __shared__ float Bs[2][BK][BN + PAD];
    const int tid = threadIdx.x;
    // thread tile: rows {tr*4 + i, 64 + tr*4 + i}, cols {tc*4 + j, 64 + tc*4 + j}, i,j < 4:
    // 16 consecutive threads read 16 consecutive float4 from shared memory (no conflicts)
    const int tr = tid / 16, tc = tid % 16;
    const int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
    const int aRow = tid / (BK / 4), aCol = (tid % (BK / 4)) * 4;
    const int bRow = tid / (BN / 4), bCol = (tid % (BN / 4)) * 4;
    const float* Ap = A + (size_t)(rowBase + aRow) * n + aCol;
    const float* Bp = B + (size_t)bRow * n + colBase + bCol;

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;
    float ra[8], rb[8];

    float4 a4 = *reinterpret_cast<const float4*>(Ap);
    float4 b4 = *reinterpret_cast<const float4*>(Bp);
    As[0][aCol + 0][aRow] = a4.x;
    As[0][aCol + 1][aRow] = a4.y;
    As[0][aCol + 2][aRow] = a4.z;
    As[0][aCol + 3][aRow] = a4.w;
    *reinterpret_cast<float4*>(&Bs[0][bRow][bCol]) = b4;
    __syncthreads();

    int stage = 0;
    for (int k0 = 0; k0 < n; k0 += BK) {
        const bool has_next = k0 + BK < n;
        if (has_next) {  // prefetch the next tile into registers
            a4 = *reinterpret_cast<const float4*>(Ap + k0 + BK);
            b4 = *reinterpret_cast<const float4*>(Bp + (size_t)(k0 + BK) * n);
        }
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float4 x0 = *reinterpret_cast<const float4*>(&As[stage][k][tr * 4]);
            float4 x1 = *reinterpret_cast<const float4*>(&As[stage][k][64 + tr * 4]);
            float4 y0 = *reinterpret_cast<const float4*>(&Bs[stage][k][tc * 4]);
            float4 y1 = *reinterpret_cast<const float4*>(&Bs[stage][k][64 + tc * 4]);
            ra[0] = x0.x; ra[1] = x0.y; ra[2] = x0.z; ra[3] = x0.w;
            ra[4] = x1.x; ra[5] = x1.y; ra[6] = x1.z; ra[7] = x1.w;
            rb[0] = y0.x; rb[1] = y0.y; rb[2] = y0.z; rb[3] = y0.w;
            rb[4] = y1.x; rb[5] = y1.y; rb[6] = y1.z; rb[7] = y1.w;
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] += ra[i] * rb[j];
        }
        if (has_next) {  // the other stage was last read before the previous barrier
            const int ns = stage ^ 1;
            As[ns][aCol + 0][aRow] = a4.x;
            As[ns][aCol + 1][aRow] = a4.y;
            As[ns][aCol + 2][aRow] = a4.z;
            As[ns][aCol + 3][aRow] = a4.w;
            *reinterpret_cast<float4*>(&Bs[ns][bRow][bCol]) = b4;
        }
        __syncthreads();
        stage ^= 1;
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        int row = rowBase + (i < 4 ? tr * 4 + i : 64 + tr * 4 + (i - 4));
        float* c = C + (size_t)row * n + colBase;
        *reinterpret_cast<float4*>(c + tc * 4) =
            make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        *reinterpret_cast<float4*>(c + 64 + tc * 4) =
            make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
    }
}

int main(int argc, char** argv) {
    bench::Options o = bench::parse_args(argc, argv, 1024);
    const int n = (int)o.size;
    if (n % BM != 0) {
        fprintf(stderr, "sgemm: --size must be a multiple of %d\n", BM);
        return 2;
    }
    const size_t elems = (size_t)n * n, bytes = elems * sizeof(float);
    bench::Report rep("sgemm", o);

    const std::vector<float> hA = bench::uniform(elems, o.seed, -1.0f, 1.0f);
    const std::vector<float> hB = bench::uniform(elems, o.seed + 1, -1.0f, 1.0f);
    std::vector<float> hC(elems);
    float *dA, *dB, *dC;
    HIP_CHECK(hipMalloc(&dA, bytes));
    HIP_CHECK(hipMalloc(&dB, bytes));
    HIP_CHECK(hipMalloc(&dC, bytes));
    HIP_CHECK(hipMemcpy(dA, hA.data(), bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(dB, hB.data(), bytes, hipMemcpyHostToDevice));

    auto run_kernel = [&](const char* name, const std::function<void()>& launch) {
        if (!bench::selected(o, name)) return;
        bench::Result r;
        r.name = name;
        r.size = n;
        r.flops = 2.0 * n * (double)n * n;
        if (o.verify) {
            bench::poison(dC, elems);
            launch();
            HIP_CHECK_LAUNCH();
            HIP_CHECK(hipMemcpy(hC.data(), dC, bytes, hipMemcpyDeviceToHost));
            bench::GemmCheck g = bench::check_gemm(hA, hB, hC, n, o.seed);
            r.verified = 1;
            r.pass = g.pass;
            r.max_err = g.max_err;
            r.tol = g.tol;
        }
        r.t = bench::time_it(o, launch);
        rep.add(r);
    };

    dim3 block32(32, 32);
    dim3 grid32(n / 32, n / 32);
    dim3 gridBig(n / BN, n / BM);
    run_kernel("naive", [&] {
        hipLaunchKernelGGL(sgemm_naive, grid32, block32, 0, 0, dA, dB, dC, n);
    });
    run_kernel("coalesced", [&] {
        hipLaunchKernelGGL(sgemm_coalesced, grid32, block32, 0, 0, dA, dB, dC, n);
    });
    run_kernel("smem_tiled", [&] {
        hipLaunchKernelGGL(sgemm_smem_tiled, grid32, block32, 0, 0, dA, dB, dC, n);
    });
    run_kernel("regblock_float4", [&] {
        hipLaunchKernelGGL(sgemm_regblock_float4, gridBig, dim3(NTHREADS), 0, 0, dA, dB, dC, n);
    });
    run_kernel("padded_dbuf", [&] {
        hipLaunchKernelGGL(sgemm_padded_dbuf, gridBig, dim3(NTHREADS), 0, 0, dA, dB, dC, n);
    });

    HIP_CHECK(hipFree(dA));
    HIP_CHECK(hipFree(dB));
    HIP_CHECK(hipFree(dC));
    return rep.finish();
}
