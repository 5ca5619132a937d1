#!/usr/bin/env bash
# Installs what cu2dcu needs on Debian 12 (bookworm) from Debian's packages.
# Safe to rerun: apt skips what is already installed.
set -euo pipefail
packages=(
  cmake ninja-build g++ python3 diffutils
  clang-22 libclang-22-dev llvm-22-dev libzstd-dev   # the AST engine
  libclang-rt-22-dev                                 # the sanitizer build's runtimes
  lld-22                                             # links HIP 6.4 device code (validation)
  libyaml-cpp-dev libgtest-dev libbenchmark-dev      # maps, unit tests, benchmarks
  hipcc libamdhip64-dev rocm-device-libs             # compile the HIP output offline
  libomp-15-dev                                      # OpenMP for hipcc's clang 15 (ROCm ships its own)
  libhipsparse-dev libhiprand-dev librocrand-dev librocprim-dev
  python3-jsonschema python3-matplotlib chromium      # report validation and browser tests
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ ! -f /usr/local/cuda/include/cuda_runtime.h ] && [ -z "${CUDA_PATH:-}" ]; then
  echo "note: no CUDA toolkit found; cu2dcu will translate lexically (see docs/robustness.md)"
fi
# HIP 6.4 and its libraries' headers, as files under build/hip-6.4 (second
# verified target: scripts/check-hip64.sh, verify.py --hip-prefix)
bash "$(dirname "$0")/fetch-hip64.sh"
