#!/usr/bin/env bash
# Fetches the HIP 6.4 headers and those of its libraries from Debian unstable
# as files, into build/hip-6.4 (or $CU2DCU_HIP64_PREFIX): `apt-get download`
# with private apt lists, then `dpkg -x`.  Nothing is installed.  Safe to
# rerun: skips when the prefix's VERSIONS.txt lists every package.
#
#   clang++-22 -x hip --offload-arch=gfx906 -nogpulib -D__AMDGCN_WAVEFRONT_SIZE=64 \
#     --hip-path=build/hip-6.4/usr -isystem build/hip-6.4/usr/include ...
#
# Only header/CMake packages: these make every library header compile
# (scripts/check-hip64.sh); the runtime libraries, hsa and comgr are not needed.
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX=${CU2DCU_HIP64_PREFIX:-$PWD/build/hip-6.4}
MIRROR=${CU2DCU_DEBIAN_MIRROR:-http://deb.debian.org/debian}
packages=(
  libamdhip64-dev                               # HIP 6.4
  libhipblas-dev libhipblas-common-dev          # hipBLAS
  libhipcub-dev librocprim-dev librocthrust-dev # hipCUB, rocPRIM, rocThrust
  libhipfft-dev libhipsolver-dev libhipsparse-dev
  libhiprand-dev librocrand-dev
  libmiopen-dev librccl-dev                     # MIOpen, RCCL
  libroctx-dev                                  # roctx (roctracer/roctx.h), NVTX's counterpart
  libhipblaslt-dev                              # hipBLASLt, cuBLASLt's counterpart (no gfx906 kernels)
  rocm-device-libs-21                           # device libraries (bitcode)
  hipify-perl                                   # the regex porter, for side-by-side speed (testsuite/ci/scale_bench.py)
)
die() { echo "fetch-hip64: ERROR: $*" >&2; exit 1; }

if [ -f "$PREFIX/VERSIONS.txt" ] && [ -f "$PREFIX/usr/include/hip/hip_version.h" ]; then
  complete=1
  for p in "${packages[@]}"; do grep -q "^$p " "$PREFIX/VERSIONS.txt" || complete=0; done
  if ((complete)); then echo "fetch-hip64: $PREFIX is complete"; exit 0; fi
fi

work=$PREFIX.apt
rm -rf "$work" "$PREFIX.tmp"
trap 'rm -rf "$work" "$PREFIX.tmp"' EXIT
mkdir -p "$work/lists/partial" "$work/archives/partial" "$work/debs" "$PREFIX.tmp"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR unstable main" \
  > "$work/sources.list"
: > "$work/status"
apt=(-o "Dir::Etc::sourcelist=$work/sources.list" -o Dir::Etc::sourceparts=-
     -o "Dir::State=$work" -o "Dir::State::status=$work/status" -o "Dir::Cache=$work"
     -o APT::Sandbox::User=root -o Debug::NoLocking=1)

echo "fetch-hip64: reading the package lists of Debian unstable ($MIRROR)"
apt-get "${apt[@]}" -qq update || die "apt-get update of Debian unstable failed ($MIRROR unreachable?)"
(cd "$work/debs" && apt-get "${apt[@]}" -qq download "${packages[@]}") ||
  die "apt-get download failed for: ${packages[*]}"

for p in "${packages[@]}"; do
  debs=("$work/debs/${p}_"*.deb)
  deb=${debs[0]}
  [ -f "$deb" ] || die "package $p was not downloaded"
  dpkg -x "$deb" "$PREFIX.tmp" || die "cannot extract $deb"
  echo "$p $(dpkg-deb -f "$deb" Version)" >> "$PREFIX.tmp/VERSIONS.txt"
done
hipver=$(sed -n 's/^#define HIP_VERSION_MAJOR \([0-9]*\)$/\1/p; s/^#define HIP_VERSION_MINOR \([0-9]*\)$/.\1/p' \
         "$PREFIX.tmp/usr/include/hip/hip_version.h" | tr -d '\n') || true
[ "$hipver" = "6.4" ] || die "Debian unstable now carries HIP '$hipver', not 6.4: update scripts/fetch-hip64.sh"

rm -rf "$PREFIX" && mv "$PREFIX.tmp" "$PREFIX"
echo "fetch-hip64: HIP $hipver headers in $PREFIX:"
sed 's/^/  /' "$PREFIX/VERSIONS.txt"
