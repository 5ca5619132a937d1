#!/usr/bin/env python3
"""A whole CUDA project ported by the main tool, then built.

  project_test.py --tool build/tool/main/cu2dcu [--step translate|make|cmake]

`cu2dcu src/ -o OUT --json R` on src/ (CUDA sources, a header, a Makefile and
a CMakeLists.txt, as people write them). --step translate checks the report
(both build files translated, parse mode "build", no error) and compares
the build files with Makefile.expected and CMakeLists.txt.expected;
--step make runs `make -C OUT` with hipcc for gfx906, --step cmake configures
and builds OUT with CMake's HIP language (tool/buildfiles/cmake's toolchain file
for Debian's packaging); both must link the program. Exit 0 pass, 1 fail,
77 skipped: a missing hipcc, make or cmake skips a build step on a
developer's machine and fails it under CI (testsuite/lib/verdict.py).
"""
import argparse, difflib, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "testsuite", "lib"))
from verdict import finish  # noqa: E402
from hipbuild import TOOLCHAIN, build_env, missing_tools, run  # noqa: E402

BUILD_FILES = ("Makefile", "CMakeLists.txt")


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def port(tool, out, report):
    p = subprocess.run([tool, os.path.join(HERE, "src"), "-o", out, "--json", report],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("FAIL: cu2dcu exit %d:\n%s" % (p.returncode, p.stderr[-3000:]))


def check_translation(out, report, failures):
    files = {os.path.basename(f["path"]): f for f in json.load(open(report))["files"]}
    for name in BUILD_FILES:
        f = files.get(name)
        if not f or f["parseMode"] != "build" or f["status"] != "translated":
            failures.append("%s: want parseMode build, status translated; got %s" % (
                name, f and (f["parseMode"], f["status"])))
        want, got = read(os.path.join(HERE, name + ".expected")), read(os.path.join(out, name))
        if want != got:
            failures.append("%s differs from %s.expected:\n%s" % (name, name, "".join(
                difflib.unified_diff(want.splitlines(True), got.splitlines(True)))))


def build(step, out, tmp, failures):
    skipped = missing_tools(["hipcc", "make"] + (["cmake"] if step == "cmake" else []), failures)
    if skipped:
        return skipped
    env = build_env()
    if step == "make":
        if run(["make", "-C", out], env, failures) and not os.path.isfile(os.path.join(out, "saxpy")):
            failures.append("make did not link saxpy")
        return None
    bld = os.path.join(tmp, "bld")
    if run(["cmake", "-S", out, "-B", bld, "-DCMAKE_TOOLCHAIN_FILE=" + TOOLCHAIN], env, failures) \
            and run(["cmake", "--build", bld], env, failures) \
            and not os.path.isfile(os.path.join(bld, "saxpy")):
        failures.append("cmake did not link saxpy")
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--step", choices=("translate", "make", "cmake"), required=True)
    args = ap.parse_args()
    failures, skipped = [], None
    with tempfile.TemporaryDirectory(prefix="cu2dcu-project-") as tmp:
        out, report = os.path.join(tmp, "out"), os.path.join(tmp, "report.json")
        port(args.tool, out, report)
        if args.step == "translate":
            check_translation(out, report, failures)
        else:
            skipped = build(args.step, out, tmp, failures)
    return finish(failures, "project " + args.step, skipped)


if __name__ == "__main__":
    sys.exit(main())
