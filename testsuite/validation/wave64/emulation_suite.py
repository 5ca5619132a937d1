#!/usr/bin/env python3
"""The wave64 emulation's tests, and proof that they can fail.

Generates the wave64 headers (make-compat-headers.py --wave64), builds
emulation_test.cpp against them and against deliberately broken copies
(MUTANTS: each breaks one rule of AMD's semantics), then, unless
--build-only, runs them on the NVIDIA GPU:

  * the real emulation must pass every semantic case;
  * each trap case must end in a trap (an error, never a plausible answer);
  * every mutant must fail the semantic cases.

  emulation_suite.py [--build-only | --run-only] [--work DIR] [--out FILE] [--jobs N]

--run-only runs the builds a --build-only run left in --work (a GPU host
without HIP headers: build here, carry the work folder there).

Exit 0 when all of that holds; 1 otherwise; 77 (skip) without nvcc or the
HIP headers, unless CI is set (then 1). --out writes the outcome as JSON.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
TEST = os.path.join(HERE, "emulation_test.cpp")
TRAPS = ("coalesced", "late", "mask", "cuda-mask", "cuda-only")
CORE, OPS, CONFIG = "cu2dcu_wave64_core.h", "cu2dcu_wave64.h", "cu2dcu_wave64_config.h"

# name: (header, exact text, replacement) -- the rule each one breaks.
MUTANTS = {
    "inactive-lane-reads-own-value": (OPS, "? load(x.wave->data[lane64]) : 0u;",
                                      "? load(x.wave->data[lane64]) : 7u;"),
    "halves-never-meet": (OPS, "x.joint = partnerExists() && meet(w, g, site, x.active);",
                          "x.joint = 0 && partnerExists() && meet(w, g, site, x.active);"),
    "shfl-down-bound-off-by-one": (OPS, "return (int)((self & (width - 1)) + delta) >= width ? self : index;",
                                   "return (int)((self & (width - 1)) + delta) > width ? self : index;"),
    "ballot-halves-swapped": (OPS, "return half() == 0 ? (static_cast<unsigned long long>(partners) << 32) | mine",
                              "return half() == 1 ? (static_cast<unsigned long long>(partners) << 32) | mine"),
    "syncwarp-without-meeting": (OPS, '  finish(exchange(site, "__syncwarp", 0, 0));\n', "  (void)site;\n"),
    "warp-size-32": (CONFIG, "__cu2dcu_w64_warpSize = 64;", "__cu2dcu_w64_warpSize = 32;"),
    "later-line-goes-first": (CORE, "lineOf(theirs) > lineOf(site)", "lineOf(theirs) < lineOf(site)"),
    "barrier-not-counted": (CORE, "load(g.barriers[half()]) + 1u);", "load(g.barriers[half()]) + 0u);"),
    "lanemask-lt-unmasked": (OPS, "return ((1ull << lane()) - 1ull) & activemask(site);",
                             "return ((1ull << lane()) - 1ull) | (0 & activemask(site));"),
    "mask-check-skipped": (OPS, "  if (same != mask)\n", "  if (false && same != mask)\n"),
    "cuda-mask-unchecked": (OPS, "  if (!((mask >> halfLane()) & 1u))\n", "  if (false)\n"),
    "cuda-only-native": (OPS, '#define __match_any_sync(...) ::__cu2dcu_w64::cudaOnly("__match_any_sync")\n',
                         ""),
}


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-only", action="store_true")
    ap.add_argument("--run-only", action="store_true")
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "validation", "wave64"))
    ap.add_argument("--out")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--mutants", default="all", help="comma-separated names, 'all' or 'none'")
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"))
    ap.add_argument("--hip-src", default=os.environ.get("HIP_SRC", "/usr/include/hip"))
    return ap.parse_args(argv)


def generate(args, include):
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "hip-nvidia", "make-compat-headers.py"),
                    "--wave64", "--src", args.hip_src, "--out", include], check=True,
                   stdout=subprocess.DEVNULL)


def mutate(include, name):
    """A copy of the headers with one rule broken; the edit must match once."""
    header, old, new = MUTANTS[name]
    target = include + "-" + name
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(include, target)
    path = os.path.join(target, "hip", header)
    with open(path) as f:
        text = f.read()
    if text.count(old) != 1:
        sys.exit(f"emulation_suite: mutant {name}: expected one match of {old!r} in {header}")
    with open(path, "w") as f:
        f.write(text.replace(old, new))
    return target


def build(args, include, binary):
    cmd = [args.nvcc, "-x", "cu", "-arch=sm_90", "-O2", "-w", "-D__HIP_PLATFORM_NVIDIA__",
           "-isystem", include, TEST, "-o", binary]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return {"ok": proc.returncode == 0, "log": proc.stdout[-2000:] if proc.returncode else ""}


def run(binary, *argv, timeout=300, tail=3000):
    """(exit code or None on timeout, the last `tail` characters of the
    output, or all of it when tail is None)."""
    try:
        proc = subprocess.run([binary, *argv], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=timeout)
        out = proc.stdout
        code = proc.returncode
    except subprocess.TimeoutExpired as e:  # its output may come back as bytes
        out = e.stdout or ""
        out = out.decode(errors="replace") if isinstance(out, bytes) else out
        code = None
    return code, out if tail is None else out[-tail:]


def judge(args, binaries):
    """Runs the builds (several processes at a time on the one GPU); returns
    (all good, per-case outcome)."""
    jobs = []
    for name, binary in binaries.items():
        prefix = "" if name == "emulation" else "mutant-" + name + "/"
        jobs.append((prefix + "semantics", binary, ()))
        jobs += [(prefix + "trap-" + t, binary, ("trap-" + t,)) for t in TRAPS]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        runs = dict(zip([j[0] for j in jobs], pool.map(lambda j: run(j[1], *j[2]), jobs)))
    outcome = {}
    for name, (code, text) in runs.items():
        trap = name.rsplit("/", 1)[-1]
        passed = (code == 0 and trap + ": " in text and "no error" not in text
                  if trap.startswith("trap-") else code == 0)
        outcome[name] = {"exit": code, "passed": passed, "tail": text.strip().splitlines()[-3:]}
    good = all(o["passed"] for n, o in outcome.items() if not n.startswith("mutant-"))
    for name in binaries:
        if name != "emulation":  # a mutant is caught when one of its cases fails
            caught = not all(o["passed"] for n, o in outcome.items()
                             if n.startswith("mutant-" + name + "/"))
            outcome["mutant-" + name] = {"caught": caught}
            good &= caught
    return good, outcome


def build_all(args, names):
    """Headers, mutants and their builds: (ok, per-build result)."""
    include = os.path.join(args.work, "include")
    generate(args, include)
    includes = {"emulation": include}
    for name in MUTANTS:  # every mutant must still apply; only the chosen ones are built
        target = mutate(include, name)
        if name in names:
            includes[name] = target
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        builds = dict(zip(includes, pool.map(
            lambda item: build(args, item[1], os.path.join(args.work, "test-" + item[0])),
            includes.items())))
    for name, b in builds.items():
        if not b["ok"]:
            print(f"FAIL: build of {name}:\n{b['log']}")
    return all(b["ok"] for b in builds.values()), {n: b["ok"] for n, b in builds.items()}


def missing_toolchain(args):
    """None when nvcc and the HIP headers are there (or --run-only needs
    neither); else the exit code: a skip (77), a failure (1) under CI."""
    if args.run_only:
        return None
    missing = ("nvcc not found" if not (os.path.exists(args.nvcc) or shutil.which(args.nvcc)) else
               "no HIP headers at " + args.hip_src if not os.path.isdir(args.hip_src) else None)
    if not missing:
        return None
    print("SKIP: " + missing)
    return 1 if os.environ.get("CI", "") not in ("", "0", "false", "no") else 77


def finish(result, good, out):
    """Prints the outcome (and writes it to out): the exit code."""
    result["pass"] = good
    if out:
        with open(out, "w") as f:
            json.dump(result, f, indent=1)
    print(json.dumps(result, indent=1))
    return 0 if good else 1


def main(argv=None):
    args = parse_args(argv)
    code = missing_toolchain(args)
    if code is not None:
        return code
    os.makedirs(args.work, exist_ok=True)
    names = (list(MUTANTS) if args.mutants == "all" else
             [] if args.mutants == "none" else args.mutants.split(","))
    result, good = {}, True
    if not args.run_only:
        good, result["builds"] = build_all(args, names)
    if not args.build_only and good:
        binaries = {n: os.path.join(args.work, "test-" + n) for n in ["emulation"] + names}
        good, result["runs"] = judge(args, binaries)
    return finish(result, good, args.out)


if __name__ == "__main__":
    sys.exit(main())
