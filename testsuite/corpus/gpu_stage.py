#!/usr/bin/env python3
"""Writes the stage that gpu_run.py builds and runs on an NVIDIA machine.

  gpu_stage.py --work W --results dev.json --out STAGE [--corpus DIR]

W is a `run_corpus.py --work W` folder (NAME-out/ is cu2dcu's output for
NAME-cuda/). The stage takes the benchmarks that are comparable on HIP's
NVIDIA path in the results file (their hand-written HIP twin compiles there,
as in the compile goal), copies each original and its translation, and the
compat headers. The stage is an input for the device only: put it in a
folder git ignores (it holds corpus code, which the repository never does).
"""
import argparse
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--work", required=True)
    ap.add_argument("--results", default=os.path.join(REPO, "testsuite", "results", "corpus",
                                                      "dev.json"))
    ap.add_argument("--corpus", default=os.path.join(REPO, "..", "shared", "corpus", "hecbench"))
    ap.add_argument("--hip-nvidia-include", default=os.path.join(REPO, "build",
                                                                 "hip-nvidia-include"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--sm", default="90")
    return ap.parse_args(argv)


def comparable(results_path):
    with open(results_path) as f:
        records = json.load(f)["benchmarks"]
    return [r["name"] for r in records if r.get("compile", {}).get("nvidiaComparable")]


def main(argv=None):
    args = parse_args(argv)
    names = comparable(args.results)
    missing = [n for n in names if not os.path.isdir(os.path.join(args.work, n + "-out"))]
    if missing:
        sys.exit("gpu_stage.py: no translation in %s for %d benchmarks (%s ...)"
                 % (args.work, len(missing), ", ".join(missing[:3])))
    if not os.path.isfile(os.path.join(args.hip_nvidia_include, "hip", "hip_runtime.h")):
        sys.exit("gpu_stage.py: no compat headers in " + args.hip_nvidia_include)
    shutil.rmtree(args.out, ignore_errors=True)
    for name in names:
        shutil.copytree(os.path.join(args.corpus, name + "-cuda"),
                        os.path.join(args.out, "cuda", name + "-cuda"))
        shutil.copytree(os.path.join(args.work, name + "-out"),
                        os.path.join(args.out, "translated", name + "-cuda"))
    shutil.copytree(args.hip_nvidia_include, os.path.join(args.out, "hip-nvidia-include"))
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump({"benchmarks": names, "sm": args.sm,
                   "selection": "nvidiaComparable in " + os.path.relpath(args.results, REPO)},
                  f, indent=1)
    print("staged %d benchmarks in %s" % (len(names), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
