#!/usr/bin/env python3
"""Per-file parse limit: a parse that hangs, runs too long or crashes costs
that file its AST translation (it is translated lexically, and the summary
says why), never the run.

  parse_isolation.py --tool build/tool/main/cu2dcu
"""
import argparse, os, re, resource, sys, tempfile, time
from rlib import CUDA_SOURCE, Checker, files_under, read, run, text, write

# clang evaluates this constexpr loop for as many steps as it is allowed.
SPIN = CUDA_SOURCE + """
constexpr long spin() { long i = 0; while (i >= 0) { i = i + 1; } return i; }
constexpr long forever = spin();
"""


def children_cpu_seconds():
    """CPU time of the waited-for child processes and their descendants."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    a = ap.parse_args()
    tool = os.path.abspath(a.tool)
    c = Checker("parse-isolation")
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        write(os.path.join(src, "spin.cu"), SPIN)
        for name in ["a.cu", "b.cu", "crash.cu", "hang.cu"]:
            write(os.path.join(src, name), CUDA_SOURCE)

        # Reference: every file parses normally (spin.cu fails fast at clang's
        # default constexpr step limit and is translated lexically).
        ref = os.path.join(tmp, "ref")
        p = run([tool, src, "-o", ref, "--parse-timeout=0"])
        c.check(p.returncode == 0, "reference run: exit %d\n%s" % (p.returncode, text(p)))

        # A real CPU-bound parse: clang allowed 2^31 constexpr steps.
        out = os.path.join(tmp, "out")
        start = time.time()
        cpu_before = children_cpu_seconds()
        p = run([tool, src, "-o", out, "--parse-timeout=3", "-j", "2",
                 "--", "-fconstexpr-steps=2147483647"],
                env={"CU2DCU_TEST_FAULT": "parse:crash:/crash.cu;parse:hang:/hang.cu"}, timeout=300)
        took = time.time() - start
        cpu = children_cpu_seconds() - cpu_before
        log = text(p)
        c.check(p.returncode == 0, "limited run: exit %d\n%s" % (p.returncode, log))
        c.check(re.search(r"lexical: spin\.cu: parsing timed out \(more than 3 s of CPU time\)", log),
                "the CPU limit is not reported:\n" + log)
        c.check(re.search(r"lexical: hang\.cu: parsing timed out \(no result after 19 s\)", log),
                "the wall-clock backstop is not reported:\n" + log)
        c.check(re.search(r"lexical: crash\.cu: the parser crashed \(signal 11", log),
                "the crash is not reported:\n" + log)
        c.check(re.search(r"parsed: 2 with the AST, 3 lexically", log), "summary counts:\n" + log)
        c.check("Stack dump" not in log, "a crash dumped its stack on the user:\n" + log[-3000:])
        # CPU time, not wall time, so that a busy machine cannot fail the test:
        # the five parses and the tool take a few seconds of it when the limit
        # stops spin.cu, which would otherwise evaluate 2^31 constexpr steps.
        c.check(cpu < 60, "the limited run took %.0f s of CPU time" % cpu)
        # The fallback output is what the lexical mode makes of the file, and
        # the files that parsed are as without the limit.
        for f in files_under(ref):
            c.check(read(os.path.join(out, f)) == read(os.path.join(ref, f)),
                    "%s differs from the run without a limit" % f)
        c.check(re.search(r"spin\.cu:1:1: note: translated lexically: parsing timed out", log),
                "no CU2DCU-PARSE-FALLBACK note for the timed-out file")
        print("limited run: %.1f s, %.1f s of CPU time" % (took, cpu))
    return c.report()


if __name__ == "__main__":
    sys.exit(main())
