#!/usr/bin/env bash
# GPU validation runner for an NVIDIA host (CUDA 12/13 nvcc, no HIP install needed).
#
#   testsuite/validation/run_gpu.sh [--translated DIR] [--out DIR] [--quick] [--sm 90]
#                                   [--no-rerun] [--strict] [--build-only]
#
# Builds, with nvcc -O3 for sm_XX:
#   cuda        samples-cuda/*            (nvcc, cuBLAS for sgemm_blas)
#   hip         samples-hip/*             (nvcc -D__HIP_PLATFORM_NVIDIA__ + compat headers)
#   translated  DIR/* if --translated     (same as hip; e.g. the output of
#                                          `cu2dcu samples-cuda -o DIR`)
# runs every program with --verify --json (CUDA first, then HIP, translated, and
# the CUDA original once more to measure run-to-run noise), and merges the JSON
# into OUT/report.{json,md} with testsuite/validation/report.py.
# Plots: testsuite/validation/plot_results.py OUT/report.json (needs matplotlib).
#
# Compat headers: generated from /usr/include/hip by scripts/hip-nvidia/
# make-compat-headers.py when that exists; otherwise $HIP_NVIDIA_INCLUDE
# (default build/hip-nvidia-include) must already hold them (generate them
# elsewhere and carry the folder).
#
# Environment: NVCC (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc), JOBS
# (parallel builds, default nproc), HIP_NVIDIA_INCLUDE (see above).
#
# Exit status: 1 if a build failed, a program failed, or a kernel FAILed
# verification (and, with --strict, if a performance check missed).
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=$ROOT/build/validation/gpu
TRANSLATED=""
QUICK=0
SM=90
RERUN=1
STRICT=""
BUILD_ONLY=0
while [ $# -gt 0 ]; do
    case "$1" in
        --translated) TRANSLATED=$(cd "$2" && pwd); shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --quick) QUICK=1; shift ;;
        --sm) SM=$2; shift 2 ;;
        --no-rerun) RERUN=0; shift ;;
        --strict) STRICT=--strict; shift ;;
        --build-only) BUILD_ONLY=1; shift ;;
        -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
        *) echo "run_gpu.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 1)}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
SKIP_RC=2
[ "$BUILD_ONLY" = 1 ] && SKIP_RC=77  # CTest: missing tools mean "skipped"
[ -x "$NVCC" ] || { echo "run_gpu.sh: nvcc not found" >&2; exit $SKIP_RC; }
HIPINC=${HIP_NVIDIA_INCLUDE:-$ROOT/build/hip-nvidia-include}
if [ -d /usr/include/hip ]; then
    python3 "$ROOT/scripts/hip-nvidia/make-compat-headers.py" --out "$HIPINC" || exit 1
fi
[ -f "$HIPINC/hip/hip_runtime.h" ] || {
    echo "run_gpu.sh: no compat headers in $HIPINC (run scripts/hip-nvidia/make-compat-headers.py)" >&2
    exit $SKIP_RC
}

BIN=$OUT/bin
RES=$OUT/results
LOGS=$OUT/logs
rm -rf "$RES" "$LOGS"
mkdir -p "$BIN" "$RES" "$LOGS"
"$NVCC" --version | tail -n 2 > "$OUT/toolchain.txt"
[ "$BUILD_ONLY" = 1 ] || nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,memory.total \
    --format=csv > "$OUT/device.txt" 2>&1 || true
[ -f "$OUT/device.txt" ] && cat "$OUT/device.txt"

NVFLAGS=(-O3 -std=c++17 -arch=sm_$SM -Xptxas -v)
HIPFLAGS=(-x cu -D__HIP_PLATFORM_NVIDIA__ -isystem "$HIPINC")

programs() {  # program folders of a sample tree, except common/
    local d f
    for d in "$1"/*/; do
        d=${d%/}
        [ "$(basename "$d")" = common ] && continue
        for f in "$d"/*.cu "$d"/*.cpp "$d"/*.hip; do
            [ -f "$f" ] && { basename "$d"; break; }
        done
    done
}

source_of() {  # main source of a program folder
    local d=$1/$2 f
    for f in "$d/$2".* "$d"/*.cu "$d"/*.cpp "$d"/*.hip; do
        case "$f" in *.cu|*.cpp|*.hip) [ -f "$f" ] && { echo "$f"; return; } ;; esac
    done
}

build_one() {  # variant tree program
    local v=$1 tree=$2 p=$3 src exe flags=() libs=()
    src=$(source_of "$tree" "$p")
    exe=$BIN/$v.$p
    if [ "$v" = cuda ]; then
        grep -q 'cublas' "$src" && libs=(-lcublas)
    else
        flags=("${HIPFLAGS[@]}")
        if grep -Eq '^\s*#\s*include\s*[<"](hipblas/)?hipblas' "$src"; then
            printf '#if __has_include(<hipblas/hipblas.h>)\n#include <hipblas/hipblas.h>\n#else\n#include <hipblas.h>\n#endif\n' > "$LOGS/probe.$v.$p.cpp"
            if ! "$NVCC" "${HIPFLAGS[@]}" -E "$LOGS/probe.$v.$p.cpp" -o /dev/null >/dev/null 2>&1; then
                echo "skipped: hipBLAS not installed" > "$RES/$v.$p.status"
                echo "  $v $p: skipped: hipBLAS not installed"
                return 0
            fi
            libs=(-lhipblas)
        fi
    fi
    if "$NVCC" "${NVFLAGS[@]}" "${flags[@]}" "$src" -o "$exe" "${libs[@]}" > "$LOGS/build.$v.$p.log" 2>&1; then
        echo "  $v $p: built"
    else
        echo "failed: build (see logs/build.$v.$p.log)" > "$RES/$v.$p.status"
        echo "  $v $p: BUILD FAILED"; tail -n 20 "$LOGS/build.$v.$p.log"
        return 1
    fi
}

declare -A TREES=([cuda]=$ROOT/samples-cuda [hip]=$ROOT/samples-hip)
VARIANTS=(cuda hip)
if [ -n "$TRANSLATED" ]; then TREES[translated]=$TRANSLATED; VARIANTS+=(translated); fi

echo "== build (nvcc ${NVFLAGS[*]})"
pids=()
build_fail=0
for v in "${VARIANTS[@]}"; do
    for p in $(programs "${TREES[$v]}"); do
        if [ "$JOBS" -le 1 ]; then
            build_one "$v" "${TREES[$v]}" "$p" || build_fail=1
        else
            while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 0.2; done
            build_one "$v" "${TREES[$v]}" "$p" & pids+=($!)
        fi
    done
done
for pid in "${pids[@]}"; do wait "$pid" || build_fail=1; done
if [ "$BUILD_ONLY" = 1 ]; then
    echo "run_gpu.sh: build only: build_fail=$build_fail"
    ls "$RES"/*.status 2>/dev/null | while read -r f; do echo "  $(basename "$f" .status): $(cat "$f")"; done
    [ $build_fail = 0 ]; exit
fi

if [ "$QUICK" = 1 ]; then
    declare -A ARGS=([vector_add]="--size 2^20 --stride 1,4,32" [reduction]="--size 2^20"
                     [sgemm]="--size 512 --warmup 1 --repeat 3" [sgemm_blas]="--size 512")
    COMMON="--warmup 2 --repeat 5"
else
    declare -A ARGS=([vector_add]="--size 2^28 --stride 1,2,4,8,16,32,64" [reduction]="--size 2^28"
                     [sgemm]="--size 4096 --warmup 2 --repeat 10" [sgemm_blas]="--size 4096")
    COMMON="--warmup 5 --repeat 20"
fi

run_one() {  # variant program [label]
    local v=$1 p=$2 label=${3:-$1} exe=$BIN/$1.$2
    [ -x "$exe" ] || return 0
    # shellcheck disable=SC2086
    if "$exe" $COMMON ${ARGS[$p]:-} --verify --json "$RES/$label.$p.json" > "$LOGS/run.$label.$p.log" 2>&1; then
        tail -n +1 "$LOGS/run.$label.$p.log"
    else
        local rc=$?
        cat "$LOGS/run.$label.$p.log"
        if [ ! -f "$RES/$label.$p.json" ] || [ $rc -ne 1 ]; then
            echo "failed: exit $rc (see logs/run.$label.$p.log)" > "$RES/$label.$p.status"
        fi
        return 1
    fi
}

echo "== run"
run_fail=0
for p in $(programs "$ROOT/samples-cuda"); do
    for v in "${VARIANTS[@]}"; do run_one "$v" "$p" || run_fail=1; done
    if [ "$RERUN" = 1 ]; then run_one cuda "$p" cuda-rerun || run_fail=1; fi
done
if [ -n "$TRANSLATED" ]; then  # programs only the translated tree has
    for p in $(programs "$TRANSLATED"); do
        [ -d "$ROOT/samples-cuda/$p" ] || { run_one translated "$p" || run_fail=1; }
    done
fi

echo "== report"
python3 "$HERE/report.py" --results "$RES" --out "$OUT" $STRICT > "$LOGS/report.log" 2>&1
rep_rc=$?
cat "$LOGS/report.log"
echo "run_gpu.sh: build_fail=$build_fail run_fail=$run_fail report_rc=$rep_rc; results in $OUT"
[ $build_fail = 0 ] && [ $run_fail = 0 ] && [ $rep_rc = 0 ]
