#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora from the test inputs, so that they are
not kept twice in the repository:

  OUT/lexical/  every golden, check and lexical-mode test source, with the
                options byte fuzz-lexical reads first (cycling through its
                four settings: launch syntax kept or not, HIP 5.2 or 6.2)
  OUT/maps/     the map-verifier test cases and the smaller shipped maps

  OUT/lexical/  also real CUDA code: up to REAL_SEEDS sources of the dev
                corpus (../shared/corpus/hecbench, read in place, never
                copied into the repository) when it is there

tool/fuzz/corpus/ keeps only what no test holds: the inputs of the bugs the
fuzzers found (regression-*) and hand-written seeds (seed-*).

  seed_corpus.py build-fuzz/fuzz-seeds
"""
import glob, os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LEXICAL = [("golden", "testsuite/golden/*.cu"), ("cases", "testsuite/checks/cases/*.cu"),
           ("lexical", "testsuite/robustness/lexical/*.cu")]
MAPS = ["testsuite/maps/cases/*.yaml", "mappings/*.yaml"]
MAX_MAP_BYTES = 12 * 1024  # the larger shipped maps only slow the fuzzer down
REAL_CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "hecbench")
REAL_SEEDS = 200
MAX_REAL_BYTES = 64 * 1024


def real_sources():
    """Up to REAL_SEEDS small CUDA sources of the dev corpus, evenly spaced by name."""
    found = sorted(p for ext in ("cu", "cuh") for p in
                   glob.glob(os.path.join(REAL_CORPUS, "*-cuda", "**", "*." + ext), recursive=True)
                   if os.path.getsize(p) <= MAX_REAL_BYTES)
    step = max(1, len(found) // REAL_SEEDS)
    return found[::step][:REAL_SEEDS]


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    n = 0
    for prefix, pattern in LEXICAL:
        for src in sorted(glob.glob(os.path.join(ROOT, pattern))):
            with open(src, "rb") as f:
                write(os.path.join(out, "lexical", prefix + "-" + os.path.basename(src)),
                      bytes([n % 4]) + f.read())
            n += 1
    for src in real_sources():
        with open(src, "rb") as f:
            name = os.path.relpath(src, REAL_CORPUS).replace(os.sep, "_")
            write(os.path.join(out, "lexical", "real-" + name), bytes([n % 4]) + f.read())
        n += 1
    m = 0
    for pattern in MAPS:
        for src in sorted(glob.glob(os.path.join(ROOT, pattern))):
            if os.path.getsize(src) <= MAX_MAP_BYTES:
                with open(src, "rb") as f:
                    write(os.path.join(out, "maps", os.path.basename(src)), f.read())
                m += 1
    print("wrote %d lexical and %d map seeds under %s" % (n, m, out))


if __name__ == "__main__":
    main()
