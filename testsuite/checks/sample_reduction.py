#!/usr/bin/env python3
"""samples-cuda/reduction against the wave64 checks.

  sample_reduction.py --tool build/tool/main/cu2dcu --samples samples-cuda

The sample is written with deliberate 32-lane assumptions. This test checks
that cu2dcu flags them (each expected check id on its line), and that with
--fix-wave64 the translation
  - uses warpSize and 64-bit masks (no 0xffffffff mask, no `% 32` lane math,
    no shuffle loop from 16, no 32-bit ballot variable or __popc on it),
  - has no error-level finding,
  - compiles for gfx906 with hipcc (when hipcc is installed; otherwise the test
    prints "skipped: ..." unless CU2DCU_REQUIRE_HIPCC=1).
"""
import argparse, os, re, shutil, subprocess, sys, tempfile

# line text (stripped) -> check ids that must be reported on that line
EXPECTED = {
    "for (int offset = 16; offset > 0; offset /= 2)": {"W64-SHFL-OFFSET"},
    "val += __shfl_down_sync(0xffffffff, val, offset);": {"W64-MASK32"},
    "__shared__ float partial[32];": {"W64-WARP-COUNT"},
    "int lane = threadIdx.x % 32;": {"W64-LANE-MATH"},
    "int warp = threadIdx.x / 32;": {"W64-LANE-MATH"},
    "sum = (threadIdx.x < blockDim.x / 32) ? partial[lane] : 0.0f;": {"W64-WARP-COUNT"},
    "unsigned int mask = __ballot_sync(0xffffffff, pred);": {"W64-BALLOT-NARROW", "W64-MASK32"},
    "if (lane == 0) local += __popc(mask);": {"W64-BALLOT-NARROW"},
}
FORBIDDEN_AFTER_FIX = [
    (r"0xffffffff\b(?!ffff)", "a 32-bit full mask"),
    (r"%\s*32\b", "lane math with % 32"),
    (r"/\s*32\b", "warp math with / 32"),
    (r"offset\s*=\s*16", "a shuffle loop from 16"),
    (r"unsigned int mask", "a 32-bit ballot variable"),
    (r"__popc\(", "__popc on a ballot"),
    (r"_sync\(", "a *_sync warp function (HIP 5.2 has none)"),
]
REQUIRED_AFTER_FIX = [r"warpSize", r"unsigned long long mask", r"__popcll\(", r"__shfl_down\(",
                      r"__ballot\("]
FINDING = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|note): "
                     r".* \[(?P<id>[A-Z0-9-]+)\]$")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--samples", required=True)
    ap.add_argument("--hipcc", default=shutil.which("hipcc"))
    a = ap.parse_args()
    source = os.path.join(a.samples, "reduction", "reduction.cu")
    lines = open(source, encoding="utf-8").read().splitlines()
    failures = []

    # 1. Flagged.
    p = subprocess.run([a.tool, source, "--dry-run", "--fail-on=never"], capture_output=True,
                       text=True)
    found = {}
    for l in p.stderr.splitlines():
        m = FINDING.match(l)
        if m and m.group("file").endswith("reduction.cu"):
            found.setdefault(int(m.group("line")), set()).add(m.group("id"))
    for text, ids in EXPECTED.items():
        numbers = [i + 1 for i, l in enumerate(lines) if l.strip() == text]
        if not numbers:
            failures.append("the sample no longer has the line %r" % text)
            continue
        for n in numbers:
            missing = ids - found.get(n, set())
            if missing:
                failures.append("line %d %r: missing %s" % (n, text, sorted(missing)))

    # 2. Fixed translation.
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        p = subprocess.run([a.tool, a.samples, "-o", out, "--fix-wave64", "--fail-on=never"],
                           capture_output=True, text=True)
        if p.returncode not in (0, 1):
            print("cu2dcu failed (%d):\n%s" % (p.returncode, p.stderr))
            return 1
        for l in p.stderr.splitlines():
            m = FINDING.match(l)
            if m and "reduction/reduction.cu" in m.group("file") and m.group("sev") == "error":
                failures.append("error after --fix-wave64: " + l)
        translated = os.path.join(out, "reduction", "reduction.cu")
        text = open(translated, encoding="utf-8").read()
        # The kernels, without comments (the header comment describes the
        # original 32-lane code).
        kernels = re.sub(r"//[^\n]*", "", text[:text.find("int main(")])
        for pattern, what in FORBIDDEN_AFTER_FIX:
            for m in re.finditer(pattern, kernels):
                line = kernels.count("\n", 0, m.start()) + 1
                failures.append("translation line %d still has %s" % (line, what))
        for pattern in REQUIRED_AFTER_FIX:
            if not re.search(pattern, kernels):
                failures.append("translation lacks %s" % pattern)
        if not a.hipcc:
            print("skipped: hipcc not installed (gfx906 compile of the fixed translation)")
            if os.environ.get("CU2DCU_REQUIRE_HIPCC") == "1":
                failures.append("hipcc required but not installed")
        else:
            obj = os.path.join(tmp, "reduction.o")
            p = subprocess.run([a.hipcc, "--offload-arch=gfx906", "-c", "-x", "hip", "-w",
                                "-I", os.path.join(out, "common"), translated, "-o", obj],
                               capture_output=True, text=True)
            if p.returncode != 0:
                failures.append("hipcc --offload-arch=gfx906 rejects the fixed translation:\n" +
                                p.stderr[-3000:])
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("PASS samples-cuda/reduction: flagged; fixed translation uses warpSize and 64-bit "
              "masks and compiles for gfx906")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
