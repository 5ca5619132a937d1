#!/usr/bin/env bash
# Runs every test: installs dependencies if missing, builds, runs CTest, then
# the sanitizer step (an ASan+UBSan build of cu2dcu running the golden, check
# and robustness tests; testsuite/robustness/sanitize.sh).
#
#   bash scripts/test.sh                       # everything (what CI runs)
#   bash scripts/test.sh -R golden             # extra arguments go to CTest
#   CU2DCU_SANITIZE_STEP=0 bash scripts/test.sh  # skip the sanitizer step (says so)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
# Tests without a TIMEOUT of their own get 600 s (CTest's default is none, so
# a hang would stall CI): over 7x the slowest of them (81 s on 2 cores,
# testsuite/results/suite-time.json). One job more than cores: tests also
# wait on files and child processes.
# The tests' runs keep their unit cache (docs/ci.md) in a folder of their
# own, not the user's, and start from an empty one.
XDG_CACHE_HOME="$(mktemp -d)"
export XDG_CACHE_HOME
trap 'rm -rf "$XDG_CACHE_HOME"' EXIT
# A fresh build tree has no CTest cost data, and CTest then starts tests in
# the order they are declared: a long test declared late ends the run alone.
# testsuite/ctest-costs.txt (a warm tree's CTestCostData.txt, tests of 4 s
# and more) lets the slow ones start first; CTest updates its copy as it runs.
if [ ! -e build/Testing/Temporary/CTestCostData.txt ]; then
  mkdir -p build/Testing/Temporary
  cp testsuite/ctest-costs.txt build/Testing/Temporary/CTestCostData.txt
fi
(cd build && ctest --output-on-failure --timeout 600 -j"$(( $(nproc) + 1 ))" "$@")
if [ "${CU2DCU_SANITIZE_STEP:-1}" = 0 ]; then
  echo "sanitizer step: skipped (CU2DCU_SANITIZE_STEP=0), not run"
else
  bash testsuite/robustness/sanitize.sh
fi
