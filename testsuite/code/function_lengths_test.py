#!/usr/bin/env python3
"""The function-length scan (scripts/function_lengths.py) on shapes that
trip a naive brace count: braces in strings, raw strings, character literals
and comments, digit separators, preprocessor lines, initializer lists,
constructor initializers, lambdas, trailing return types, extern "C" blocks.
Each function of cases/shapes.cpp carries "// expect: NAME LINES" above it.
Then the gate itself: a function over the limit that the allowlist does not
name fails, and so do an allowlist entry that is too high or no longer needed.
"""
import os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "..", "scripts")
sys.path.insert(0, SCRIPTS)
import function_lengths  # noqa: E402

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def expected_functions(path):
    with open(path, encoding="utf-8") as f:
        return [(m.group(1), int(m.group(2)))
                for m in re.finditer(r"// expect: (\S+) (\d+)", f.read())]


def scanned_functions(path):
    with open(path, encoding="utf-8") as f:
        code = function_lengths.blank_non_code(f.read())
    return [(name, length) for name, _, length in function_lengths.functions(code)]


def gate(source, allowlist, limit):
    with tempfile.TemporaryDirectory() as tmp:
        allow = os.path.join(tmp, "allow")
        with open(allow, "w", encoding="utf-8") as f:
            f.write(allowlist)
        run = subprocess.run([sys.executable, os.path.join(SCRIPTS, "function_lengths.py"),
                              "--limit", str(limit), "--allow", allow, "--root", HERE, source],
                             capture_output=True, text=True)
    return run.returncode, run.stdout


shapes = os.path.join(HERE, "cases", "shapes.cpp")
expected = expected_functions(shapes)
scanned = scanned_functions(shapes)
check(scanned == expected, f"scan of cases/shapes.cpp:\n  expected {expected}\n  got      {scanned}")

rc, out = gate(shapes, "", limit=4)
check(rc == 1 and "braces has 5 lines" in out and "withLambda has 7 lines" in out,
      f"a function over the limit outside the allowlist must fail:\n{out}")
listed = "cases/shapes.cpp braces 5 why\ncases/shapes.cpp outer::withLambda 7 why\n"
rc, out = gate(shapes, listed, limit=4)
check(rc == 0, f"allowlisted functions must pass:\n{out}")
rc, out = gate(shapes, listed.replace("braces 5", "braces 4"), limit=4)
check(rc == 1 and "braces grew to 5 lines" in out, f"a function past its entry must fail:\n{out}")
rc, out = gate(shapes, listed.replace("braces 5", "braces 6"), limit=4)
check(rc == 1 and "lower its entry from 6" in out, f"an entry above the length must fail:\n{out}")
rc, out = gate(shapes, listed + "cases/shapes.cpp size 3 why\n", limit=4)
check(rc == 1 and "size is within the limit now" in out, f"a stale entry must fail:\n{out}")

for failure in failures:
    print("FAIL:", failure)
sys.exit(1 if failures else 0)
