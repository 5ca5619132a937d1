#!/usr/bin/env python3
"""Golden test of one report format on the multi-file tree in tree/.

  golden_reports.py --tool build/tool/main/cu2dcu --format json|sarif|html|csv|text [--update]

Runs cu2dcu on tree/ (lexical mode, the test map in maps/, a fixed docs URL),
normalises volatile fields (temporary paths, the input root, the tool and
LLVM versions, timings) and compares with expected/tree.<format>. --update
rewrites the expected file instead. Exit 0 pass, 1 fail.
"""
import argparse, difflib, json, os, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reportlib

EXT = {"json": "json", "sarif": "sarif", "html": "html", "csv": "csv", "text": "txt"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--format", required=True, choices=sorted(EXT))
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "report." + EXT[a.format])
        args = list(reportlib.TREE_ARGS) + ["--fail-on=never"]
        if a.format == "text":
            pass
        elif a.format == "csv":
            args += ["--stats-csv", out]
        else:
            args += ["--" + a.format, out]
        p = reportlib.run_tool(a.tool, args)
        if p.returncode != 0:
            print("cu2dcu failed (%d):\n%s" % (p.returncode, p.stderr))
            return 1
        if a.format == "json":
            got = reportlib.normalise_json_report(json.loads(reportlib.read(out)), tmp)
        elif a.format == "sarif":
            got = reportlib.normalise_sarif(json.loads(reportlib.read(out)), tmp)
        elif a.format == "text":
            got = reportlib.normalise_text(p.stderr, tmp)
        elif a.format == "html":
            got = reportlib.normalise_html(reportlib.read(out), tmp)
        else:
            got = reportlib.normalise_text(reportlib.read(out), tmp)
            got = got.replace("cu2dcu " + version_of(a.tool), "cu2dcu <VERSION>")
    expected = os.path.join(reportlib.HERE, "expected", "tree." + EXT[a.format])
    if a.update:
        with open(expected, "w", encoding="utf-8", newline="") as f:
            f.write(got)
        print("updated", expected)
        return 0
    want = reportlib.read(expected)
    if got != want:
        sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                                   expected, "actual"))
        print("FAIL: %s report differs from %s (rerun with --update if intended)" %
              (a.format, expected))
        return 1
    print("PASS", a.format)
    return 0


def version_of(tool):
    import subprocess
    out = subprocess.run([os.path.abspath(tool), "--version"], capture_output=True, text=True).stdout
    # "cu2dcu 0.1.0 (LLVM 22.1.0)"
    for line in out.splitlines():
        if line.strip().startswith("cu2dcu "):
            return line.split()[1]
    return "?"


if __name__ == "__main__":
    sys.exit(main())
