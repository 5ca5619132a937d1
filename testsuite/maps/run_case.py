#!/usr/bin/env python3
"""Run the map verifier on one test map and check its verdict.

    run_case.py [--VERIFY-OPTION ...] MAP EXPECTED_EXIT [REGEX ...]

--verifier=SCRIPT runs that script of mappings/tools/ (given --map MAP)
instead of verify.py.

Leading options go to the verifier.  Every REGEX must match a line of the
verifier's output.  Prints
'1 passed, 0 failed' or '0 passed, 1 failed'.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VERIFY = os.path.join(HERE, "..", "..", "mappings", "tools", "verify.py")


def main():
    args = sys.argv[1:]
    n = next((i for i, a in enumerate(args) if not a.startswith("--")), len(args))
    options, args = args[:n], args[n:]
    mapfile, want_rc, patterns = args[0], int(args[1]), args[2:]
    if not os.path.isabs(mapfile):
        mapfile = os.path.join(HERE, "cases", mapfile)
    # --verifier=SCRIPT: another checker of mappings/tools/ that takes --map
    verifier = [o.split("=", 1)[1] for o in options if o.startswith("--verifier=")]
    options = [o for o in options if not o.startswith("--verifier=")]
    command = ([sys.executable, os.path.join(os.path.dirname(VERIFY), verifier[0]), "--map", mapfile]
               if verifier else [sys.executable, VERIFY, "--maps", mapfile])
    p = subprocess.run(command + options, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    problems = []
    if p.returncode != want_rc:
        problems.append("exit status %d, expected %d" % (p.returncode, want_rc))
    for pat in patterns:
        if not re.search(pat, p.stdout, re.M):
            problems.append("no output line matches %r" % pat)
    if problems:
        sys.stdout.write(p.stdout)
        for pr in problems:
            print("FAIL %s: %s" % (os.path.basename(mapfile), pr))
        print("0 passed, 1 failed")
        return 1
    print("PASS %s" % os.path.basename(mapfile))
    print("1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
