#!/usr/bin/env bash
# CI step: builds cu2dcu with AddressSanitizer + UndefinedBehaviorSanitizer
# into build-asan (only cu2dcu and cu2dcu-buildfiles, clang++-22 -O0 -g1 to keep the build short)
# and runs the golden, wave64-check and robustness tests against it (not the
# guarantee tests and the nvcc, HIP 6.4, make and cmake steps, which check
# outputs, not memory, and take longest). The golden and check cases run
# through robustness/lexical-vs-ast, which translates them all in both modes
# in one run per argument set and writes every report, instead of one
# CTest translation each; robustness/lexical/* runs the lexical mode. Any
# sanitizer report fails the test that triggered it (-fno-sanitize-recover,
# and a parse child's report fails the run instead of falling back).
#
#   bash testsuite/robustness/sanitize.sh            # build + tests
#   JOBS=1 bash testsuite/robustness/sanitize.sh     # fewer parallel jobs
#   bash testsuite/robustness/sanitize.sh -R golden  # extra ctest arguments
#
# Prints the time each half took (docs/robustness.md has the figures).
set -euo pipefail
cd "$(dirname "$0")/../.."
JOBS=${JOBS:-$(nproc)}
start=$(date +%s)
# clang++-22 at -O0 builds the instrumented tool in less than half the time
# of g++ at -O1 (docs/robustness.md); the work of a run is mostly in the
# uninstrumented libclang, so the tests barely slow down. A build-asan of
# another compiler (an older checkout's) is configured again.
if ! grep -qs '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++-22$' build-asan/CMakeCache.txt; then
  rm -rf build-asan
  cmake -S . -B build-asan -G Ninja -DCU2DCU_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_COMPILER=clang++-22 "-DCMAKE_CXX_FLAGS_DEBUG=-O0 -g1" >/dev/null
fi
ninja -C build-asan -j"$JOBS" cu2dcu cu2dcu-buildfiles
built=$(date +%s)
# Leaks are not checked: clang frees little on purpose at exit, and the
# parse children leave with _exit.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:detect_stack_use_after_return=0:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
(cd build-asan && ctest --output-on-failure -j"$JOBS" --timeout 1200 \
   -R '^(golden|checks|robustness)/' \
   -E '^(golden|checks)/[^/]+[.]cu$|/hipcc$|/nvcc$|/hip64$|^golden/buildfiles/.*/build$|^golden/project/(make|cmake|database/build)$|^golden/rdc/(make|cmake)$|^checks/wave64-precision$|^robustness/guarantee/' \
   "$@") || status=$?
done=$(date +%s)
echo "sanitizer step: build $((built - start)) s, tests $((done - built)) s, total $((done - start)) s"
exit $status
