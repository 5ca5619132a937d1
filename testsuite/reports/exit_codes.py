#!/usr/bin/env python3
"""The exit-code matrix: 0 ok, 1 findings at/above --fail-on or more warnings
than --max-warnings, 2 usage or input errors."""
import argparse, os, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reportlib

FILES = {
    # name: (source, what it reports)
    "clean": ("#include <cuda_runtime.h>\nvoid f(float *p) { cudaFree(p); }\n", "nothing"),
    "note": ("void f() { cudaThreadSynchronize(); }\n", "one note"),
    "warning": ("void f() { cudaFancyNewThing(); }\n", "one warning"),
    "error": ("void f() { cudaArrayGetInfo(0, 0, 0, 0); }\n", "one error"),
    "two-warnings": ("void f() { cudaFancyNewThing(); cudaOtherNewThing(); }\n", "two warnings"),
}

# (file, extra arguments, expected exit status)
MATRIX = [
    ("clean", [], 0), ("clean", ["--fail-on=note"], 0), ("clean", ["--max-warnings=0"], 0),
    ("note", [], 0), ("note", ["--fail-on=warning"], 0), ("note", ["--fail-on=note"], 1),
    ("note", ["--fail-on=never"], 0),
    ("warning", [], 0), ("warning", ["--fail-on=error"], 0), ("warning", ["--fail-on=warning"], 1),
    ("warning", ["--fail-on=note"], 1), ("warning", ["--fail-on=never"], 0),
    ("warning", ["--max-warnings=0"], 1), ("warning", ["--max-warnings=1"], 0),
    ("warning", ["--fail-on=never", "--max-warnings=0"], 1),
    ("two-warnings", ["--max-warnings=1"], 1), ("two-warnings", ["--max-warnings=2"], 0),
    ("error", [], 1), ("error", ["--fail-on=warning"], 1), ("error", ["--fail-on=note"], 1),
    ("error", ["--fail-on=never"], 0), ("error", ["--fail-on=never", "--max-warnings=0"], 0),
]

USAGE = [
    ([], "no input"),
    (["{dir}/clean.cu"], "no -o and no --dry-run"),
    (["{dir}/clean.cu", "--dry-run", "--fail-on=sometimes"], "bad --fail-on"),
    (["{dir}/clean.cu", "--dry-run", "--max-warnings=-1"], "negative --max-warnings"),
    (["{dir}/clean.cu", "--dry-run", "--max-warnings=many"], "non-numeric --max-warnings"),
    (["{dir}/missing.cu", "--dry-run"], "missing input"),
    (["{dir}/clean.cu", "--dry-run", "--baseline", "{dir}/missing.json"], "missing baseline"),
    (["{dir}/clean.cu", "--dry-run", "--json", "{dir}/no/such/dir/r.json"], "unwritable --json"),
    (["{dir}/clean.cu", "--dry-run", "--html", "{dir}/no/such/dir/r.html"], "unwritable --html"),
    (["{dir}/clean.cu", "--dry-run", "--no-such-option"], "unknown option"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    a = ap.parse_args()
    failures = []
    maps = os.path.join(reportlib.HERE, "maps")
    with tempfile.TemporaryDirectory() as tmp:
        for name, (text, _) in FILES.items():
            with open(os.path.join(tmp, name + ".cu"), "w") as f:
                f.write(text)
        for name, extra, want in MATRIX:
            args = [os.path.join(tmp, name + ".cu"), "--dry-run", "--mode=lexical", "--mappings",
                    maps] + extra
            p = reportlib.run_tool(a.tool, args, cwd=tmp)
            ok = p.returncode == want
            print("%-4s %-13s %-40s exit %d (want %d)" % ("ok" if ok else "FAIL", name,
                                                         " ".join(extra), p.returncode, want))
            if not ok:
                failures.append("%s %s: exit %d, want %d\n%s" % (name, extra, p.returncode, want,
                                                                 p.stderr[-1500:]))
        for args, what in USAGE:
            args = [x.format(dir=tmp) for x in args]
            if args:
                args += ["--mode=lexical", "--mappings", maps]
            p = reportlib.run_tool(a.tool, args, cwd=tmp)
            ok = p.returncode == 2
            print("%-4s usage: %-34s exit %d (want 2)" % ("ok" if ok else "FAIL", what, p.returncode))
            if not ok:
                failures.append("usage (%s): exit %d, want 2\n%s" % (what, p.returncode,
                                                                    p.stderr[-1500:]))
            elif args and not p.stderr.strip():
                failures.append("usage (%s): no message on stderr" % what)
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("PASS exit codes (%d cases)" % (len(MATRIX) + len(USAGE)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
