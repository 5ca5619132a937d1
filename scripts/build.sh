#!/usr/bin/env bash
# Configures and builds cu2dcu into build/ (incremental).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/build.ninja ] || cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build -j"${JOBS:-$(nproc)}"
