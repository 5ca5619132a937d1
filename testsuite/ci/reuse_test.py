#!/usr/bin/env python3
"""Reuse must never change a byte: the unit cache (--cache) and the shards
of a CI matrix (--shard K/N, then cu2dcu merge-reports) give the output
tree and the reports of a cold run, apart from timing fields.

On a small tree of its own (six units, a header three of them include, a
header none includes) each step compares a run that may reuse outcomes
with a cold run (--no-cache) of the same tree:

  warm         an unchanged tree: every unit reused, none parsed
  header       a project header edited: its includers parsed, the rest reused
  source       one unit edited: that unit parsed, the rest reused
  map          a --map file edited: every unit parsed
  flag         a -D added after --: every unit parsed
  damaged      every cache entry truncated or with a byte flipped: all parsed
  pruned       --cache-limit-mb 0 empties the cache after the run; the next
               run parses every unit again
  concurrent   two runs sharing one cache at the same time
  shards       four shards merged; also a merge with a shard missing, one
               given twice and one of other options, which must fail
  summary      --summary-md: the headline and the per-check table

It counts parsed and reused units from the JSON reports (statistics.units),
so that reuse cannot pass by parsing everything.

  reuse_test.py --tool build/tool/main/cu2dcu --work build/testsuite/ci/reuse
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "testsuite", "bench"))
sys.path.insert(0, os.path.join(REPO, "testsuite", "lib"))
from pch_identical import tree_differences  # noqa: E402
from verdict import SKIP, finish, in_ci  # noqa: E402

SHARED = """\
#pragma once
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) return e; } while (0)
__device__ inline float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}
"""

UNIT = """\
#include <cuda_runtime.h>
{include}
__global__ void k{n}(float *x, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = {body};
}}
cudaError_t run{n}(float *x, int n) {{
  k{n}<<<(n + 255) / 256, 256>>>(x, n);
  cudaDeviceSynchronize();
  return cudaGetLastError();
}}
"""

LONELY = """\
#pragma once
#include <cuda_runtime.h>
inline cudaError_t lonely() { return cudaDeviceSynchronize(); }
"""


def make_tree(tree):
    os.makedirs(os.path.join(tree, "include"))
    open(os.path.join(tree, "include", "shared.cuh"), "w").write(SHARED)
    open(os.path.join(tree, "include", "lonely.cuh"), "w").write(LONELY)
    for n in range(6):
        uses = n % 2 == 0
        open(os.path.join(tree, "unit%d.cu" % n), "w").write(UNIT.format(
            n=n, include='#include "shared.cuh"' if uses else "",
            body="warp_sum(x[i])" if uses else "x[i] * %d" % (n + 1)))


USER_MAP = """\
family: runtime
entries:
- {cuda: cudaDeviceSynchronize, hip: hipDeviceSynchronize, kind: function}
"""


class Runner:
    def __init__(self, tool, work, tree):
        self.tool, self.work, self.tree = tool, work, tree
        self.count = 0
        self.map = os.path.join(work, "user-map.yaml")
        self.defines = []

    def run(self, *extra, out=None, expect=(0, 1)):
        """One run over the tree; its output folder and comparable report."""
        self.count += 1
        name = "run%02d" % self.count
        out = out or os.path.join(self.work, name)
        report = os.path.join(self.work, name + ".json")
        cmd = [self.tool, self.tree, "-o", out, "--json", report, "--fail-on=never", "--quiet", "-j2",
               "--map", self.map, *extra, "--", "-I" + os.path.join(self.tree, "include"),
               *self.defines]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode not in expect:
            raise AssertionError("%s: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr[-3000:]))
        return out, report

    def cold(self):
        return self.run("--no-cache")


def comparable(report_path):
    with open(report_path) as f:
        r = json.load(f)
    units = r["statistics"].pop("units")
    r["statistics"].pop("seconds")
    r.pop("run")
    for f in r["files"]:
        f.pop("cpuSeconds")
    return r, units


def same(failures, step, reference, candidate):
    """candidate's output and report equal reference's; its unit counts."""
    diff = tree_differences(reference[0], candidate[0])
    if diff:
        failures.append("%s: output differs from a cold run in %s" % (step, ", ".join(diff[:8])))
    ref, _ = comparable(reference[1])
    got, units = comparable(candidate[1])
    for key in sorted(set(ref) | set(got)):
        if ref.get(key) != got.get(key):
            failures.append("%s: the JSON report differs from a cold run's in '%s'" % (step, key))
    return units


def expect_units(failures, step, units, parsed, reused):
    if (units["parsed"], units["reused"]) != (parsed, reused):
        failures.append("%s: %d parsed and %d reused, expected %d and %d"
                        % (step, units["parsed"], units["reused"], parsed, reused))


def append(path, text):
    with open(path, "a") as f:
        f.write(text)


def edits(r, cache, failures, total, reference):
    """Warm (the cache filled by the concurrent runs), then one edit at a
    time, each against a cold run of the edited tree; the last cold run."""
    def step(name, parsed, reference=None):
        reference = reference or r.cold()
        units = same(failures, name, reference, r.run("--cache", cache))
        expect_units(failures, name, units, parsed, total - parsed)
        return reference

    step("warm", 0, reference)
    header = os.path.join(r.tree, "include", "shared.cuh")
    includers = 3
    append(header, "\n__device__ inline float cache_probe(float x) "
                   "{ return __shfl_down_sync(0xffffffff, x, 1); }\n")
    step("header", includers)
    append(os.path.join(r.tree, "unit1.cu"),
           "\nvoid cache_probe_sync() { cudaDeviceSynchronize(); }\n")
    step("source", 1)
    append(r.map, "- {cuda: cudaDeviceReset, hip: hipDeviceReset, kind: function}\n")
    step("map", total)
    r.defines = ["-DCACHE_PROBE=1"]
    return step("flag", total)


def damage(r, cache, failures, total, reference):
    entries = [os.path.join(d, n) for d, _, ns in os.walk(cache) for n in ns
               if n.endswith(".json")]
    if len(entries) < total:
        failures.append("damaged: %d cache entries for %d units" % (len(entries), total))
    for i, path in enumerate(entries):
        data = bytearray(open(path, "rb").read())
        if i % 2:
            data = data[:len(data) // 2]
        else:
            data[len(data) * 2 // 3] ^= 0x01
        open(path, "wb").write(bytes(data))
    units = same(failures, "damaged", reference, r.run("--cache", cache))
    expect_units(failures, "damaged", units, total, 0)


def pruned(r, cache, failures, total, reference):
    def entries():
        return sum(1 for _, _, ns in os.walk(cache) for n in ns if n.endswith(".json"))

    if entries() < total:
        failures.append("pruned: %d cache entries before pruning, of %d units" % (entries(), total))
    same(failures, "pruned", reference, r.run("--cache", cache, "--cache-limit-mb", "0"))
    if entries():
        failures.append("pruned: %d cache entries left under --cache-limit-mb 0" % entries())
    units = same(failures, "after pruning", reference, r.run("--cache", cache))
    expect_units(failures, "after pruning", units, total, 0)


def concurrent(r, failures, cache, reference):
    results, errors = [None, None], []

    def one(i):
        try:
            results[i] = r.run("--cache", cache, out=os.path.join(r.work, "concurrent%d" % i))
        except AssertionError as e:
            errors.append(str(e))

    threads = [threading.Thread(target=one, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    failures.extend(errors)
    for res in results:
        if res:
            same(failures, "concurrent", reference, res)


def shards(r, failures, total, reference):
    """Four shards and their merge, which parses only the headers that no unit
    includes (no shard knows them), as a single run does after its units."""
    files = []
    for k in range(1, 5):
        path = os.path.join(r.work, "shard%d.json" % k)
        r.run("--no-cache", "--shard", "%d/4" % k, "--json", path)
        files.append(path)
    out, report = os.path.join(r.work, "merged"), os.path.join(r.work, "merged.json")
    summary = os.path.join(r.work, "summary.md")
    p = subprocess.run([r.tool, "merge-reports", *files, "-o", out, "--json", report,
                        "--summary-md", summary, "--no-cache", "--fail-on=never", "--quiet"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        failures.append("merge-reports: exit %d\n%s" % (p.returncode, p.stderr[-2000:]))
        return
    units = same(failures, "shards", reference, (out, report))
    in_shards = sum(len(json.load(open(f))["units"]) for f in files)
    if not 0 < in_shards <= total:
        failures.append("shards: %d units in the shard files, of %d" % (in_shards, total))
    expect_units(failures, "shards", units, total - in_shards, in_shards)
    text = open(summary).read()
    for needle in ("## cu2dcu gate", "### Findings by check", "W64-"):
        if needle not in text:
            failures.append("summary: '%s' missing from --summary-md" % needle)
    other = os.path.join(r.work, "shard-other.json")
    r.run("--no-cache", "--shard", "2/4", "--json", other, "--fix-wave64")
    for why, given in [("a missing shard", files[:3]), ("a shard given twice", files + files[:1]),
                       ("a shard of other options", [files[0], other] + files[2:])]:
        p = subprocess.run([r.tool, "merge-reports", *given, "--dry-run"], capture_output=True,
                           text=True)
        if p.returncode != 2 or "error:" not in p.stderr:
            failures.append("merge-reports with %s: exit %d, expected 2 with an error"
                            % (why, p.returncode))


def arguments(description):
    """--tool and --work, and the exit status when there are no CUDA headers
    to parse with (a failure under CI, else a skip), or None."""
    ap = argparse.ArgumentParser(description=description,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")
    if os.path.exists(os.path.join(cuda, "include", "cuda_runtime.h")):
        return args, None
    print("%s: no CUDA headers under %s, so nothing is parsed"
          % ("FAIL" if in_ci() else "skipped", cuda))
    return args, 1 if in_ci() else SKIP


def main():
    args, status = arguments(__doc__)
    if status is not None:
        return status
    if os.path.exists(args.work):
        shutil.rmtree(args.work)
    os.makedirs(args.work)
    tree = os.path.join(args.work, "tree")
    make_tree(tree)
    r = Runner(os.path.abspath(args.tool), args.work, tree)
    open(r.map, "w").write(USER_MAP)
    reference = r.cold()
    total = comparable(reference[1])[1]["parsed"]
    failures = []
    if total != 7:
        failures.append("%d units parsed, not the tree's 6 and its lonely header" % total)
    cache = os.path.join(args.work, "cache")
    try:
        shards(r, failures, total, reference)
        concurrent(r, failures, cache, reference)
        last = edits(r, cache, failures, total, reference)
        damage(r, cache, failures, total, last)
        pruned(r, cache, failures, total, last)
    except AssertionError as e:
        failures.append(str(e))
    return finish(failures, "reuse gives a cold run's output (%d units, %d runs)" % (total, r.count))


if __name__ == "__main__":
    sys.exit(main())
