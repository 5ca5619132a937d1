#!/usr/bin/env python3
"""Golden test for one input: translate it with cu2dcu and compare.

  golden.py --tool build/tool/main/cu2dcu --case testsuite/golden/launch.cu --step translate

Beside the input CASE (any extension) lie:
  CASE.expected     expected translated text (required)
  CASE.findings     expected findings of the JSON report (required unless
                    --no-findings), one per line:
                    "LINE:COL SEVERITY CHECK-ID", e.g. "25:15 note CU2DCU-LAUNCH";
                    '#' starts a comment line. The findings must match exactly
                    (a file with no finding line expects none); one in another
                    file than CASE would read "FILE:LINE:COL SEVERITY CHECK-ID".
  CASE.args         extra cu2dcu arguments, one line, shell-split (optional)
  CASE.nohipcc      marks a case whose output is not meant to compile with hipcc
  CASE.nonvcc       why the output cannot build on HIP's NVIDIA path (no nvcc
                    step; e.g. APIs CUDA 13 removed)
  CASE.requires     HIP headers the output needs, one per line (e.g. hipblas/hipblas.h)
  CASE.expected-hip64  expected text for --hip-version 6.4 where it differs
                    from CASE.expected (optional)
--step translate compares the output and the findings (--no-findings: the
output only); --step hipcc checks that the output passes
`hipcc --offload-arch=gfx906 -fsyntax-only`; --step nvcc that it passes the
front ends of HIP's NVIDIA path (nvcc -arch=sm_90 with the compat headers of
--hip-nvidia-include); --step all (default) does the first two.
--step hip64 is the HIP 6.4 toolchain profile: the case translated with
--hip-version 6.4 must equal CASE.expected-hip64 (else CASE.expected) and pass
clang++-22's HIP syntax check against the HIP 6.4 tree of
scripts/fetch-hip64.sh (--hip64-prefix), every library included.
Prints a unified diff on mismatch. Exit 0 pass, 1 fail, 77 skipped
(testsuite/lib/verdict.py): a missing required header skips the hipcc step,
and so does a missing hipcc or HIP 6.4 tree, except under CI, where that fails.
"""
import argparse, collections, difflib, json, os, shlex, shutil, subprocess, sys, tempfile
from verdict import finish, in_ci, missing_hipcc

HEADER_DIRS = ("/usr/include", "/opt/rocm/include")


def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        return f.read()


def entries(path):
    """The non-empty, non-comment lines of an optional file."""
    if not os.path.exists(path):
        return []
    return [l.strip() for l in read(path).splitlines() if l.strip() and not l.startswith("#")]


def translate(tool, case, extra, tmp):
    """Translates CASE into tmp; returns the output's path and the JSON report."""
    out = os.path.join(tmp, "out" + os.path.splitext(case)[1])
    report = os.path.join(tmp, "report.json")
    cmd = [tool, case, "-o", out, "--json", report, "--fail-on=never", "--quiet"] + extra
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(report):
        sys.exit("FAIL: cu2dcu failed (exit %d, report written: %s): %s\n%s" % (
            p.returncode, os.path.exists(report), " ".join(cmd), p.stderr))
    with open(report, encoding="utf-8") as f:
        return out, json.load(f)


def finding(d, base):
    where = "" if d["file"] == base else d["file"] + ":"
    return "%s%d:%d %s %s" % (where, d["line"], d["column"], d["severity"], d["id"])


def check_output(case, out, failures, expected=".expected"):
    got, want = read(out), read(case + expected)
    if got != want:
        failures.append("output differs from %s%s:\n%s" % (case, expected, "".join(
            difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                 "expected", "actual"))))


def check_findings(case, report, failures):
    if not os.path.exists(case + ".findings"):
        failures.append("%s.findings is missing (with no findings expected, it holds a "
                        "comment saying why)" % case)
        return
    want_f = collections.Counter(entries(case + ".findings"))
    got_f = collections.Counter(finding(d, os.path.basename(case)) for d in report["diagnostics"])
    if got_f != want_f:
        failures.append("findings differ from %s.findings:\n  missing: %s\n  unexpected: %s" % (
            case, sorted((want_f - got_f).elements()), sorted((got_f - want_f).elements())))


def compile_input(case, out):
    """The output as a .hip.cpp to compile, and the required HIP headers
    (CASE.requires) that are not installed."""
    missing = [h for h in entries(case + ".requires")
               if not any(os.path.exists(os.path.join(d, h)) for d in HEADER_DIRS)]
    src = os.path.join(os.path.dirname(out), "check.hip.cpp")
    shutil.copy(out, src)
    return src, missing


def check_hipcc(case, out, hipcc, failures):
    """hipcc -fsyntax-only on the output; returns why it was left out, or None."""
    if missing_hipcc(hipcc, failures):
        return "hipcc not installed (syntax check of the output)"
    src, missing = compile_input(case, out)
    if missing:
        return "%s not installed (syntax check of the output)" % ", ".join(missing)
    p = subprocess.run([hipcc, "--offload-arch=gfx906", "-fsyntax-only", "-x", "hip", "-w",
                        "-I", os.path.dirname(os.path.abspath(case)), src],
                       capture_output=True, text=True)
    if p.returncode != 0:
        failures.append("hipcc rejects the output:\n" + p.stderr[-3000:])
    return None


def check_nvcc(case, out, nvcc, compat, failures):
    """The output through HIP's NVIDIA path (nvcc for sm_90 with the project's
    compat headers), front ends only; returns why it was left out, or None."""
    if not nvcc or not shutil.which(nvcc):
        if in_ci():
            failures.append("nvcc not installed")
        return "nvcc not installed (NVIDIA-path check of the output)"
    if not os.path.isdir(os.path.join(compat, "hip")):
        failures.append("no HIP-on-NVIDIA compat headers in %s "
                        "(scripts/hip-nvidia/make-compat-headers.py)" % compat)
        return None
    src, missing = compile_input(case, out)
    if missing:
        return "%s not installed (NVIDIA-path check of the output)" % ", ".join(missing)
    # -cuda ends the host side after its front end, -fdevice-syntax-only the
    # device side after its own (testsuite/corpus/run_corpus.py does the same).
    p = subprocess.run([nvcc, "-x", "cu", "-arch=sm_90", "-std=c++17", "-D__HIP_PLATFORM_NVIDIA__",
                        "-isystem", compat, "-w", "-I", os.path.dirname(os.path.abspath(case)),
                        "-cuda", "-fdevice-syntax-only", "-o", os.devnull, src],
                       capture_output=True, text=True)
    if p.returncode != 0:
        failures.append("nvcc (HIP's NVIDIA path) rejects the output:\n" + p.stderr[-3000:])
    return None


# clang 22 removed __AMDGCN_WAVEFRONT_SIZE, which the HIP 6.4 headers still
# use (a real ROCm's clang defines it). Nothing else: HIP 6.x declares the
# *_sync warp functions only with HIP_ENABLE_WARP_SYNC_BUILTINS, which the
# translated units define themselves, as a user's plain build needs.
# (validation/hip_resources.py's HIP 6.4 profile uses the same defines).
HIP64_DEFINES = ["-D__AMDGCN_WAVEFRONT_SIZE=64"]
HIP64_FLAGS = (["-x", "hip", "--offload-arch=gfx906", "-std=c++17", "-fsyntax-only", "-nogpulib"]
               + HIP64_DEFINES + ["-w"])


def hip64_command(clang, prefix, flags, source):
    """clang's HIP syntax check of source against the HIP 6.4 tree prefix (the
    golden hip64 step and the corpus runner's HIP 6.4 column)."""
    usr = os.path.join(prefix, "usr")
    return ([clang] + HIP64_FLAGS + ["--hip-path=" + usr, "-isystem", os.path.join(usr, "include")]
            + flags + [source])


def hip64_args(extra):
    """The case's cu2dcu arguments with the target set to HIP 6.4."""
    kept = [a for i, a in enumerate(extra) if not a.startswith("--hip-version")
            and not (i > 0 and extra[i - 1] == "--hip-version")]
    return kept + ["--hip-version=6.4"]


def check_hip64(case, out, prefix, clang, failures):
    """The HIP 6.4 profile's syntax check; returns why it was left out, or None."""
    usr = os.path.join(prefix, "usr")
    missing = [what for what, ok in (
        ("clang++-22", shutil.which(clang)),
        ("the HIP 6.4 tree %s (scripts/fetch-hip64.sh)" % prefix,
         os.path.isfile(os.path.join(usr, "include", "hip", "hip_version.h")))) if not ok]
    if missing:
        if in_ci():
            failures.append("%s missing" % " and ".join(missing))
        return "%s missing (HIP 6.4 profile)" % " and ".join(missing)
    absent = [h for h in entries(case + ".requires")
              if not os.path.exists(os.path.join(usr, "include", h))]
    if absent:
        failures.append("the HIP 6.4 tree lacks %s" % ", ".join(absent))
        return None
    src, _ = compile_input(case, out)
    p = subprocess.run(hip64_command(clang, prefix, ["-I", os.path.dirname(os.path.abspath(case))], src),
                       capture_output=True, text=True)
    if p.returncode != 0:
        failures.append("clang++-22 with HIP 6.4 rejects the output:\n" + p.stderr[-3000:])
    return None


def hip64_step(a, extra, tmp, failures):
    out, _ = translate(a.tool, a.case, hip64_args(extra), tmp)
    check_output(a.case, out, failures,
                 ".expected-hip64" if os.path.exists(a.case + ".expected-hip64") else ".expected")
    return check_hip64(a.case, out, a.hip64_prefix, a.clang, failures)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--hipcc", default=shutil.which("hipcc"))
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--hip-nvidia-include", default="build/hip-nvidia-include",
                    help="the compat headers of scripts/hip-nvidia/make-compat-headers.py")
    ap.add_argument("--hip64-prefix", default=os.environ.get("CU2DCU_HIP64_PREFIX", "build/hip-6.4"),
                    help="the HIP 6.4 tree of scripts/fetch-hip64.sh")
    ap.add_argument("--clang", default="clang++-22")
    ap.add_argument("--step", choices=["translate", "hipcc", "nvcc", "hip64", "all"],
                    default="all")
    ap.add_argument("--no-findings", action="store_true",
                    help="translate step: compare the output only (no CASE.findings)")
    a = ap.parse_args()
    extra = shlex.split(read(a.case + ".args")) if os.path.exists(a.case + ".args") else []
    failures, skipped = [], None
    with tempfile.TemporaryDirectory() as tmp:
        if a.step == "hip64":
            return finish(failures, a.case, hip64_step(a, extra, tmp, failures))
        out, report = translate(a.tool, a.case, extra, tmp)
        if a.step != "hipcc":
            check_output(a.case, out, failures)
            if not a.no_findings:
                check_findings(a.case, report, failures)
        if a.step in ("hipcc", "all") and not os.path.exists(a.case + ".nohipcc"):
            skipped = check_hipcc(a.case, out, a.hipcc, failures)
        if a.step == "nvcc" and not os.path.exists(a.case + ".nohipcc"):
            skipped = check_nvcc(a.case, out, a.nvcc, a.hip_nvidia_include, failures) or skipped
    return finish(failures, a.case, skipped)


if __name__ == "__main__":
    sys.exit(main())
