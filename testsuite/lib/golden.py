#!/usr/bin/env python3
"""Golden test for one input: translate it with cu2dcu and compare.

  golden.py --tool build/tool/main/cu2dcu --case testsuite/golden/launch.cu

Beside the input CASE (any extension) may lie:
  CASE.expected     expected translated text (required)
  CASE.findings     expected findings, one per line: "LINE:COL CHECK-ID" (optional;
                    when present the set of findings must match exactly)
  CASE.args         extra cu2dcu arguments, one line, shell-split (optional)
  CASE.nohipcc      marks a case whose output is not meant to compile with hipcc
  CASE.requires     HIP headers the output needs, one per line (e.g. hipblas/hipblas.h)
--step translate compares the output and findings; --step hipcc checks that
the output passes `hipcc --offload-arch=gfx906 -fsyntax-only`. A missing hipcc
or required header prints "skipped: ... not installed" (CTest counts the test
as skipped, never as passed). Default: both steps.
Prints a unified diff on mismatch. Exit 0 pass, 1 fail.
"""
import argparse, difflib, os, shlex, shutil, subprocess, sys, tempfile

def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        return f.read()

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--hipcc", default=shutil.which("hipcc"))
    ap.add_argument("--step", choices=["translate", "hipcc", "all"], default="all")
    a = ap.parse_args()
    case = a.case
    extra = shlex.split(read(case + ".args")) if os.path.exists(case + ".args") else []
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out" + os.path.splitext(case)[1])
        cmd = [a.tool, case, "-o", out, "--fail-on=never", "--quiet"] + extra
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            print("cu2dcu failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr))
            return 1
        got = read(out)
        want = read(case + ".expected")
        if a.step != "hipcc" and got != want:
            failures.append("output differs from %s.expected:\n%s" % (case, "".join(
                difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                     "expected", "actual"))))
        if a.step != "hipcc" and os.path.exists(case + ".findings"):
            p2 = subprocess.run([a.tool, case, "--dry-run", "--fail-on=never"] + extra,
                                capture_output=True, text=True)
            found = set()
            base = os.path.basename(case)
            for line in p2.stderr.splitlines():
                # file:line:col: severity: message [ID]
                if line.startswith(base + ":") and line.endswith("]") and " [" in line:
                    loc = line[len(base) + 1:].split(":")
                    found.add("%s:%s %s" % (loc[0], loc[1], line.rsplit(" [", 1)[1][:-1]))
            want_f = {l.strip() for l in read(case + ".findings").splitlines()
                      if l.strip() and not l.startswith("#")}
            if found != want_f:
                failures.append("findings differ:\n  missing: %s\n  unexpected: %s" % (
                    sorted(want_f - found), sorted(found - want_f)))
        required = [l.strip() for l in read(case + ".requires").splitlines()
                    if l.strip()] if os.path.exists(case + ".requires") else []
        missing = [h for h in required
                   if not any(os.path.exists(os.path.join(d, h)) for d in ("/usr/include", "/opt/rocm/include"))]
        if a.step != "translate" and not os.path.exists(case + ".nohipcc"):
            if not a.hipcc or missing:
                print("skipped: %s not installed (syntax check of the output)"
                      % (", ".join(missing) if missing else "hipcc"))
            else:
                src = os.path.join(tmp, "check.hip.cpp")
                shutil.copy(out, src)
                inc = ["-I", os.path.dirname(os.path.abspath(case))]
                p3 = subprocess.run([a.hipcc, "--offload-arch=gfx906", "-fsyntax-only", "-x", "hip",
                                     "-w"] + inc + [src], capture_output=True, text=True)
                if p3.returncode != 0:
                    failures.append("hipcc rejects the output:\n" + p3.stderr[-3000:])
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("PASS", case)
    return 1 if failures else 0

if __name__ == "__main__":
    sys.exit(main())
