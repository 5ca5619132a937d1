#!/usr/bin/env python3
"""A CUDA project ported through its compilation database (-p), then built.

  database_test.py --tool build/tool/main/cu2dcu --step translate|build

database/ is a project as a build system leaves it: sources in src/, headers
in include/ (one reached only through another), db/compile_commands.json
with a relative "directory" and the separate form `-I include`.
`cu2dcu -p database/db -o OUT --json R`:
  --step translate: every database file and reached header parses with the
    AST (the report's parseMode), the reached headers are written translated
    under OUT/include (the project root is the common ancestor, database/),
    a header nobody includes is not, the database is rewritten for hipcc
    (compared as JSON with compile_commands.json.expected), --root moves the
    root up, and a --root that leaves out the database's files is refused;
  --step build: runs each command of OUT/db/compile_commands.json in its
    directory with hipcc for gfx906, then links the objects.
Exit 0 pass, 1 fail, 77 skipped (no hipcc, outside CI).
"""
import argparse, json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "testsuite", "lib"))
from verdict import finish  # noqa: E402
from hipbuild import build_env, missing_tools, run  # noqa: E402

SOURCES = ["src/main.cu", "src/saxpy.cu"]
HEADERS = ["include/saxpy.cuh", "include/util/check.cuh"]
# The build folder holding compile_commands.json (and the objects); not named
# build/, which the repository keeps for build outputs.
DATABASE_DIR = "db"


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def port(tool, project, out, report, *extra):
    return subprocess.run([tool, "-p", os.path.join(project, DATABASE_DIR), "-o", out, "--json", report]
                          + list(extra), capture_output=True, text=True)


def check_translation(out, report, failures):
    modes = {f["path"]: f["parseMode"] for f in json.load(open(report))["files"]}
    for name in SOURCES + HEADERS:
        if modes.get(name) != "ast":
            failures.append("%s: parse mode %r, want 'ast'" % (name, modes.get(name)))
    for name in HEADERS:
        path = os.path.join(out, name)
        text = read(path) if os.path.isfile(path) else ""
        if "cudaError_t" in text or "hip" not in text:
            failures.append("%s not written translated under the output root" % name)
    if os.path.exists(os.path.join(out, "include", "unused.cuh")):
        failures.append("include/unused.cuh is included by no database file, yet written")
    want = json.loads(read(os.path.join(HERE, "compile_commands.json.expected")).replace("@OUT@", out))
    path = os.path.join(out, DATABASE_DIR, "compile_commands.json")
    got = json.loads(read(path)) if os.path.isfile(path) else None
    if got != want:
        failures.append(DATABASE_DIR + "/compile_commands.json:\n%s\nwant:\n%s" % (
            json.dumps(got, indent=1), json.dumps(want, indent=1)))


def check_root(tool, project, tmp, failures):
    """--root above the project mirrors from there; one below it leaves out
    the database's files and is refused with exit 2, writing nothing."""
    out, report = os.path.join(tmp, "out-root"), os.path.join(tmp, "root.json")
    p = port(tool, project, out, report, "--root", tmp)
    if p.returncode != 0 or not os.path.isfile(os.path.join(out, "project", "include", "saxpy.cuh")):
        failures.append("--root %s: exit %d, no project/include/saxpy.cuh: %s" % (tmp, p.returncode, p.stderr))
    else:
        run = json.load(open(report))["run"]
        if run["options"].get("root") != tmp or run["inputRoot"] != tmp:
            failures.append("--root %s: the report says root %r, inputRoot %r" % (
                tmp, run["options"].get("root"), run["inputRoot"]))
    bad = os.path.join(tmp, "out-bad")
    p = port(tool, project, bad, report, "--root", os.path.join(project, "include"))
    if p.returncode != 2 or "outside --root" not in p.stderr or os.path.exists(bad):
        failures.append("--root without the sources: exit %d, %r" % (p.returncode, p.stderr))


def build(out, failures):
    skipped = missing_tools(["hipcc"], failures)
    if skipped:
        return skipped
    env = build_env()
    for entry in json.load(open(os.path.join(out, DATABASE_DIR, "compile_commands.json"))):
        if not run(entry["arguments"], env, failures, cwd=entry["directory"]):
            return None
    objects = [os.path.join(out, DATABASE_DIR, o) for o in ("main.o", "saxpy.o")]
    if run(["hipcc", "--offload-arch=gfx906"] + objects + ["-o", "saxpy"], env, failures, cwd=out) \
            and not os.path.isfile(os.path.join(out, "saxpy")):
        failures.append("hipcc did not link saxpy")
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--step", choices=("translate", "build"), required=True)
    args = ap.parse_args()
    failures, skipped = [], None
    with tempfile.TemporaryDirectory(prefix="cu2dcu-database-") as tmp:
        tmp = os.path.realpath(tmp)
        project = os.path.join(tmp, "project")
        shutil.copytree(os.path.join(HERE, "database"), project)
        out, report = os.path.join(tmp, "out"), os.path.join(tmp, "report.json")
        p = port(args.tool, project, out, report)
        if p.returncode != 0:
            failures.append("cu2dcu -p exit %d:\n%s" % (p.returncode, p.stderr[-3000:]))
        elif args.step == "translate":
            check_translation(out, report, failures)
            check_root(args.tool, project, tmp, failures)
        else:
            skipped = build(out, failures)
    return finish(failures, "project database " + args.step, skipped)


if __name__ == "__main__":
    sys.exit(main())
