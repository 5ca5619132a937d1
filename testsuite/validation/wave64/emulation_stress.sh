#!/bin/sh
# Stress test of the wave64 emulation on the NVIDIA GPU (emulation_stress.cu):
# whole-wavefront ballots and shuffles with all 64 lanes active, in many
# blocks; the mask check must never fire. Prints one JSON line per run; exit
# 0 when every run is clean.
#
#   emulation_stress.sh [--build-only | --run-only] [WORK]   (WORK: build/w64-stress)
#
# Needs only nvcc and the headers under scripts/hip-nvidia/wave64 (no HIP).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
mode=all
case "${1:-}" in --build-only) mode=build; shift ;; --run-only) mode=run; shift ;; esac
work=${1:-$root/build/w64-stress}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ "$mode" != run ]; then
  mkdir -p "$work/hip" && cp "$root"/scripts/hip-nvidia/wave64/*.h "$work/hip/" || exit 1
  "$nvcc" -arch=sm_90 -std=c++17 -isystem "$work" -o "$work/emulation_stress" \
    "$here/emulation_stress.cu" || exit 1
fi
[ "$mode" = build ] && exit 0
status=0
# mode blocks threads iterations launches delay_ns
while read -r args; do
  "$work/emulation_stress" $args || status=1
done <<'RUNS'
count 20000 256 4 4 0
count 20000 256 4 4 50000
single 192 256 1 2000 0
single 192 256 1 500 20000
single 2000 256 1 200 200000
trap 20000 256 4 2 50000
RUNS
exit $status
