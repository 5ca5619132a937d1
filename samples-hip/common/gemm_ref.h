// CPU reference check for the SGEMM samples (host code only, no GPU API).
//
// C = A * B, row-major, all n x n.  For n <= 512 every entry is checked; for
// larger n, 4096 entries at random positions (plus the four corners) are
// checked and the whole of C is scanned for non-finite values (the output is
// poisoned with NaN before the checked launch, so an unwritten entry fails).
// Tolerance per entry: |c - ref| <= 1e-4 * sum_k |a_ik * b_kj| + 1e-6, with
// ref and the sum computed in double.  fp32 accumulation error is bounded by
// n * eps * sum|a*b| (2.4e-4 at n = 4096) and is typically ~sqrt(n) * eps.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace bench {

struct GemmCheck {
    bool pass = false;
    double max_err = 0;  // max of |c - ref| / (sum|a*b| + tiny)
    double tol = 1e-4;
};

inline GemmCheck check_gemm(const std::vector<float>& A, const std::vector<float>& B,
                            const std::vector<float>& C, int n, uint64_t seed) {
    GemmCheck r;
    bool ok = true;
    for (size_t i = 0; i < C.size(); ++i)
        if (!std::isfinite(C[i])) { ok = false; r.max_err = INFINITY; break; }
    std::vector<std::pair<int, int>> pos;
    if (n <= 512) {
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) pos.push_back({i, j});
    } else {
        pos = {{0, 0}, {0, n - 1}, {n - 1, 0}, {n - 1, n - 1}};
        uint64_t s = seed ^ 0xD1B54A32D192ED03ull;
        for (int t = 0; t < 4096; ++t) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            pos.push_back({(int)((s >> 33) % (uint64_t)n), (int)((s >> 13) % (uint64_t)n)});
        }
    }
    for (auto& p : pos) {
        double ref = 0, mag = 0;
        const float* a = &A[(size_t)p.first * n];
        for (int k = 0; k < n; ++k) {
            double prod = (double)a[k] * (double)B[(size_t)k * n + p.second];
            ref += prod;
            mag += std::fabs(prod);
        }
        double c = C[(size_t)p.first * n + p.second];
        double err = std::fabs(c - ref);
        double rel = std::isfinite(c) ? err / (mag + 1e-30) : INFINITY;
        r.max_err = std::max(r.max_err, rel);
        if (!(err <= r.tol * mag + 1e-6)) ok = false;
    }
    r.pass = ok;
    return r;
}

}  // namespace bench
