#!/usr/bin/env bash
# Runs every test: installs dependencies if missing, builds, runs CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
cd build
ctest --output-on-failure -j"$(nproc)" "$@"
