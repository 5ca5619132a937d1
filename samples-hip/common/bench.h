// Shared benchmark harness for the cu2dcu validation samples (HIP side, written by hand).
//
// Every sample program takes the same command line:
//   --size N        problem size (elements, or matrix edge for SGEMM); N may be 2^K
//   --warmup W      untimed launches before timing (default 5)
//   --repeat R      timed launches; min and median are reported (default 20)
//   --json FILE     write per-kernel results as JSON
//   --verify        check every kernel against a CPU reference (PASS/FAIL)
//   --kernel NAME   run only kernels whose name contains NAME
//   --seed S        input seed (default: a fresh random seed, printed)
//   --stride S[,S]  vector_add only: strides of the strided variant
//
// This is the hand-written HIP counterpart of samples-cuda/common/bench.h: the
// same command line, output and JSON format, written against the HIP runtime
// API.  It builds with hipcc for AMD GPUs and, through the generated compat
// headers (scripts/hip-nvidia), with nvcc -D__HIP_PLATFORM_NVIDIA__.  Timing
// uses HIP events around each repetition, after warm-up.  The exit status is 1
// when any kernel FAILs verification and 2 on a HIP error.
#pragma once

#include <hip/hip_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#define HIP_CHECK(call)                                                          \
    do {                                                                          \
        hipError_t err_ = (call);                                                \
        if (err_ != hipSuccess) {                                                \
            fprintf(stderr, "HIP error at %s:%d: %s: %s\n", __FILE__, __LINE__,  \
                    #call, hipGetErrorString(err_));                             \
            exit(2);                                                              \
        }                                                                         \
    } while (0)

#define HIP_CHECK_LAUNCH() HIP_CHECK(hipGetLastError())

namespace bench {

static const char* const kBackend = "hip";

struct Options {
    size_t size = 0;
    int warmup = 5;
    int repeat = 20;
    std::string json;
    bool verify = false;
    std::string kernel;  // substring filter
    uint64_t seed = 0;
    std::vector<int> strides;
};

inline void usage(const char* prog, const char* extra) {
    printf("usage: %s [--size N] [--warmup W] [--repeat R] [--json FILE] [--verify]\n"
           "          [--kernel NAME] [--seed S]%s\n",
           prog, extra ? extra : "");
}

inline size_t parse_size(const char* s) {
    const char* caret = strchr(s, '^');
    if (caret && caret == s + 1 && s[0] == '2') return (size_t)1 << atoi(caret + 1);
    char* end = nullptr;
    unsigned long long v = strtoull(s, &end, 0);
    if (end && (*end == 'k' || *end == 'K')) v <<= 10;
    if (end && (*end == 'm' || *end == 'M')) v <<= 20;
    if (end && (*end == 'g' || *end == 'G')) v <<= 30;
    return (size_t)v;
}

inline Options parse_args(int argc, char** argv, size_t default_size, bool has_stride = false) {
    Options o;
    o.size = default_size;
    o.seed = std::random_device{}();
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> const char* {
            if (i + 1 >= argc) {
                fprintf(stderr, "%s: missing value for %s\n", argv[0], a.c_str());
                exit(2);
            }
            return argv[++i];
        };
        if (a == "--size") o.size = parse_size(next());
        else if (a == "--warmup") o.warmup = atoi(next());
        else if (a == "--repeat") o.repeat = atoi(next());
        else if (a == "--json") o.json = next();
        else if (a == "--verify") o.verify = true;
        else if (a == "--kernel") o.kernel = next();
        else if (a == "--seed") o.seed = strtoull(next(), nullptr, 0);
        else if (has_stride && a == "--stride") {
            std::string s = next();
            size_t p = 0;
            while (p < s.size()) {
                size_t q = s.find(',', p);
                if (q == std::string::npos) q = s.size();
                o.strides.push_back(atoi(s.substr(p, q - p).c_str()));
                p = q + 1;
            }
        } else if (a == "--help" || a == "-h") {
            usage(argv[0], has_stride ? " [--stride S[,S...]]" : "");
            exit(0);
        } else {
            fprintf(stderr, "%s: unknown option %s\n", argv[0], a.c_str());
            usage(argv[0], has_stride ? " [--stride S[,S...]]" : "");
            exit(2);
        }
    }
    if (o.size == 0 || o.repeat < 1 || o.warmup < 0) {
        fprintf(stderr, "%s: bad --size/--repeat/--warmup\n", argv[0]);
        exit(2);
    }
    return o;
}

inline bool selected(const Options& o, const char* name) {
    return o.kernel.empty() || strstr(name, o.kernel.c_str()) != nullptr;
}

// Deterministic, fast input generator (splitmix64): n floats uniform in
// [lo, hi). The samples keep their inputs const, so that verification always
// compares against what was generated: a swapped or misdirected upload cannot
// overwrite the reference without a compile error.
inline std::vector<float> uniform(size_t n, uint64_t seed, float lo, float hi) {
    std::vector<float> v(n);
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    for (size_t i = 0; i < v.size(); ++i) {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        v[i] = lo + (hi - lo) * (float)((z >> 40) * (1.0 / 16777216.0));
    }
    return v;
}

struct Timing {
    double min_ms = 0, median_ms = 0;
};

// Runs `launch` warmup times, then times `repeat` launches one by one with
// events.  `launch` must only enqueue work on the default stream.
template <typename F>
Timing time_it(const Options& o, F launch) {
    hipEvent_t start, stop;
    HIP_CHECK(hipEventCreate(&start));
    HIP_CHECK(hipEventCreate(&stop));
    for (int i = 0; i < o.warmup; ++i) launch();
    HIP_CHECK_LAUNCH();
    HIP_CHECK(hipDeviceSynchronize());
    std::vector<double> ms;
    for (int i = 0; i < o.repeat; ++i) {
        HIP_CHECK(hipEventRecord(start, 0));
        launch();
        HIP_CHECK(hipEventRecord(stop, 0));
        HIP_CHECK(hipEventSynchronize(stop));
        HIP_CHECK_LAUNCH();
        float t = 0;
        HIP_CHECK(hipEventElapsedTime(&t, start, stop));
        ms.push_back(t);
    }
    HIP_CHECK(hipEventDestroy(start));
    HIP_CHECK(hipEventDestroy(stop));
    std::sort(ms.begin(), ms.end());
    Timing r;
    r.min_ms = ms.front();
    size_t n = ms.size();
    r.median_ms = (n % 2) ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    return r;
}

struct Result {
    std::string name;
    size_t size = 0;
    Timing t;
    double bytes = 0;   // bytes moved through device memory (minimum), 0 if n/a
    double flops = 0;   // floating-point operations, 0 if n/a
    int verified = 0;   // 0: not checked, 1: checked
    bool pass = false;
    double max_err = 0, tol = 0;
    std::string extra;  // extra JSON members, e.g. "\"stride\": 4"
};

class Report {
public:
    Report(const char* program, const Options& o) : program_(program), o_(o) {
        hipDeviceProp_t p;
        HIP_CHECK(hipGetDeviceProperties(&p, 0));
        device_ = p.name;
        warp_ = p.warpSize;
        printf("%s [%s] on %s (warp %d), size %zu, warmup %d, repeat %d, seed %llu\n",
               program, kBackend, device_.c_str(), warp_, o.size, o.warmup, o.repeat,
               (unsigned long long)o.seed);
    }

    void add(const Result& r) {
        results_.push_back(r);
        double s = r.t.median_ms * 1e-3;
        char rate[64] = "";
        if (r.flops > 0) snprintf(rate, sizeof rate, "%10.1f GFLOP/s", r.flops / s * 1e-9);
        else if (r.bytes > 0) snprintf(rate, sizeof rate, "%10.1f GB/s", r.bytes / s * 1e-9);
        const char* verdict = !r.verified ? "unverified" : (r.pass ? "PASS" : "FAIL");
        printf("  %-26s min %9.4f ms  median %9.4f ms %s  %s", r.name.c_str(), r.t.min_ms,
               r.t.median_ms, rate, verdict);
        if (r.verified) printf(" (max err %.3g, tol %.3g)", r.max_err, r.tol);
        printf("\n");
        fflush(stdout);
    }

    int finish() const {
        int fails = 0;
        for (const Result& r : results_) fails += (r.verified && !r.pass);
        if (!o_.json.empty()) write_json();
        if (o_.verify)
            printf("%s: %d kernel(s), %d FAIL\n", program_.c_str(), (int)results_.size(), fails);
        return fails ? 1 : 0;
    }

private:
    static std::string esc(const std::string& s) {
        std::string r;
        for (char c : s) {
            if (c == '"' || c == '\\') r += '\\';
            if ((unsigned char)c >= 0x20) r += c;
        }
        return r;
    }

    void write_json() const {
        FILE* f = fopen(o_.json.c_str(), "w");
        if (!f) {
            fprintf(stderr, "cannot write %s\n", o_.json.c_str());
            exit(2);
        }
        fprintf(f, "{\n  \"program\": \"%s\",\n  \"backend\": \"%s\",\n  \"device\": \"%s\",\n",
                esc(program_).c_str(), kBackend, esc(device_).c_str());
        fprintf(f, "  \"warp_size\": %d,\n  \"warmup\": %d,\n  \"repeat\": %d,\n  \"seed\": %llu,\n",
                warp_, o_.warmup, o_.repeat, (unsigned long long)o_.seed);
        fprintf(f, "  \"results\": [\n");
        for (size_t i = 0; i < results_.size(); ++i) {
            const Result& r = results_[i];
            double s = r.t.median_ms * 1e-3;
            fprintf(f, "    {\"name\": \"%s\", \"size\": %zu, \"min_ms\": %.6f, \"median_ms\": %.6f",
                    esc(r.name).c_str(), r.size, r.t.min_ms, r.t.median_ms);
            if (r.bytes > 0)
                fprintf(f, ", \"bytes\": %.0f, \"gbps\": %.3f", r.bytes, r.bytes / s * 1e-9);
            if (r.flops > 0)
                fprintf(f, ", \"flops\": %.0f, \"gflops\": %.3f", r.flops, r.flops / s * 1e-9);
            if (r.verified)
                fprintf(f, ", \"pass\": %s, \"max_err\": %.6g, \"tol\": %.6g",
                        r.pass ? "true" : "false", r.max_err, r.tol);
            else
                fprintf(f, ", \"pass\": null");
            if (!r.extra.empty()) fprintf(f, ", %s", r.extra.c_str());
            fprintf(f, "}%s\n", i + 1 < results_.size() ? "," : "");
        }
        fprintf(f, "  ]\n}\n");
        fclose(f);
    }

    std::string program_, device_;
    int warp_ = 0;
    const Options& o_;
    std::vector<Result> results_;
};

// Fills a device float buffer with NaN (all bits set) so that unwritten
// outputs fail verification.
inline void poison(float* d, size_t n) { HIP_CHECK(hipMemset(d, 0xFF, n * sizeof(float))); }

}  // namespace bench
