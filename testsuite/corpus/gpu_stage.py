#!/usr/bin/env python3
"""Writes the stage that gpu_run.py builds and runs on an NVIDIA machine.

  gpu_stage.py --work W --results dev.json --out STAGE [--corpus DIR]

W is a `run_corpus.py --work W` folder (NAME-out/ is cu2dcu's output for
NAME-cuda/). The stage takes the benchmarks that are comparable on HIP's
NVIDIA path in the results file (their hand-written HIP twin compiles there,
as in the compile goal), copies each original and its translation, and the
compat headers. The stage is an input for the device only: put it in a
folder git ignores (it holds corpus code, which the repository never does).

Wave64 emulation (issue 29): with --wave64 the stage is for gpu_run.py
--wave64, which runs each benchmark's original, its translation, its
hand-written twin and (where --fix-wave64 changed it) its fixed translation,
the last three with the wave64 emulation headers. W holds the plain
translations, --fixed-work those made with --tool-arg=--fix-wave64 (each a
run_corpus.py --no-compile work folder, NAME.json being cu2dcu's report):

  python3 testsuite/corpus/run_corpus.py --no-compile --jobs 2 --only NAMES \\
      --work build/w64-work/plain --out build/w64-work/plain.json
  python3 testsuite/corpus/run_corpus.py --no-compile --jobs 2 --only NAMES \\
      --work build/w64-work/fixed --out build/w64-work/fixed.json --tool-arg=--fix-wave64
  python3 testsuite/corpus/gpu_stage.py --wave64 --work build/w64-work/plain \\
      --fixed-work build/w64-work/fixed --out .gpu-stage-w64

(`--out` of run_corpus.py matters: its default is the committed dev.json.)
`--print-selection` prints the NAMES to translate (comma-separated) and
stops. The selection: benchmarks NVIDIA-comparable in dev.json whose
original ran in gpu-dev.json (no-output ones last), warp-relevant ones
(their translation or twin uses a warp-level feature, WARP_FEATURES) first,
then by the original's earlier run time, fastest first. The stage:

  manifest.json                 mode "wave64", benchmarks (in that order), per
                                benchmark: warpRelevant, cudaSeconds, noOutput,
                                previousVerdict, fixesApplied, twinSiblings and
                                cudaSiblings (the ../X-cuda folders the twin or
                                the original names), w64Findings (id, severity,
                                file, line), runArgs (the arguments the
                                run uses instead of the Makefile's, from
                                wave64-small-inputs.json)
  cuda/NAME-cuda/               the original (and every ../X-cuda a twin or an
                                original names; gpu_run.py copies them beside
                                the twin, fixed and plain trees)
  translated/NAME-cuda/         the plain translation (and those of the
                                ../X-cuda an original names)
  fixed/NAME-cuda/              the --fix-wave64 translation, where a fix applied
  twin/NAME-hip/                the hand-written twin
  hip-nvidia-include/           plain compat headers
  hip-nvidia-wave64-include/    wave64 emulation headers (--hip-nvidia-wave64-include)
"""
import argparse
import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
RESULTS = os.path.join(REPO, "testsuite", "results", "corpus")
# Benchmarks the emulation runs with smaller arguments (the file says why).
with open(os.path.join(HERE, "wave64-small-inputs.json")) as _f:
    SMALL_INPUTS = json.load(_f)["runArgs"]
# Warp-level features: a benchmark whose translation or twin uses one is
# warp-relevant (run first: wave64 emulation changes what they compute).
WARP_FEATURES = re.compile(
    r"__shfl|__ballot|\b__(?:any|all)(?:_sync)?\b|__activemask|__lane_id|__lanemask|warpSize"
    r"|WARP_SIZE|__syncwarp|cu2dcu_syncwarp|tiled_partition|cooperative_groups"
    r"|hipDeviceAttributeWarpSize|__AMDGCN_WAVEFRONT_SIZE")
CODE_EXTS = (".cu", ".cuh", ".hip", ".h", ".hpp", ".hh", ".cpp", ".cc", ".cxx", ".c", ".inl",
             ".inc")
SIBLING = re.compile(r"\.\./([\w.+-]+-cuda)\b")
RAN = ("same", "differs", "translated-build", "translated-run")  # the original ran


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--work", required=True)
    ap.add_argument("--results", default=os.path.join(RESULTS, "dev.json"))
    ap.add_argument("--corpus", default=os.path.join(REPO, "..", "shared", "corpus", "hecbench"))
    ap.add_argument("--hip-nvidia-include", default=os.path.join(REPO, "build",
                                                                 "hip-nvidia-include"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--sm", default="90")
    ap.add_argument("--wave64", action="store_true", help="the four-way wave64 emulation stage")
    ap.add_argument("--fixed-work", help="--wave64: the --fix-wave64 translations' work folder")
    ap.add_argument("--gpu-results", default=os.path.join(RESULTS, "gpu-dev.json"),
                    help="--wave64: gpu_run.py's earlier results (which originals ran)")
    ap.add_argument("--hip-nvidia-wave64-include",
                    default=os.path.join(REPO, "build", "hip-nvidia-wave64-include"))
    ap.add_argument("--only", help="--wave64: comma-separated benchmark names")
    ap.add_argument("--force", action="store_true",
                    help="--wave64: stage the --only names even where they are not selected "
                         "(not NVIDIA-comparable by the front-end check, or never run)")
    ap.add_argument("--print-selection", action="store_true",
                    help="--wave64: print the selected names (comma-separated) and stop")
    return ap.parse_args(argv)


def load_records(path):
    with open(path) as f:
        return json.load(f)["benchmarks"]


def comparable(results_path):
    return [r["name"] for r in load_records(results_path)
            if r.get("compile", {}).get("nvidiaComparable")]


def check_includes(*folders):
    for folder in folders:
        if not os.path.isfile(os.path.join(folder, "hip", "hip_runtime.h")):
            sys.exit("gpu_stage.py: no compat headers in " + folder)


def check_translations(work, names):
    missing = [n for n in names if not os.path.isdir(os.path.join(work, n + "-out"))]
    if missing:
        sys.exit("gpu_stage.py: no translation in %s for %d benchmarks (%s ...)"
                 % (work, len(missing), ", ".join(missing[:3])))


def write_manifest(out, manifest):
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


def stage_plain(args):
    names = comparable(args.results)
    check_translations(args.work, names)
    check_includes(args.hip_nvidia_include)
    shutil.rmtree(args.out, ignore_errors=True)
    for name in names:
        shutil.copytree(os.path.join(args.corpus, name + "-cuda"),
                        os.path.join(args.out, "cuda", name + "-cuda"))
        shutil.copytree(os.path.join(args.work, name + "-out"),
                        os.path.join(args.out, "translated", name + "-cuda"))
    shutil.copytree(args.hip_nvidia_include, os.path.join(args.out, "hip-nvidia-include"))
    write_manifest(args.out, {"benchmarks": names, "sm": args.sm,
                              "selection": "nvidiaComparable in " + os.path.relpath(args.results, REPO)})
    print("staged %d benchmarks in %s" % (len(names), args.out))


# --- wave64 emulation stage --------------------------------------------------

def code_files(folder):
    for root, _, files in os.walk(folder):
        for f in sorted(files):
            if f.endswith(CODE_EXTS):
                yield os.path.join(root, f)


def uses_warp_features(*folders):
    for folder in folders:
        for path in code_files(folder):
            with open(path, errors="replace") as f:
                if WARP_FEATURES.search(f.read()):
                    return True
    return False


def candidates(gpu_records, dev_records):
    """{name: earlier gpu_run record} of the benchmarks NVIDIA-comparable in
    dev.json whose original ran in gpu-dev.json."""
    nvidia = {r["name"] for r in dev_records if r.get("compile", {}).get("nvidiaComparable")}
    return {r["name"]: r for r in gpu_records
            if r["name"] in nvidia and (r["verdict"] in RAN or r["verdict"] == "no-output")}


def selection(gpu_records, dev_records, warp_relevant, forced=()):
    """The benchmarks to run, in order: those whose original printed
    comparable output before those that printed only timings, each group
    warp-relevant first (warp_relevant(name) says), then fastest first.
    Forced names join as if their original had printed output."""
    entries = []
    chosen = candidates(gpu_records, dev_records)
    for name in forced:
        chosen.setdefault(name, {"verdict": None})
    for name, r in chosen.items():
        entries.append({"name": name, "warpRelevant": bool(warp_relevant(name)),
                        "cudaSeconds": r.get("cudaRun", {}).get("seconds"),
                        "noOutput": r["verdict"] == "no-output", "previousVerdict": r["verdict"]})
    return sorted(entries, key=lambda e: (e["noOutput"], not e["warpRelevant"],
                                          e["cudaSeconds"] if e["cudaSeconds"] is not None else 1e9,
                                          e["name"]))


def read_report(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {"diagnostics": []}


def applied_fixes(report):
    """Findings whose fix --fix-wave64 applied (not withheld)."""
    return sum(1 for d in report.get("diagnostics", [])
               if not d.get("fixWithheld") and any(f.get("applied") for f in d.get("fixes", [])))


def w64_findings(report):
    return [{"id": d["id"], "severity": d["severity"], "file": d["file"], "line": d["line"]}
            for d in report.get("diagnostics", []) if d["id"].startswith("W64-")]


def siblings(folder, corpus):
    """The X-cuda folders of the corpus that files of folder name as ../X-cuda
    (sources, headers, inputs), folder's own name aside."""
    found = set()
    for root, _, files in os.walk(folder):
        for f in files:
            with open(os.path.join(root, f), errors="replace") as fh:
                found.update(SIBLING.findall(fh.read()))
    found.discard(os.path.basename(folder))
    return sorted(s for s in found if os.path.isdir(os.path.join(corpus, s)))


def stage_benchmark(args, entry):
    """Copies one benchmark's folders into the stage; completes its entry."""
    name = entry["name"]
    copy = shutil.copytree
    copy(os.path.join(args.corpus, name + "-cuda"), os.path.join(args.out, "cuda", name + "-cuda"))
    copy(os.path.join(args.work, name + "-out"), os.path.join(args.out, "translated", name + "-cuda"))
    twin = os.path.join(args.corpus, name + "-hip")
    copy(twin, os.path.join(args.out, "twin", name + "-hip"))
    entry["twinSiblings"] = siblings(twin, args.corpus)
    entry["cudaSiblings"] = siblings(os.path.join(args.corpus, name + "-cuda"), args.corpus)
    entry["w64Findings"] = w64_findings(read_report(os.path.join(args.work, name + ".json")))
    entry["fixesApplied"] = applied_fixes(read_report(os.path.join(args.fixed_work, name + ".json")))
    small = SMALL_INPUTS.get(name)
    if small:
        entry["runArgs"] = small["args"]
    if entry["fixesApplied"]:
        copy(os.path.join(args.fixed_work, name + "-out"), os.path.join(args.out, "fixed", name + "-cuda"))


def stage_siblings(args, entries):
    """Originals a twin or an original needs beside it that are not staged
    as benchmarks (and their translations, for the original's translation)."""
    needed = {s: "cuda" for e in entries for s in e["twinSiblings"]}
    needed.update({s: "both" for e in entries for s in e["cudaSiblings"]})
    for sibling, trees in sorted(needed.items()):
        target = os.path.join(args.out, "cuda", sibling)
        if not os.path.isdir(target):
            shutil.copytree(os.path.join(args.corpus, sibling), target)
        translation = os.path.join(args.work, sibling[:-len("-cuda")] + "-out")
        target = os.path.join(args.out, "translated", sibling)
        if trees != "both" or os.path.isdir(target):
            continue
        if os.path.isdir(translation):
            shutil.copytree(translation, target)
        else:
            print("gpu_stage.py: no translation of %s in %s: translations that name it will "
                  "not build" % (sibling, args.work), file=sys.stderr)


def folder_bytes(folder):
    return sum(os.path.getsize(os.path.join(root, f))
               for root, _, files in os.walk(folder) for f in files)


def wave64_entries(args):
    gpu, dev = load_records(args.gpu_results), load_records(args.results)
    names = set(candidates(gpu, dev))
    forced = set(args.only.split(",")) if args.only and args.force else set()
    if args.only:
        names = (names | forced) & set(args.only.split(","))
    if args.print_selection:
        return [{"name": n} for n in sorted(names)]
    check_translations(args.work, sorted(names))
    relevant = lambda n: uses_warp_features(os.path.join(args.work, n + "-out"),
                                            os.path.join(args.corpus, n + "-hip"))
    return [e for e in selection(gpu, dev, relevant, forced) if e["name"] in names]


def stage_wave64(args):
    if not args.fixed_work and not args.print_selection:
        sys.exit("gpu_stage.py: --wave64 needs --fixed-work")
    entries = wave64_entries(args)
    if args.print_selection:
        print(",".join(e["name"] for e in entries))
        return
    check_translations(args.fixed_work, [e["name"] for e in entries])
    check_includes(args.hip_nvidia_include, args.hip_nvidia_wave64_include)
    shutil.rmtree(args.out, ignore_errors=True)
    for entry in entries:
        stage_benchmark(args, entry)
    stage_siblings(args, entries)
    shutil.copytree(args.hip_nvidia_include, os.path.join(args.out, "hip-nvidia-include"))
    shutil.copytree(args.hip_nvidia_wave64_include,
                    os.path.join(args.out, "hip-nvidia-wave64-include"))
    write_manifest(args.out, {
        "mode": "wave64", "sm": args.sm, "benchmarks": [e["name"] for e in entries],
        "records": {e["name"]: {k: v for k, v in e.items() if k != "name"} for e in entries},
        "selection": "nvidiaComparable in %s, original ran in %s" % (
            os.path.relpath(args.results, REPO), os.path.relpath(args.gpu_results, REPO))})
    print("staged %d benchmarks (%d warp-relevant, %d with fixes) in %s: %.1f MiB"
          % (len(entries), sum(e["warpRelevant"] for e in entries),
             sum(bool(e["fixesApplied"]) for e in entries), args.out,
             folder_bytes(args.out) / 2 ** 20))


def main(argv=None):
    args = parse_args(argv)
    (stage_wave64 if args.wave64 else stage_plain)(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
