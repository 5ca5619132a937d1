#!/usr/bin/env python3
"""The shared PCHs (tool/parse/SharedPch.h) must not change the output.

Translates a small generated corpus (gen_corpus.py), the samples, and edge
cases for the PCH checks, three ways:
  --no-pch -j1 --parse-timeout=0   the reference: every unit from scratch
  -j2                              PCHs, parses in child processes, two at a time
  -j2 --parse-timeout=0            PCHs, parses on threads in one process
(-j1 against -j2 is robustness/guarantee/deterministic's.)
and requires byte-identical output trees and identical JSON reports (all
but run times and arguments). It also requires that PCHs were used, and
that the edge cases were noticed, so that it cannot pass vacuously.

Edge cases added to the corpus:
  shadow/      a file bits/c++config.h beside units: the system headers of
               their PCH would find it there, so they must not use it
  unguarded/   a project header without include guard first in two units:
               seeing it again is not a no-op, so the prefix stops before it
  assert/      <cassert> first: assert.h redefines assert when seen again
  macro/       #include through a macro: the scan stops there
  headers/     two headers no unit includes: parsed on their own (second wave)

  pch_identical.py --tool build/tool/main/cu2dcu --work build/testsuite/bench/pch
"""

import argparse
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "testsuite", "lib"))
import gen_corpus  # noqa: E402
from verdict import SKIP, in_ci  # noqa: E402

EDGE = {
    "src/shadow/bits/c++config.h": """\
// A project file with the name of a libstdc++ header: in this directory the
// system headers' own #include <bits/c++config.h> finds it first.
#include_next <bits/c++config.h>
#define SHADOW_CONFIG_SEEN 1
""",
    "src/shadow/use_a.cu": """\
#include <cuda_runtime.h>
#include <vector>

__global__ void shadow_a(float *x) { x[threadIdx.x] = SHADOW_CONFIG_SEEN; }
void run_shadow_a(std::vector<float> &v) {
    float *d;
    cudaMalloc(&d, v.size() * sizeof(float));
    shadow_a<<<1, 32>>>(d);
    cudaFree(d);
}
""",
    "src/shadow/use_b.cu": """\
#include <cuda_runtime.h>
#include <vector>

__global__ void shadow_b(int *x) { x[threadIdx.x] = SHADOW_CONFIG_SEEN + 1; }
void run_shadow_b() { int *d; cudaMalloc(&d, 4); shadow_b<<<1, 1>>>(d); cudaFree(d); }
""",
    "src/unguarded/counter.h": """\
// No include guard: every inclusion declares the next counter.
#include <cuda_runtime.h>
#ifndef COUNTER
#define COUNTER 0
#endif
static const int counter_value = COUNTER;
""",
    "src/unguarded/use_a.cu": """\
#include "counter.h"
#include <cstdio>

__global__ void count_a(int *x) { x[0] = counter_value; }
void run_count_a() { int *d; cudaMalloc(&d, 4); count_a<<<1, 1>>>(d); cudaDeviceSynchronize(); }
""",
    "src/unguarded/use_b.cu": """\
#include "counter.h"
#include <cstdio>

__global__ void count_b(int *x) { x[0] = counter_value + 1; }
void run_count_b() { int *d; cudaMalloc(&d, 4); count_b<<<1, 1>>>(d); cudaFree(d); }
""",
    "src/assert/use_a.cu": """\
#include <cassert>
#include <cuda_runtime.h>

void check_a(int n) { assert(n > 0); cudaDeviceReset(); }
""",
    "src/assert/use_b.cu": """\
#include <cassert>
#include <cuda_runtime.h>

void check_b(int n) { assert(n < 100); cudaDeviceSynchronize(); }
""",
    "src/macro/use_a.cu": """\
#define CUDA_HEADER <cuda_runtime.h>
#include CUDA_HEADER

void macro_a() { cudaDeviceSynchronize(); }
""",
    "src/macro/use_b.cu": """\
#define CUDA_HEADER <cuda_runtime.h>
#include CUDA_HEADER

void macro_b() { cudaDeviceReset(); }
""",
    "src/headers/lonely_a.cuh": """\
#pragma once
#include <cuda_runtime.h>
#include "proj/config.h"

inline cudaError_t lonely_a() { return cudaDeviceSynchronize(); }
""",
    "src/headers/lonely_b.cuh": """\
#pragma once
#include <cuda_runtime.h>
#include "proj/config.h"

inline cudaError_t lonely_b() { return cudaGetLastError(); }
""",
}

# --no-cache: each run must parse, or the later ones would reuse the first's
# outcomes and test nothing of the PCHs.
RUNS = [
    ("reference", ["--no-pch", "-j1", "--parse-timeout=0", "--no-cache"]),
    ("pch-j2", ["-j2", "--no-cache"]),
    ("pch-threads", ["-j2", "--parse-timeout=0", "--no-cache"]),
]


def comparable_report(path):
    with open(path) as f:
        report = json.load(f)
    report.pop("run", None)  # arguments and output path
    report.get("statistics", {}).pop("seconds", None)
    for f in report.get("files", []):
        f.pop("cpuSeconds", None)  # a timing, like statistics.seconds
    return report


def tree_differences(a, b):
    cmp = filecmp.dircmp(a, b)
    out = []

    def walk(c, rel):
        out.extend(os.path.join(rel, n) for n in c.left_only + c.right_only + c.diff_files)
        out.extend(os.path.join(rel, n) for n in c.funny_files)
        for name, sub in c.subdirs.items():
            walk(sub, os.path.join(rel, name))

    walk(cmp, "")
    # dircmp compares shallowly (size and mtime first): compare bytes too.
    for d, _, names in os.walk(a):
        for n in names:
            p = os.path.join(d, n)
            q = os.path.join(b, os.path.relpath(p, a))
            if os.path.exists(q) and not filecmp.cmp(p, q, shallow=False):
                out.append(os.path.relpath(p, a))
    return sorted(set(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--units", type=int, default=6)
    args = ap.parse_args()

    cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")
    if not os.path.exists(os.path.join(cuda, "include", "cuda_runtime.h")):
        if in_ci():  # a missing toolkit under CI is an error, never a skip
            print("FAIL: no CUDA headers under %s, so nothing is parsed" % cuda)
            return 1
        print("skipped: no CUDA headers under %s, so nothing is parsed" % cuda)
        return SKIP
    if os.path.exists(args.work):
        shutil.rmtree(args.work)
    corpus = os.path.join(args.work, "corpus")
    gen_corpus.generate(corpus, args.units, 1, os.path.join(REPO, "samples-cuda"))
    for rel, text in EDGE.items():
        path = os.path.join(corpus, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    failures = []
    reports = {}
    for name, extra in RUNS:
        out = os.path.join(args.work, "out-" + name)
        report = os.path.join(args.work, name + ".json")
        cmd = [args.tool, corpus, "-o", out, "--json", report, "--fail-on=never", "--time-report",
               *extra, "--", "-I" + os.path.join(corpus, "include")]
        p = subprocess.run(cmd, capture_output=True, text=True)
        print("$ " + " ".join(cmd))
        print("\n".join(l for l in p.stderr.splitlines()
                        if l.startswith(("  shared PCHs", "  note:", "  pch ", "  parse ", "  parsed:"))))
        if p.returncode != 0:
            failures.append("%s: exit %d\n%s" % (name, p.returncode, p.stderr[-3000:]))
            continue
        reports[name] = comparable_report(report)
        if name != "reference":
            m = re.search(r"shared PCHs: (\d+) built, (\d+) units parsed with one, (\d+) parsed again",
                          p.stderr)
            if not m or int(m.group(2)) == 0:
                failures.append("%s: no unit was parsed with a shared PCH" % name)
            if "its directory shadows a header of its PCH" not in p.stderr and \
               (not m or int(m.group(3)) == 0):
                failures.append("%s: the shadowing bits/c++config.h of src/shadow went unnoticed" % name)
        if name == "reference" and "shared PCHs" in p.stderr:
            failures.append("reference: --no-pch built PCHs")

    ref_out = os.path.join(args.work, "out-reference")
    for name, _ in RUNS[1:]:
        if name not in reports or "reference" not in reports:
            continue
        diff = tree_differences(ref_out, os.path.join(args.work, "out-" + name))
        if diff:
            failures.append("%s: output differs from --no-pch in %s" % (name, ", ".join(diff[:10])))
        for key in sorted(set(reports["reference"]) | set(reports[name])):
            if reports["reference"].get(key) != reports[name].get(key):
                failures.append("%s: JSON report differs from --no-pch in '%s'" % (name, key))

    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        return 1
    print("ok: %d ways, identical output" % len(RUNS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
