#!/usr/bin/env python3
"""Rewrites a golden or check case's CASE.expected and CASE.findings from the
tool's current output, keeping the comment lines of CASE.findings. For an
intended change only: review the diff (git diff) before committing.

  update_case.py --tool build/tool/main/cu2dcu testsuite/checks/cases/macros.cu ...
"""
import argparse, os, shlex, shutil, tempfile

import golden


def update(tool, case):
    extra = shlex.split(golden.read(case + ".args")) if os.path.exists(case + ".args") else []
    with tempfile.TemporaryDirectory() as tmp:
        out, report = golden.translate(tool, case, extra, tmp)
        shutil.copyfile(out, case + ".expected")
    base = os.path.basename(case)
    comments = []
    if os.path.exists(case + ".findings"):
        comments = [l for l in golden.read(case + ".findings").splitlines() if l.startswith("#")]
    lines = sorted((golden.finding(d, base) for d in report["diagnostics"]),
                   key=lambda l: [int(x) if x.isdigit() else x for x in l.replace(":", " ").split()])
    with open(case + ".findings", "w", encoding="utf-8") as f:
        f.write("".join(l + "\n" for l in comments + lines))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("cases", nargs="+")
    a = ap.parse_args()
    for case in a.cases:
        update(a.tool, case)
        print("updated", case)


if __name__ == "__main__":
    main()
