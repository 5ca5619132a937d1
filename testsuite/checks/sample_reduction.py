#!/usr/bin/env python3
"""samples-cuda/reduction against the wave64 checks.

  sample_reduction.py --tool build/tool/main/cu2dcu --samples samples-cuda --step translate

The sample is written with deliberate 32-lane assumptions. This test checks
that cu2dcu flags them (each expected check id on its line), and that with
--fix-wave64 the translation
  - leaves warp_shuffle's 32s as they are: its block reduction works in
    consistent 32-lane groups (lane and group ids by 32, a reduction from 16,
    one slot per group), right on a 64-lane wavefront as written, so its
    findings are notes and no fix applies (ballot_count's ballot, in another
    kernel, does not make it one of whole warps);
  - makes ballot_count whole-wavefront (no 0xffffffff mask, no `% 32` lane
    math, no 32-bit ballot variable or __popc on it),
  - has no error-level finding (--step translate, with the checks above),
  - compiles for gfx906 with hipcc (--step hipcc).
Findings are read from the JSON report (--json). Exit 0 pass, 1 fail, 77
skipped (testsuite/lib/verdict.py: a missing hipcc skips the hipcc step
outside CI and fails it under CI).
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from verdict import finish, missing_hipcc

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
# The consistent-groups kernels (warpReduceSum and reduce_warp_shuffle) and
# their findings' severity.
GROUPS_KERNELS = ("__inline__ __device__ float warpReduceSum", "__global__ void count_ballot")
GROUPS_NOTES = {"W64-SHFL-OFFSET", "W64-LANE-MATH", "W64-WARP-COUNT"}
FORBIDDEN_AFTER_FIX = [
    (r"0xffffffff\b(?!ffff)", "a 32-bit full mask"),
    (r"_sync\(", "a *_sync warp function (HIP 5.2 has none)"),
]
FORBIDDEN_IN_BALLOT_KERNEL = [
    (r"%\s*32\b", "lane math with % 32"),
    (r"unsigned int mask", "a 32-bit ballot variable"),
    (r"__popc\(", "__popc on a ballot"),
]
REQUIRED_IN_GROUPS = [r"offset = 16", r"threadIdx\.x % 32", r"threadIdx\.x / 32", r"partial\[32\]",
                      r"__shfl_down\("]
REQUIRED_IN_BALLOT_KERNEL = [r"warpSize", r"unsigned long long mask", r"__popcll\(", r"__ballot\("]


def run_tool(cmd, report):
    """Runs cu2dcu with --json REPORT; returns the report's findings."""
    p = subprocess.run(cmd + ["--fail-on=never", "--quiet", "--json", report],
                       capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(report):
        sys.exit("FAIL: cu2dcu failed (exit %d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr))
    with open(report, encoding="utf-8") as f:
        return json.load(f)["diagnostics"]


def check_flagged(tool, source, tmp, failures):
    """Each expected check id is reported on its line."""
    found = {}
    findings = run_tool([tool, source, "--dry-run"], os.path.join(tmp, "flagged.json"))
    for d in findings:
        found.setdefault(d["line"], set()).add(d["id"])
    lines = open(source, encoding="utf-8").read().splitlines()
    begin, end = (next(i + 1 for i, l in enumerate(lines) if l.startswith(k)) for k in GROUPS_KERNELS)
    for d in findings:
        if begin <= d["line"] < end and d["id"] in GROUPS_NOTES and d["severity"] != "note":
            failures.append("line %d: %s in consistent 32-lane groups is a %s, not a note"
                            % (d["line"], d["id"], d["severity"]))
    for text, ids in EXPECTED.items():
        numbers = [i + 1 for i, l in enumerate(lines) if l.strip() == text]
        if not numbers:
            failures.append("the sample no longer has the line %r" % text)
        for n in numbers:
            missing = ids - found.get(n, set())
            if missing:
                failures.append("line %d %r: missing %s" % (n, text, sorted(missing)))


def translate_fixed(tool, samples, tmp):
    """Translates the samples with --fix-wave64; returns (reduction.cu's
    translation, its findings)."""
    out = os.path.join(tmp, "out")
    findings = run_tool([tool, samples, "-o", out, "--fix-wave64"], os.path.join(tmp, "fixed.json"))
    return (os.path.join(out, "reduction", "reduction.cu"),
            [d for d in findings if d["file"] == "reduction/reduction.cu"])


def check_fixed(translated, findings, failures):
    failures += ["error after --fix-wave64: %d:%d %s %s" % (d["line"], d["column"], d["id"],
                                                            d["message"])
                 for d in findings if d["severity"] == "error"]
    text = open(translated, encoding="utf-8").read()
    # The kernels, without comments (the header comment describes the
    # original 32-lane code).
    kernels = re.sub(r"//[^\n]*", "", text[:text.find("int main(")])
    groups = kernels[kernels.find(GROUPS_KERNELS[0]):kernels.find(GROUPS_KERNELS[1])]
    ballot = kernels[kernels.find(GROUPS_KERNELS[1]):]
    for where, patterns in (("", FORBIDDEN_AFTER_FIX), ("count_ballot ", FORBIDDEN_IN_BALLOT_KERNEL)):
        part = ballot if where else kernels
        for pattern, what in patterns:
            for m in re.finditer(pattern, part):
                failures.append("translation %sstill has %s: %r" % (where, what, m.group(0)))
    for where, part, patterns in (("warp_shuffle", groups, REQUIRED_IN_GROUPS),
                                  ("count_ballot", ballot, REQUIRED_IN_BALLOT_KERNEL)):
        for pattern in patterns:
            if not re.search(pattern, part):
                failures.append("translation of %s lacks %s" % (where, pattern))


def check_compiles(hipcc, translated, tmp, failures):
    common = os.path.join(os.path.dirname(os.path.dirname(translated)), "common")
    p = subprocess.run([hipcc, "--offload-arch=gfx906", "-c", "-x", "hip", "-w", "-I", common,
                        translated, "-o", os.path.join(tmp, "reduction.o")],
                       capture_output=True, text=True)
    if p.returncode != 0:
        failures.append("hipcc --offload-arch=gfx906 rejects the fixed translation:\n" +
                        p.stderr[-3000:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--samples", required=True)
    ap.add_argument("--hipcc", default=shutil.which("hipcc"))
    ap.add_argument("--step", choices=["translate", "hipcc"], required=True)
    a = ap.parse_args()
    failures, skipped = [], None
    with tempfile.TemporaryDirectory() as tmp:
        if a.step == "translate":
            check_flagged(a.tool, os.path.join(a.samples, "reduction", "reduction.cu"), tmp,
                          failures)
            translated, findings = translate_fixed(a.tool, a.samples, tmp)
            check_fixed(translated, findings, failures)
        elif missing_hipcc(a.hipcc, failures):
            skipped = "hipcc not installed (gfx906 compile of the fixed translation)"
        else:
            check_compiles(a.hipcc, translate_fixed(a.tool, a.samples, tmp)[0], tmp, failures)
    return finish(failures, "samples-cuda/reduction --step " + a.step, skipped)


if __name__ == "__main__":
    sys.exit(main())
