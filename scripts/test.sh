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
(cd build && ctest --output-on-failure -j"$(nproc)" "$@")
if [ "${CU2DCU_SANITIZE_STEP:-1}" = 0 ]; then
  echo "sanitizer step: skipped (CU2DCU_SANITIZE_STEP=0), not run"
else
  bash testsuite/robustness/sanitize.sh
fi
