#!/usr/bin/env bash
# Proves the HIP 6.4 prefix of scripts/fetch-hip64.sh works: compiles one small
# snippet per library (host and gfx906 device pass, -fsyntax-only), checks that
# the 64-bit-mask warp call compiles and that a 32-bit mask is rejected by
# HIP 6.4's static_assert.  Exit status 1 if any check fails.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
PREFIX=${CU2DCU_HIP64_PREFIX:-$PWD/build/hip-6.4}
[ -f "$PREFIX/usr/include/hip/hip_version.h" ] ||
  { echo "check-hip64: no HIP prefix in $PREFIX: run scripts/fetch-hip64.sh" >&2; exit 1; }
CXX=(clang++-22 -x hip --offload-arch=gfx906 -std=c++17 -fsyntax-only -nogpulib
     -D__AMDGCN_WAVEFRONT_SIZE=64 --hip-path="$PREFIX/usr" -isystem "$PREFIX/usr/include")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failed=0

# check NAME EXPECT(ok|error:REGEX) [FLAGS...] < source
check() {
  local name=$1 expect=$2; shift 2
  cat > "$tmp/$name.hip"
  "${CXX[@]}" "$@" "$tmp/$name.hip" > "$tmp/$name.log" 2>&1; local rc=$?
  if [ "$expect" = ok ] && [ $rc -eq 0 ]; then echo "ok    $name"
  elif [ "$expect" != ok ] && [ $rc -ne 0 ] && grep -Eq "${expect#error:}" "$tmp/$name.log"; then
    echo "ok    $name (rejected as expected)"
  else echo "FAIL  $name"; sed 's/^/      /' "$tmp/$name.log" | head -n 15; failed=1; fi
}

check hipblas ok <<'EOF'
#include <hipblas/hipblas.h>
void f(int n, const float* x, float* y) {
  hipblasHandle_t h; hipblasCreate(&h); float a = 2;
  hipblasSaxpy(h, n, &a, x, 1, y, 1); hipblasDestroy(h);
}
EOF
check hipcub ok <<'EOF'
#include <hipcub/hipcub.hpp>
__global__ void k(const int* in, int* out) {
  using R = hipcub::BlockReduce<int, 256>;
  __shared__ typename R::TempStorage t;
  int s = R(t).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) *out = s;
}
void f(const int* in, int* out, int n) {
  size_t bytes = 0; hipcub::DeviceReduce::Sum(nullptr, bytes, in, out, n);
}
EOF
check rocthrust ok <<'EOF'
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
int f() {
  thrust::device_vector<int> v(16, 1); thrust::sort(v.begin(), v.end());
  return thrust::reduce(thrust::hip::par, v.begin(), v.end());
}
EOF
check hipfft ok <<'EOF'
#include <hipfft/hipfft.h>
#include <hipfft/hipfftXt.h>
void f(hipfftComplex* d) {
  hipfftHandle p; hipfftPlan1d(&p, 256, HIPFFT_C2C, 1);
  hipfftExecC2C(p, d, d, HIPFFT_FORWARD); hipfftDestroy(p);
}
EOF
check hipsolver ok <<'EOF'
#include <hipsolver/hipsolver.h>
void f(float* a, int n) {
  hipsolverDnHandle_t h; hipsolverDnCreate(&h); int lwork = 0;
  hipsolverDnSgetrf_bufferSize(h, n, n, a, n, &lwork); hipsolverDnDestroy(h);
}
EOF
check miopen ok <<'EOF'
#include <miopen/miopen.h>
void f() {
  miopenHandle_t h; miopenCreate(&h); miopenTensorDescriptor_t t;
  miopenCreateTensorDescriptor(&t); miopenSet4dTensorDescriptor(t, miopenFloat, 1, 3, 8, 8);
  miopenDestroyTensorDescriptor(t); miopenDestroy(h);
}
EOF
check rccl ok <<'EOF'
#include <rccl/rccl.h>
void f(float* b, size_t n, hipStream_t s) {
  ncclUniqueId id; ncclGetUniqueId(&id); ncclComm_t c; ncclCommInitRank(&c, 1, id, 0);
  ncclAllReduce(b, b, n, ncclFloat, ncclSum, c, s); ncclCommDestroy(c);
}
EOF
check hiprand ok <<'EOF'
#include <hiprand/hiprand.h>
#include <hiprand/hiprand_kernel.h>
__global__ void k(float* out) {
  hiprandState_t s; hiprand_init(1234, threadIdx.x, 0, &s); out[threadIdx.x] = hiprand_uniform(&s);
}
void f(float* d, size_t n) {
  hiprandGenerator_t g; hiprandCreateGenerator(&g, HIPRAND_RNG_PSEUDO_DEFAULT);
  hiprandGenerateUniform(g, d, n); hiprandDestroyGenerator(g);
}
EOF
check hipsparse ok <<'EOF'
#include <hipsparse/hipsparse.h>
void f() {
  hipsparseHandle_t h; hipsparseCreate(&h); hipsparseMatDescr_t d;
  hipsparseCreateMatDescr(&d); hipsparseDestroyMatDescr(d); hipsparseDestroy(h);
}
EOF
check roctx ok <<'EOF'
#include <roctracer/roctx.h>
void f() { roctxRangePushA("step"); roctxMarkA("mark"); roctxRangePop(); }
EOF
check hipblaslt ok <<'EOF'
#include <hipblaslt/hipblaslt.h>
void f() {
  hipblasLtHandle_t h; hipblasLtCreate(&h);
  hipblasLtMatmulDesc_t d; hipblasLtMatmulDescCreate(&d, HIPBLAS_COMPUTE_32F, HIP_R_32F);
  hipblasLtEpilogue_t e = HIPBLASLT_EPILOGUE_RELU_BIAS;
  hipblasLtMatmulDescSetAttribute(d, HIPBLASLT_MATMUL_DESC_EPILOGUE, &e, sizeof e);
  hipblasLtMatmulDescDestroy(d); hipblasLtDestroy(h);
}
EOF
# HIP 6.x declares the *_sync warp functions only with HIP_ENABLE_WARP_SYNC_BUILTINS
warp() { printf '#include <hip/hip_runtime.h>\n__global__ void k(int* p) {\n  int v = p[threadIdx.x];\n  p[threadIdx.x] = __shfl_down_sync(%s, v, 1);\n}\n' "$1"; }
warp 0xffffffffffffffffull | check warp-sync-64bit-mask ok -DHIP_ENABLE_WARP_SYNC_BUILTINS
warp 0xffffffff | check warp-sync-32bit-mask 'error:static assert.*must be a 64-bit integer' -DHIP_ENABLE_WARP_SYNC_BUILTINS
warp 0xffffffffffffffffull | check warp-sync-without-macro "error:undeclared identifier '__shfl_down_sync'"

((failed)) && { echo "check-hip64: FAILED"; exit 1; }
echo "check-hip64: all checks passed ($(head -n1 "$PREFIX/VERSIONS.txt"))"
