#!/usr/bin/env python3
"""CI-scale measurements on the dev corpus (issue 32), in one run, as CPU
seconds of the processes and their children:

  cold       every *-cuda benchmark of the corpus in one run, empty cache
  warm       the same again: every unit reused
  edit       one unit edited (a line appended): that unit parsed again;
             its budget is a cold run of that unit alone, plus 0.2 s
  tree edits the same on each of the largest benchmark trees as a project of
             its own (cold with a cache, then one unit edited)
  shards     four --shard runs and their merge, against the cold run
  hipify     hipify-perl over the same CUDA files, a process per file, and
             one process for all of them (-inplace on a copy)

The corpus is copied to WORK first (the edit must not touch it). Outputs of
warm, edit-free and merged runs are compared with the cold run's byte for
byte, and the JSON reports apart from timing fields.

  scale_bench.py --tool build/tool/main/cu2dcu --corpus ../shared/corpus/hecbench \\
      --hipify-perl build/hip-6.4/usr/bin/hipify-perl --work /tmp/scale \\
      --out testsuite/results/ci-scale.json
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "testsuite", "bench"))
from pch_identical import tree_differences  # noqa: E402

CUDA_EXTENSIONS = (".cu", ".cuh", ".h", ".hpp", ".cpp", ".cc", ".c")


def timed(cmd, cwd=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p, round(cpu, 3), round(time.monotonic() - start, 3)


def comparable(path, out=None):
    """The report less timing fields and the run's own section, but with its
    build commands (the run's output folder written OUT); and its unit
    counts."""
    r = json.load(open(path))
    commands = [c.replace(out, "OUT") if out else c for c in r.pop("run")["buildCommands"]]
    r["statistics"].pop("seconds")
    units = r["statistics"].pop("units")
    for f in r["files"]:
        f.pop("cpuSeconds")
    r["buildCommands"] = commands
    return r, units


class Bench:
    def __init__(self, args, inputs):
        self.args, self.inputs = args, inputs
        self.cache = os.path.join(args.work, "cache")

    def run(self, name, *extra):
        out = os.path.join(self.args.work, "out-" + name)
        report = os.path.join(self.args.work, name + ".json")
        shutil.rmtree(out, ignore_errors=True)
        cmd = [self.args.tool, *self.inputs, "-o", out, "--json", report, "--fail-on=never",
               "--quiet", "-j%d" % self.args.jobs, *extra]
        p, cpu, wall = timed(cmd)
        if p.returncode not in (0, 1):
            sys.exit("%s: exit %d\n%s" % (name, p.returncode, p.stderr[-3000:]))
        print("%-8s %8.1f s cpu %8.1f s wall" % (name, cpu, wall), file=sys.stderr, flush=True)
        return {"out": out, "report": report, "cpu_s": cpu, "wall_s": wall}


def same_as(cold, run):
    diff = tree_differences(cold["out"], run["out"])
    a, _ = comparable(cold["report"], cold["out"])
    b, units = comparable(run["report"], run["out"])
    return {"output_identical": not diff, "differing_files": diff[:20],
            "report_identical": a == b, "units": units}


def hipify(args, tree):
    files = sorted(os.path.join(d, n) for d, _, ns in os.walk(tree) for n in ns
                   if n.endswith(CUDA_EXTENSIONS))
    out = os.path.join(args.work, "hipify-out")
    shutil.rmtree(out, ignore_errors=True)
    cpu_per_file = 0.0
    start = time.monotonic()
    for f in files:
        dest = os.path.join(out, os.path.relpath(f, tree))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        p, cpu, _ = timed(["perl", args.hipify_perl, "-quiet-warnings", "-o=" + dest, f])
        cpu_per_file += cpu
    per_file_wall = time.monotonic() - start
    copy = os.path.join(args.work, "hipify-inplace")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(tree, copy)
    copies = [os.path.join(copy, os.path.relpath(f, tree)) for f in files]
    p, cpu_one, wall_one = timed(["perl", args.hipify_perl, "-quiet-warnings", "-inplace", *copies])
    changed = sum(1 for f, c in zip(files, copies) if open(f, "rb").read() != open(c, "rb").read())
    return {"files": len(files), "process_per_file": {"cpu_s": round(cpu_per_file, 3),
                                                      "wall_s": round(per_file_wall, 3)},
            "one_process": {"cpu_s": cpu_one, "wall_s": wall_one, "rc": p.returncode,
                            "files_changed": changed}}


def largest_trees(tree, names, count=5):
    """The benchmarks with the most CUDA files."""
    def size(n):
        return sum(1 for _, _, fs in os.walk(os.path.join(tree, n)) for f in fs
                   if f.endswith(CUDA_EXTENSIONS))
    return sorted(names, key=lambda n: (-size(n), n))[:count]


def edit_tree(args, root):
    """One tree as a project of its own: a cold run fills a cache, then its
    median unit (by CPU) gets a line and the run is repeated; the budget is
    a cold run of that unit alone plus 0.2 s."""
    work = os.path.join(args.work, "tree-edits", os.path.basename(root))
    cache, report = os.path.join(work, "cache"), os.path.join(work, "cold.json")
    base = [args.tool, root, "--fail-on=never", "--quiet", "-j%d" % args.jobs, "--cache", cache]
    timed(base + ["-o", os.path.join(work, "cold"), "--json", report])
    parsed = sorted((f["cpuSeconds"], f["path"]) for f in json.load(open(report))["files"]
                    if f["cpuSeconds"] > 0 and not f["header"])
    unit = os.path.join(root, parsed[len(parsed) // 2][1])  # paths relative to the input
    original = open(unit, "rb").read()
    with open(unit, "ab") as f:
        f.write(b"\n// edited by scale_bench.py\n")
    _, cpu, _ = timed(base + ["-o", os.path.join(work, "edit")])
    _, alone, _ = timed([args.tool, unit, "--dry-run", "--no-cache", "--quiet", "--fail-on=never"])
    open(unit, "wb").write(original)
    files = sum(1 for _, _, fs in os.walk(root) for f in fs if f.endswith(CUDA_EXTENSIONS))
    return {"tree": os.path.basename(root), "files": files, "unit": os.path.relpath(unit, root),
            "cpu_s": cpu, "unit_alone_cold_cpu_s": alone, "budget_s": round(alone + 0.2, 3),
            "within_budget": cpu <= alone + 0.2}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--hipify-perl", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--every", type=int, default=1, help="take every Nth benchmark")
    args = ap.parse_args()
    args.tool = os.path.abspath(args.tool)
    shutil.rmtree(args.work, ignore_errors=True)
    tree = os.path.join(args.work, "tree")
    names = sorted(n for n in os.listdir(args.corpus) if n.endswith("-cuda"))[::args.every]
    for n in names:
        shutil.copytree(os.path.join(args.corpus, n), os.path.join(tree, n), symlinks=True)
    inputs = [os.path.join(tree, n) for n in names]
    b = Bench(args, inputs)
    version = subprocess.run([args.tool, "--version"], capture_output=True, text=True).stdout

    cold = b.run("cold", "--cache", b.cache)
    cold_report, cold_units = comparable(cold["report"])
    files = cold_report["statistics"]["files"]["total"]
    warm = b.run("warm", "--cache", b.cache)
    # The edited unit: the median of the parsed units by CPU.
    parsed = sorted((f["cpuSeconds"], f["path"]) for f in json.load(open(cold["report"]))["files"]
                    if f["cpuSeconds"] > 0 and not f["header"])
    unit_cpu, unit = parsed[len(parsed) // 2]
    unit_path = os.path.join(tree, unit)
    with open(unit_path, "a") as f:
        f.write("\n// edited by scale_bench.py\n")
    edit = b.run("edit", "--cache", b.cache)
    # What translating the edited unit costs by itself: a cold run of it alone.
    p, alone_cpu, _ = timed([args.tool, unit_path, "--dry-run", "--no-cache", "--quiet",
                             "--fail-on=never"])
    with open(unit_path, "rb+") as f:  # undone, so the shards see the cold run's tree
        data = f.read()
        f.seek(0)
        f.write(data[:-len(b"\n// edited by scale_bench.py\n")])
        f.truncate()
    shard_cpu = 0.0
    shard_files = []
    for k in range(1, 5):
        path = os.path.join(args.work, "shard%d.json" % k)
        p, cpu, wall = timed([args.tool, *inputs, "--shard", "%d/4" % k, "--json", path,
                              "--no-cache", "--quiet", "-j%d" % args.jobs])
        if p.returncode != 0:
            sys.exit("shard %d: exit %d\n%s" % (k, p.returncode, p.stderr[-2000:]))
        shard_cpu += cpu
        shard_files.append({"shard": k, "cpu_s": cpu, "wall_s": wall})
    merged_out = os.path.join(args.work, "out-merged")
    merged_report = os.path.join(args.work, "merged.json")
    p, merge_cpu, merge_wall = timed([args.tool, "merge-reports",
                                      *[os.path.join(args.work, "shard%d.json" % k) for k in range(1, 5)],
                                      "-o", merged_out, "--json", merged_report, "--no-cache",
                                      "--fail-on=never", "--quiet"])
    merged = {"out": merged_out, "report": merged_report}
    tree_edits = [edit_tree(args, os.path.join(tree, n)) for n in largest_trees(tree, names)]
    hip = hipify(args, tree)

    result = {
        "tool": version.strip(), "corpus": os.path.abspath(args.corpus),
        "benchmarks": len(names), "files": files, "jobs": args.jobs,
        "units_parsed_cold": cold_units["parsed"],
        "cold": {"cpu_s": cold["cpu_s"], "wall_s": cold["wall_s"],
                 "cpu_per_file_s": round(cold["cpu_s"] / files, 4),
                 "cpu_per_parsed_unit_s": round(cold["cpu_s"] / max(1, cold_units["parsed"]), 4)},
        "warm": dict(same_as(cold, warm), cpu_s=warm["cpu_s"], wall_s=warm["wall_s"],
                     cpu_ratio_to_cold=round(warm["cpu_s"] / cold["cpu_s"], 4)),
        "edit": {"unit": unit, "unit_cpu_in_cold_run_s": unit_cpu,
                 "unit_alone_cold_cpu_s": alone_cpu, "cpu_s": edit["cpu_s"],
                 "wall_s": edit["wall_s"], "budget_s": round(alone_cpu + 0.2, 3),
                 "units": comparable(edit["report"])[1]},
        "tree_edits": tree_edits,
        "shards": dict(same_as(cold, merged), count=4, shard_runs=shard_files,
                       shards_cpu_s=round(shard_cpu, 3), merge_cpu_s=merge_cpu,
                       merge_wall_s=merge_wall),
        "hipify_perl": hip,
        "ratios": {
            "cold_cpu_to_hipify_process_per_file": round(cold["cpu_s"] / hip["process_per_file"]["cpu_s"], 3),
            "cold_cpu_to_hipify_one_process": round(cold["cpu_s"] / hip["one_process"]["cpu_s"], 3),
        },
    }
    result["goals"] = {
        "warm_le_5pct_of_cold": result["warm"]["cpu_ratio_to_cold"] <= 0.05,
        "edit_le_unit_alone_plus_0.2s": edit["cpu_s"] <= alone_cpu + 0.2,
        "tree_edits_le_unit_alone_plus_0.2s": all(t["within_budget"] for t in tree_edits),
        "four_shards_equal_one_run": result["shards"]["output_identical"] and result["shards"]["report_identical"],
        "cold_cpu_per_file_le_0.30": result["cold"]["cpu_per_file_s"] <= 0.30,
        "cold_le_3x_hipify_per_file": result["ratios"]["cold_cpu_to_hipify_process_per_file"] <= 3,
        "cold_le_3x_hipify_one_process": result["ratios"]["cold_cpu_to_hipify_one_process"] <= 3,
    }
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print(json.dumps(result["goals"], indent=2))


if __name__ == "__main__":
    main()
