#!/usr/bin/env python3
"""Whole-tool stress on broken CUDA: mutants of the golden, check and sample
sources (cut short, lines dropped, doubled or swapped, hard fragments such as
`<<<`, `#if`, `/*`, `R"(` or a line continuation spliced in) are translated in
auto mode (AST, falling back to lexical) with --fix-wave64 at -j 2, and in
lexical mode. The run must finish within its time limit, exit 0 or 1 (never
2 on readable files, never 3 or a signal), write an output for every input,
leave no temporary file, and translating its own output must not fail either.

The mutants are deterministic (--seed); the libFuzzer targets in tool/fuzz
explore the lexical pass and the map loader far longer but not the AST path,
the checks or the driver, which this test does.

  mutants.py --tool build/tool/main/cu2dcu --root . [--count 48] [--seed 1]
"""
import argparse, glob, os, random, subprocess, sys, tempfile
from rlib import Checker, files_under, leftovers, read, run, text, write

FRAGMENTS = [
    "<<<", ">>>", "<<<1, 2>>>(", "kernel<<<grid, block, 0, stream>>>", "#if 1\n", "#endif\n",
    "#else\n", "#define LAUNCH(k) k<<<1, 1>>>()\n", "/*", "*/", "\"", "'", "R\"(", ")\"", "\\\n",
    "template <typename T>", "{", "}", "(", ")", ";", "__global__", "__shfl_down_sync(0xffffffff, v, 16)",
    "__ballot_sync(0xffffffffu, p)", "threadIdx.x & 31", "asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(l));",
    "__launch_bounds__(256, 2)", "cudaMemcpyToSymbol(", "HIP_SYMBOL(", "#include \"missing.cuh\"\n",
    "#pragma unroll\n", "cub::", "thrust::", "\x00", "\xef\xbb\xbf", "\r\n", "\t",
]


def mutate(data, rng):
    lines = data.split("\n")
    kind = rng.randrange(6)
    if kind == 0:  # cut short anywhere, possibly inside a token or comment
        return data[:rng.randrange(len(data) + 1)]
    if kind == 1:  # drop a run of lines
        i = rng.randrange(len(lines))
        del lines[i:i + rng.randint(1, 8)]
    elif kind == 2:  # double a run of lines
        i = rng.randrange(len(lines))
        lines[i:i] = lines[i:i + rng.randint(1, 8)]
    elif kind == 3:  # swap two lines
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    else:  # splice hard fragments in at random byte offsets
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(data) + 1)
            data = data[:at] + rng.choice(FRAGMENTS) + data[at:]
        return data
    return "\n".join(lines)


def seeds(root):
    found = []
    for pattern in ["testsuite/golden/*.cu", "testsuite/checks/cases/*.cu", "samples-cuda/*/*.cu",
                    "testsuite/robustness/lexical/*.cu"]:
        found += sorted(glob.glob(os.path.join(root, pattern)))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--count", type=int, default=48)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-limit", type=int, default=600, help="seconds for one whole run")
    a = ap.parse_args()
    tool = os.path.abspath(a.tool)
    rng = random.Random(a.seed)
    sources = seeds(a.root)
    c = Checker("mutants")
    if not c.check(len(sources) >= 20, "only %d seed sources found under %s" % (len(sources), a.root)):
        return c.report()
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        for n in range(a.count):
            seed = rng.choice(sources)
            data = read(seed).decode("utf-8", "surrogateescape")
            for _ in range(rng.randint(1, 3)):
                data = mutate(data, rng)
            write(os.path.join(src, "m%03d_%s" % (n, os.path.basename(seed))),
                  data.encode("utf-8", "surrogateescape"))
        inputs = files_under(src)
        runs = [("auto", [src, "--fix-wave64", "-j", "2", "--parse-timeout=60"]),
                ("lexical", [src, "--mode=lexical"])]
        for name, args in runs:
            out = os.path.join(tmp, "out-" + name)
            try:
                p = run([tool, *args, "-o", out, "--fail-on=never", "--quiet"], timeout=a.time_limit)
            except subprocess.TimeoutExpired as e:
                c.check(False, "%s run hung: %s" % (name, e))
                continue
            log = text(p)
            c.check(p.returncode == 0, "%s run: exit %d (seed %d)\n%s" % (name, p.returncode, a.seed,
                                                                        log[-4000:]))
            c.check("internal error" not in log, "%s run: internal error\n%s" % (name, log[-4000:]))
            c.check(files_under(out) == inputs, "%s run: outputs missing: %s" % (
                name, sorted(set(inputs) - set(files_under(out)))[:10]))
            c.check(not leftovers(out), "%s run: temporary files left: %s" % (name, leftovers(out)))
            # The translation of a broken file is itself input a user may feed back.
            again = os.path.join(tmp, "again-" + name)
            p = run([tool, out, "-o", again, "--mode=lexical", "--fail-on=never", "--quiet"],
                    timeout=a.time_limit)
            c.check(p.returncode == 0, "%s output translated again: exit %d\n%s" % (
                name, p.returncode, text(p)[-4000:]))
        print("%d mutants of %d seed sources, seed %d" % (len(inputs), len(sources), a.seed))
    return c.report()


if __name__ == "__main__":
    sys.exit(main())
