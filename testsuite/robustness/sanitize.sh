#!/usr/bin/env bash
# CI step: builds cu2dcu with AddressSanitizer + UndefinedBehaviorSanitizer
# into build-asan (only cu2dcu and cu2dcu-buildfiles, -O1 -g1 to keep the build short)
# and runs the golden, wave64-check and robustness tests against it (not the
# guarantee tests, the lexical-vs-AST comparison and the nvcc, HIP 6.4, make and cmake
# steps, which check outputs, not memory, and take longest;
# robustness/lexical/* runs the lexical mode). Any
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
if [ ! -f build-asan/build.ninja ]; then
  cmake -S . -B build-asan -G Ninja -DCU2DCU_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" >/dev/null
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
   -E '/hipcc$|/nvcc$|/hip64$|^golden/buildfiles/.*/build$|^golden/project/(make|cmake|database/build)$|^checks/wave64-precision$|^robustness/guarantee/|^robustness/lexical-vs-ast$' \
   "$@") || status=$?
done=$(date +%s)
echo "sanitizer step: build $((built - start)) s, tests $((done - built)) s, total $((done - start)) s"
exit $status
