#!/usr/bin/env python3
"""Definition sites and their uses in the JSON and SARIF reports.

  definition_sites.py --tool cu2dcu --case cases/definition-sites.cu

In CASE, a line marked `// def: NAME` defines a warp constant and a line marked
`// use: NAME` uses it. The JSON report must have one W64 finding on each
definition line whose related locations are exactly the NAME uses (each with
the id of the check that found it), no W64 finding on a use line, the
SARIF result at the definition must list the same lines as relatedLocations,
and the text report (stderr) must list them under the definition's finding as
"  use: FILE:LINE:COL: [ID] message".
"""
import argparse, collections, json, os, re, subprocess, sys, tempfile

MARK = re.compile(r"//\s*(def|use):\s*(\w+)")
TEXT_FINDING = re.compile(r"^\S.*?:(\d+):\d+: (?:error|warning|note): .*\[(W64-[\w-]+)\]$")
TEXT_USE = re.compile(r"^  use: .*?:(\d+):\d+: \[W64-[\w-]+\] \S")


def markers(case):
    defs, uses = {}, collections.defaultdict(set)
    with open(case, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            for kind, name in MARK.findall(text):
                if kind == "def":
                    defs[name] = number
                else:
                    uses[name].add(number)
    return defs, uses


def run(tool, case, tmp):
    js, sarif = os.path.join(tmp, "r.json"), os.path.join(tmp, "r.sarif")
    p = subprocess.run([tool, case, "--dry-run", "--fail-on=never", "--quiet", "--json", js,
                        "--sarif", sarif], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("cu2dcu failed (%d): %s" % (p.returncode, p.stderr))
    with open(js, encoding="utf-8") as f, open(sarif, encoding="utf-8") as g:
        return json.load(f)["diagnostics"], json.load(g)["runs"][0]["results"]


def text_report(tool, case):
    """The W64 findings of the text report: {line: set of use lines listed under it}."""
    p = subprocess.run([tool, case, "--dry-run", "--fail-on=never"], capture_output=True,
                       text=True)
    found, current = collections.defaultdict(set), None
    for text in p.stderr.splitlines():
        finding, use = TEXT_FINDING.match(text), TEXT_USE.match(text)
        if finding:
            current = int(finding.group(1))
            found[current]
        elif use and current is not None:
            found[current].add(int(use.group(1)))
    return found


def check_text(found, defs, uses, failures):
    for name, line in sorted(defs.items()):
        if found.get(line, set()) != uses[name]:
            failures.append("text report %s: uses %s listed under line %d, want %s" % (
                name, sorted(found.get(line, set())), line, sorted(uses[name])))


def check_json(diagnostics, defs, uses, failures):
    wave64 = [d for d in diagnostics if d["id"].startswith("W64-")]
    by_line = {d["line"]: d for d in wave64}
    all_uses = set().union(*uses.values())
    for d in wave64:
        if d["line"] in all_uses:
            failures.append("line %d: a use is reported on its own (%s)" % (d["line"], d["id"]))
    for name, line in sorted(defs.items()):
        d = by_line.get(line)
        if d is None:
            failures.append("%s: no W64 finding at its definition, line %d" % (name, line))
            continue
        got = {r["line"] for r in d["related"]}
        if got != uses[name]:
            failures.append("%s: related lines %s, want %s" % (name, sorted(got), sorted(uses[name])))
        if not all(r["id"] and r["id"].startswith("W64-") and r["message"] for r in d["related"]):
            failures.append("%s: a related location without check id or message" % name)


def check_sarif(results, defs, uses, failures):
    for name, line in sorted(defs.items()):
        at = [r for r in results if r["locations"][0]["physicalLocation"].get("region", {})
              .get("startLine") == line and r["ruleId"].startswith("W64-")]
        related = {l["physicalLocation"]["region"]["startLine"]
                   for r in at for l in r.get("relatedLocations", [])}
        if related != uses[name]:
            failures.append("SARIF %s: relatedLocations %s, want %s" % (
                name, sorted(related), sorted(uses[name])))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--case", required=True)
    a = ap.parse_args()
    defs, uses = markers(a.case)
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        diagnostics, results = run(a.tool, a.case, tmp)
    check_json(diagnostics, defs, uses, failures)
    check_sarif(results, defs, uses, failures)
    check_text(text_report(a.tool, a.case), defs, uses, failures)
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("PASS: %d definitions, %d uses folded into them" % (
            len(defs), sum(len(u) for u in uses.values())))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
