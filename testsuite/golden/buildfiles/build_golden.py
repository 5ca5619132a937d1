#!/usr/bin/env python3
"""Golden test for one build-file case: translate it, compare, build it.

  build_golden.py --tool build/tool/buildfiles/cu2dcu-buildfiles --case DIR --step translate|build

DIR holds one build file (Makefile or CMakeLists.txt) and its sources
(already HIP: the case tests the build file), and beside the build file:
  FILE.expected   the expected translation, byte for byte
  FILE.findings   the expected findings, one "LINE:COL SEVERITY CHECK-ID" a
                  line, a '#' comment after it (the message, for the reader);
                  '#' starts a comment line; they must match exactly
--step translate  compares the translation and the findings;
--step build      copies DIR to a scratch folder with the translation in
                  place of the build file and builds it: `make` (hipcc) or
                  `cmake` configure + build with --toolchain (CMake's HIP
                  language, docs/build-migration.md); every target must link.
Exit 0 pass, 1 fail, 77 skipped: a missing hipcc, make or cmake skips the
build step on a developer's machine and fails it under CI
(testsuite/lib/verdict.py).
"""
import argparse, difflib, os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from verdict import finish  # noqa: E402
from hipbuild import TOOLCHAIN, build_env, missing_tools, run  # noqa: E402

BUILD_FILES = ("Makefile", "CMakeLists.txt")


def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        return f.read()


def build_file(case):
    found = [f for f in BUILD_FILES if os.path.exists(os.path.join(case, f + ".expected"))]
    if len(found) != 1:
        sys.exit("FAIL: %s needs exactly one of %s with a .expected beside it" % (case, BUILD_FILES))
    return found[0]


def translate(tool, case, name, tmp):
    out = os.path.join(tmp, name + ".out")
    findings = os.path.join(tmp, "findings.txt")
    p = subprocess.run([tool, os.path.join(case, name), out, "--findings", findings],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("FAIL: cu2dcu-buildfiles exit %d: %s" % (p.returncode, p.stderr))
    return read(out), [" ".join(l.split()[:3]) for l in read(findings).splitlines() if l.strip()]


def step_translate(args, name, tmp, failures):
    text, findings = translate(args.tool, args.case, name, tmp)
    expected = read(os.path.join(args.case, name + ".expected"))
    if text != expected:
        diff = difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                    name + ".expected", "translated")
        failures.append("translation differs:\n" + "".join(diff))
    want_path = os.path.join(args.case, name + ".findings")
    want = [" ".join(l.split()[:3]) for l in read(want_path).splitlines()
            if l.strip() and not l.startswith("#")] if os.path.exists(want_path) else []
    if findings != want:
        failures.append("findings differ:\n  expected: %s\n  got:      %s" % (want, findings))


def step_build(args, name, tmp, failures):
    skipped = missing_tools(["hipcc", "make"] + (["cmake"] if name == "CMakeLists.txt" else []),
                            failures)
    if skipped:
        return skipped
    text, _ = translate(args.tool, args.case, name, tmp)
    src = os.path.join(tmp, "src")
    shutil.copytree(args.case, src, ignore=shutil.ignore_patterns("*.expected", "*.findings"))
    with open(os.path.join(src, name), "w", encoding="utf-8", newline="") as f:
        f.write(text)
    env = build_env()
    if name == "Makefile":
        run(["make", "-C", src], env, failures)
    else:
        bld = os.path.join(tmp, "bld")
        if run(["cmake", "-S", src, "-B", bld, "-DCMAKE_TOOLCHAIN_FILE=" + args.toolchain],
               env, failures):
            run(["cmake", "--build", bld], env, failures)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--step", choices=("translate", "build"), required=True)
    ap.add_argument("--toolchain", default=TOOLCHAIN)
    args = ap.parse_args()
    name = build_file(args.case)
    failures, skipped = [], None
    with tempfile.TemporaryDirectory(prefix="cu2dcu-build-golden-") as tmp:
        if args.step == "translate":
            step_translate(args, name, tmp, failures)
        else:
            skipped = step_build(args, name, tmp, failures)
    return finish(failures, "%s %s" % (os.path.basename(args.case), args.step), skipped)


if __name__ == "__main__":
    sys.exit(main())
