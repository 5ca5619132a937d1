#!/usr/bin/env python3
"""A whole CUDA project ported by the main tool, then built.

  project_test.py --tool build/tool/main/cu2dcu [--step translate|make|cmake]

`cu2dcu src/ -o OUT --json R` on src/ (CUDA sources, a header, a Makefile and
a CMakeLists.txt, as people write them). --step translate checks the report
(both build files translated, parse mode "build", no error) and compares
the build files with Makefile.expected and CMakeLists.txt.expected;
--step make and --step cmake run the make or the cmake command the run
printed (its JSON report's run.buildCommands), hipcc for gfx906 and CMake's HIP
language (with the toolchain file the output carries for Debian's
packaging, and nothing from the docs); both must link the program. Exit 0 pass, 1 fail,
77 skipped: a missing hipcc, make or cmake skips a build step on a
developer's machine and fails it under CI (testsuite/lib/verdict.py).
"""
import argparse, difflib, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "testsuite", "lib"))
from verdict import finish  # noqa: E402
from hipbuild import build_env, missing_tools, run  # noqa: E402

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


def printed_command(report, program):
    """The build command the run printed for program (make or cmake)."""
    commands = [c for c in json.load(open(report))["run"]["buildCommands"] if c.startswith(program + " ")]
    return commands[0] if len(commands) == 1 else None


def build(step, out, report, failures):
    """Runs the build command the run printed, as a user would copy it: it
    must build with nothing from the docs (the CMake toolchain file comes
    with the output)."""
    skipped = missing_tools(["hipcc", "make"] + (["cmake"] if step == "cmake" else []), failures)
    if skipped:
        return skipped
    command = printed_command(report, step)
    if not command:
        failures.append("the run printed no single %s command: %s"
                        % (step, json.load(open(report))["run"]["buildCommands"]))
        return None
    built = os.path.join(out, "build", "saxpy") if step == "cmake" else os.path.join(out, "saxpy")
    if run(["bash", "-c", command], build_env(), failures) and not os.path.isfile(built):
        failures.append("%s did not link saxpy" % command)
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
            skipped = build(args.step, out, report, failures)
    return finish(failures, "project " + args.step, skipped)


if __name__ == "__main__":
    sys.exit(main())
