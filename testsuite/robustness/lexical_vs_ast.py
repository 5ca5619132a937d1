#!/usr/bin/env python3
"""The lexical mode must translate like the AST mode wherever the AST mode
needs no type information.

  lexical_vs_ast.py --tool build/tool/main/cu2dcu --accepted lexical_vs_ast.accepted \\
      --cases testsuite/golden testsuite/checks/cases testsuite/robustness/lexical

Every case (a file with CASE.expected beside it, CASE.args honoured without
any --mode) is translated twice, with --mode=ast and --mode=lexical. Their
outputs are compared line by line; each differing hunk must be listed in the
accepted-differences file, which says why the lexical mode cannot do what the
AST mode does there. Any other difference fails the test. Entries that no
longer occur are reported (not a failure: the lexical mode got better).

Accepted-differences file: entries separated by blank lines, '#' comments.

  case: golden/user_names.cu
  why: only the AST knows that mylib::cudaMalloc is the user's own
  - <the AST mode's line(s) of the hunk>
  + <the lexical mode's line(s) of the hunk>

Without CUDA headers the AST mode cannot run: prints "skipped: ..." and exits
77 (CTest reports the test as skipped); under CI that is a failure.
"""
import argparse, difflib, os, shlex, subprocess, sys, tempfile
from rlib import Checker
from verdict import in_ci


def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        return f.read()


def parse_accepted(path):
    entries = []
    cur = None
    for raw in read(path).splitlines():
        line = raw.rstrip("\r")
        if line.startswith("#"):
            continue
        if not line.strip():
            cur = None
            continue
        if cur is None:
            cur = {"case": None, "why": "", "ast": [], "lex": [], "used": False}
            entries.append(cur)
        if line.startswith("case:"):
            cur["case"] = line[5:].strip()
        elif line.startswith("why:"):
            cur["why"] = line[4:].strip()
        elif line.startswith("- ") or line == "-":
            cur["ast"].append(line[2:])
        elif line.startswith("+ ") or line == "+":
            cur["lex"].append(line[2:])
        else:
            sys.exit("%s: cannot read line: %r" % (path, line))
    for e in entries:
        if not e["case"] or not e["why"]:
            sys.exit("%s: every entry needs 'case:' and 'why:' (%r)" % (path, e))
    return entries


def cases_under(roots):
    for root in roots:
        for name in sorted(os.listdir(root)):
            path = os.path.join(root, name)
            if name.endswith(".expected") or not os.path.isfile(path + ".expected"):
                continue
            yield path


def case_id(path):
    # "golden/user_names.cu", "checks/cases/mask32.cu", "robustness/lexical/x.cu"
    parts = os.path.normpath(os.path.abspath(path)).split(os.sep)
    if "testsuite" in parts:
        parts = parts[len(parts) - parts[::-1].index("testsuite"):]
    return "/".join(parts)


# A sanitizer build's report (testsuite/robustness/sanitize.sh runs this test
# against it): a failure whichever mode or case it came from.
SANITIZER_REPORT = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer")


def run_tool(tool, inputs, out, mode, extra, sanitizer_reports):
    """The tool's exit status on inputs; it also writes every report, so that
    under the sanitizer build this test covers the report writers too."""
    reports = ["--json", out + ".json", "--sarif", out + ".sarif", "--html", out + ".html"]
    cmd = [tool] + inputs + ["-o", out, "--mode=" + mode, "--fail-on=never", "--quiet"] + \
        reports + extra
    p = subprocess.run(cmd, capture_output=True, text=True)
    if any(r in p.stderr for r in SANITIZER_REPORT):
        sanitizer_reports.append("%s: %s" % (" ".join(cmd), p.stderr.strip()[-3000:]))
    return p


def translate(tool, case, mode, extra, tmp, sanitizer_reports):
    out = os.path.join(tmp, mode + os.path.splitext(case)[1])
    p = run_tool(tool, [case], out, mode, extra, sanitizer_reports)
    if p.returncode != 0:
        return None, "exit %d: %s" % (p.returncode, p.stderr.strip()[-500:])
    return read(out), None


def translate_all(tool, cases, mode, extra, tmp, sanitizer_reports):
    """{case: (output, error)} of every case in one run of the tool (each file
    is its own unit, so its output is the same as alone, with the CUDA
    headers parsed once); when that run fails, each case alone."""
    out = os.path.join(tempfile.mkdtemp(dir=tmp), "out")
    if run_tool(tool, cases, out, mode, extra, sanitizer_reports).returncode == 0:
        common = os.path.commonpath([os.path.dirname(os.path.abspath(c)) for c in cases])
        found = {c: os.path.join(out, os.path.relpath(os.path.abspath(c), common)) for c in cases}
        if all(os.path.isfile(f) for f in found.values()):
            return {c: (read(f), None) for c, f in found.items()}
    return {c: translate(tool, c, mode, extra, tempfile.mkdtemp(dir=tmp), sanitizer_reports)
            for c in cases}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--accepted", required=True)
    ap.add_argument("--cases", nargs="+", required=True, help="directories of golden cases")
    ap.add_argument("--print-entries", action="store_true",
                    help="print the differences not yet accepted as entries to paste (why: ?)")
    a = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, "probe.cu")
        with open(probe, "w") as f:
            f.write("int x;\n")
        p = subprocess.run([a.tool, probe, "--dry-run", "--mode=ast", "--quiet"],
                           capture_output=True, text=True)
        c = Checker("lexical-vs-ast")
        if p.returncode == 2 and "CUDA headers" in p.stderr:
            c.check(not in_ci(), "no CUDA headers under CI: " + p.stderr.strip())
            return c.report(skipped="the AST mode needs CUDA headers: " + p.stderr.strip())

        accepted = parse_accepted(a.accepted)
        compared, unparsable = 0, []
        # The cases that share their arguments are translated together.
        groups = {}
        for case in cases_under([d for d in a.cases if os.path.isdir(d)]):
            extra = shlex.split(read(case + ".args")) if os.path.exists(case + ".args") else []
            groups.setdefault(tuple(x for x in extra if not x.startswith("--mode")), []).append(case)
        outputs, sanitizer_reports = {}, []
        for extra, cases in groups.items():
            for mode in ("ast", "lexical"):
                for case, result in translate_all(a.tool, cases, mode, list(extra), tmp,
                                                  sanitizer_reports).items():
                    outputs[case, mode] = result
        c.failures.extend("sanitizer report: " + r for r in sanitizer_reports)
        for case in sorted({c for c, _ in outputs}):
            cid = case_id(case)
            ast, err = outputs[case, "ast"]
            if ast is None:
                unparsable.append("%s (%s)" % (cid, err.splitlines()[0] if err else ""))
                continue
            lex, err = outputs[case, "lexical"]
            if lex is None:
                c.failures.append("%s: the lexical mode failed: %s" % (cid, err))
                continue
            compared += 1
            al, ll = ast.splitlines(), lex.splitlines()
            sm = difflib.SequenceMatcher(a=al, b=ll, autojunk=False)
            for tag, i1, i2, j1, j2 in sm.get_opcodes():
                if tag == "equal":
                    continue
                hunk_ast, hunk_lex = al[i1:i2], ll[j1:j2]
                match = [e for e in accepted if e["case"] == cid and e["ast"] == hunk_ast
                         and e["lex"] == hunk_lex]
                if match:
                    for e in match:
                        e["used"] = True
                    continue
                c.failures.append("%s:%d: lexical output differs from the AST mode's:\n%s" % (
                    cid, i1 + 1, "\n".join(["  case: " + cid, "  why: ?"] +
                                           ["  - " + l for l in hunk_ast] +
                                           ["  + " + l for l in hunk_lex])))
        for e in accepted:
            if not e["used"]:
                print("note: accepted difference no longer occurs (remove it): %s: %s" % (
                    e["case"], e["why"]))
        for u in unparsable:
            print("note: not compared, the AST mode cannot translate it: " + u)
        print("compared %d cases; %d accepted differences in use" % (
            compared, sum(1 for e in accepted if e["used"])))
        if a.print_entries:
            for f in c.failures:
                if "\n  case: " in f:
                    print("\n".join(l[2:] for l in f.split("\n")[1:]) + "\n")
            return 0
        return c.report()


if __name__ == "__main__":
    sys.exit(main())
