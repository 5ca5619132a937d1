#!/usr/bin/env python3
"""What W64 findings say, read from the JSON report.

  messages.py --tool cu2dcu --case cases/amd-path.cu [--tool-arg ARG ...]

In CASE, a line marked `// says: TEXT` must have a W64 finding whose message
contains TEXT; `// fix withheld: TEXT` one whose fixWithheld contains TEXT.
A case without markers fails (a test that checks nothing).
"""
import argparse, json, os, re, subprocess, sys, tempfile

MARK = re.compile(r"//.*?\b(says|fix withheld):\s*(.+?)\s*$")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--tool-arg", action="append", default=[])
    a = ap.parse_args()
    wanted = []
    with open(a.case, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            m = MARK.search(text)
            if m:
                wanted.append((number, "message" if m.group(1) == "says" else "fixWithheld",
                               m.group(2)))
    if not wanted:
        sys.exit("FAIL: %s has no '// says:' or '// fix withheld:' marker" % a.case)
    with tempfile.TemporaryDirectory(prefix="wave64-messages-") as tmp:
        report = os.path.join(tmp, "r.json")
        p = subprocess.run([a.tool, a.case, "--dry-run", "--fail-on=never", "--quiet", "--json",
                            report] + a.tool_arg, capture_output=True, text=True)
        if p.returncode != 0 or not os.path.exists(report):
            sys.exit("FAIL: cu2dcu failed (%d): %s" % (p.returncode, p.stderr))
        with open(report, encoding="utf-8") as f:
            diagnostics = json.load(f)["diagnostics"]
    failures = []
    for line, field, text in wanted:
        said = [d.get(field, "") for d in diagnostics
                if d["line"] == line and d["id"].startswith("W64-")]
        if not any(text in s for s in said):
            failures.append("line %d: no W64 finding whose %s contains %r (found: %r)"
                            % (line, field, text, said))
    if failures:
        sys.exit("FAIL: " + "\n  ".join(failures))
    print("ok: %d markers" % len(wanted))


if __name__ == "__main__":
    main()
