#!/usr/bin/env python3
"""--fix-wave64 decides per lane grouping: the fixes withheld and applied, read
from the JSON report.

  fix_withheld.py --tool cu2dcu --case cases/lane-group-withheld.cu

In CASE, a line marked `blocker: G` holds a W64 finding of grouping G that has
no safe fix, `waits: G` a finding whose safe fix is withheld because of G, and
`fixed` findings whose fixes are all applied. With --fix-wave64, every finding
on a `waits: G` line that has fixes must carry fixWithheld naming a `blocker: G`
line (CASE:LINE) and no applied fix; every finding with fixWithheld must lie on
a `waits` line; every W64 finding on a `fixed` line must have all its fixes
applied and no fixWithheld.
"""
import argparse, collections, json, os, re, subprocess, sys, tempfile

MARK = re.compile(r"\b(blocker|waits):\s*(\w+)|\b(fixed)\b")


def markers(case):
    blockers, waits, fixed = collections.defaultdict(set), {}, set()
    with open(case, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            comment = text.partition("//")[2]
            for kind, group, fix in MARK.findall(comment):
                if fix:
                    fixed.add(number)
                elif kind == "blocker":
                    blockers[group].add(number)
                else:
                    waits[number] = group
    return blockers, waits, fixed


def problems(findings, case, blockers, waits, fixed):
    base = os.path.basename(case)
    out, seen = [], set()
    for d in findings:
        line, why = d["line"], d.get("fixWithheld", "")
        applied = any(f["applied"] for f in d["fixes"])
        if why:
            seen.add(line)
            group = waits.get(line)
            named = {int(n) for n in re.findall(re.escape(base) + r":(\d+)", why)}
            if group is None:
                out.append("line %d: fix withheld on a line not marked waits: %s" % (line, why))
            elif not named & blockers[group]:
                out.append("line %d: withheld for %s, not a blocker of %s %s" % (
                    line, sorted(named), group, sorted(blockers[group])))
        if line in waits and applied:
            out.append("line %d: a fix was applied on a waits line" % line)
        if line in fixed and d["id"].startswith("W64-") and d["fixes"] and (
                why or not all(f["applied"] for f in d["fixes"])):
            out.append("line %d: %s is not fixed" % (line, d["id"]))
    out += ["line %d: no finding with its fix withheld" % l for l in sorted(set(waits) - seen)]
    fixed_found = {d["line"] for d in findings if d["fixes"]}
    out += ["line %d: no finding with a fix" % l for l in sorted(fixed - fixed_found)]
    return out


def findings_with_fixes(tool, case):
    """The diagnostics of the JSON report of CASE translated with --fix-wave64."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r.json")
        p = subprocess.run([tool, case, "--fix-wave64", "--dry-run", "--fail-on=never",
                            "--quiet", "--json", report], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("cu2dcu failed (%d): %s" % (p.returncode, p.stderr))
        with open(report, encoding="utf-8") as f:
            return json.load(f)["diagnostics"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--case", required=True)
    a = ap.parse_args()
    found = problems(findings_with_fixes(a.tool, a.case), a.case, *markers(a.case))
    for line in found:
        print("FAIL: %s: %s" % (a.case, line))
    if not found:
        print("ok: %s" % a.case)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
