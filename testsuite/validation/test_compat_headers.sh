#!/usr/bin/env bash
# CTest: the generated HIP-on-NVIDIA headers compile and link a HIP program with
# CUDA 13's nvcc (no GPU needed), and the generator refuses headers it does not know.
# usage: test_compat_headers.sh [WORK_DIR]      exit 77 = skipped (no nvcc / no HIP headers)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=${1:-$ROOT/build/validation/compat}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
HIP_SRC=${HIP_SRC:-/usr/include/hip}
# A missing toolchain is a skip on a developer's machine, an error under CI.
case "${CI:-}" in ""|0|false|no) SKIP=77 ;; *) SKIP=1 ;; esac
[ -x "$NVCC" ] || { echo "SKIP: nvcc not found"; exit $SKIP; }
[ -d "$HIP_SRC" ] || { echo "SKIP: no HIP headers at $HIP_SRC"; exit $SKIP; }
mkdir -p "$WORK"

echo "== generate"
python3 "$ROOT/scripts/hip-nvidia/make-compat-headers.py" --src "$HIP_SRC" --out "$WORK/include"

echo "== compile + link compat_test.cpp with $NVCC"
"$NVCC" -x cu -arch=sm_90 -O2 -D__HIP_PLATFORM_NVIDIA__ -isystem "$WORK/include" \
    "$HERE/compat/compat_test.cpp" -o "$WORK/compat_test"
echo "compat_test built"

echo "== a device assert stays CUDA's (__assertfail), not HIP's trap"
"$NVCC" -x cu -arch=sm_90 -D__HIP_PLATFORM_NVIDIA__ -isystem "$WORK/include" -ptx \
    "$HERE/compat/device_assert.cpp" -o "$WORK/device_assert.ptx"
if ! grep -q "__assertfail" "$WORK/device_assert.ptx" || grep -q "trap;" "$WORK/device_assert.ptx"; then
    echo "FAIL: device assert does not call __assertfail, or traps ($WORK/device_assert.ptx)"
    exit 1
fi
echo "device assert calls __assertfail"

echo "== the unpatched headers must still fail (else the TU no longer covers the CUDA 13 breakage)"
if "$NVCC" -x cu -arch=sm_90 -D__HIP_PLATFORM_NVIDIA__ -I"$(dirname "$HIP_SRC")" \
        -c "$HERE/compat/compat_test.cpp" -o "$WORK/unpatched.o" >"$WORK/unpatched.log" 2>&1; then
    echo "FAIL: unpatched $HIP_SRC compiled with this nvcc; the compat test proves nothing"
    exit 1
fi
echo "unpatched headers fail as expected ($(grep -c 'error' "$WORK/unpatched.log") error lines)"

echo "== the generator must refuse a header it does not recognise"
rm -rf "$WORK/mutant"
cp -r "$HIP_SRC" "$WORK/mutant"
chmod -R u+w "$WORK/mutant"
sed -i 's/p_prop->computeMode = cdprop.computeMode;/p_prop->computeMode = 0;/' \
    "$WORK/mutant/nvidia_detail/nvidia_hip_runtime_api.h"
if python3 "$ROOT/scripts/hip-nvidia/make-compat-headers.py" --src "$WORK/mutant" \
        --out "$WORK/mutant-out" >"$WORK/mutant.log" 2>&1; then
    echo "FAIL: generator accepted a modified header"
    exit 1
fi
echo "generator refused: $(grep -m1 make-compat-headers "$WORK/mutant.log" | cut -c1-160)"
rm -rf "$WORK/mutant" "$WORK/mutant-out"
echo "PASS"
