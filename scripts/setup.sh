#!/usr/bin/env bash
# Fresh Debian 12 machine to a translated sample tree: installs dependencies,
# builds cu2dcu, and translates samples-cuda/ into out/samples-hip-translated/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
rm -rf out/samples-hip-translated
build/tool/main/cu2dcu samples-cuda -o out/samples-hip-translated -j "$(nproc)" --fail-on=never
