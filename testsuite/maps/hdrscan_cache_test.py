#!/usr/bin/env python3
"""hdrscan.py's cache (CU2DCU_HDRSCAN_CACHE): a second scan of the same
headers is read from the cache, and a change to a header the compile read
(even one reached through another) makes the next scan read the headers
again. Prints 'N checks, 0 failures'; exits 1 otherwise."""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "mappings", "tools"))
import hdrscan  # noqa: E402


def main():
    failures, checks = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        inc = os.path.join(tmp, "inc")
        os.makedirs(inc)
        with open(os.path.join(inc, "outer.h"), "w") as f:
            f.write('#include "inner.h"\n')
        inner = os.path.join(inc, "inner.h")
        with open(inner, "w") as f:
            f.write("int first_name();\n")
        os.environ["CU2DCU_HDRSCAN_CACHE"] = os.path.join(tmp, "cache")
        parsed = []

        def scan():
            def parse(out):
                parsed.append(1)
                return sorted(n for n in ("first_name", "second_name") if n in out)
            return hdrscan._cached_scan("test", ["-x", "c++", "-fsyntax-only", "-Xclang",
                                                  "-ast-dump", "-I", inc],
                                        '#include "outer.h"\n', [[inc, ""]], parse)

        def check(what, got, want):
            nonlocal checks
            checks += 1
            if got != want:
                failures.append("%s: got %r, expected %r" % (what, got, want))

        check("first scan", (scan(), len(parsed)), (["first_name"], 1))
        check("second scan, from the cache", (scan(), len(parsed)), (["first_name"], 1))
        with open(inner, "w") as f:
            f.write("int second_name();\n")
        os.utime(inner, ns=(os.stat(inner).st_atime_ns, os.stat(inner).st_mtime_ns + 10**9))
        check("after the included header changed", (scan(), len(parsed)), (["second_name"], 2))
    for f in failures:
        print("FAIL " + f)
    print("%d checks, %d failures" % (checks, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
