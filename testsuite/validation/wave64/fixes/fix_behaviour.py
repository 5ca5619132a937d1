#!/usr/bin/env python3
"""--fix-wave64 judged by behaviour: fixes must keep a program right at 64 lanes.

Translates fix_kernels.cu (CUDA kernels written for 32-lane warps) with cu2dcu,
without and with --fix-wave64, builds the CUDA original with nvcc and each
translation with the wave64 emulation headers (HIP on NVIDIA with AMD's
64-lane wavefronts), then, unless --build-only, runs them on the NVIDIA GPU and
compares each printed result line with the original's:

  * fixed     every line must be the original's (a fix never makes a program
              wrong, and where it applies the program is right at 64 lanes);
  * plain     the translation without fixes: the lines it gets wrong are the
              wave64 hazards (at least one must differ, or the fixes prove nothing);
  * partial   the fixed translation with its lane strides and last-lane
              guards put back to 32 (the partial fixes --fix-wave64 made before
              lane strides, strides over a lane spelled tid - (warp << 5), and
              the guards `lane + d <= 31` and `lane + 1 >= 32`, were findings):
              each of their kernels must differ, or this harness could not see
              a wrong fix.

  fix_behaviour.py --tool cu2dcu [--build-only | --run-only] [--work DIR] [--out FILE]

--run-only runs what a --build-only run left in --work (a GPU host without HIP
headers). Exit 0 when all of that holds; 1 otherwise; 77 (skip) without nvcc
or the HIP headers, unless CI is set (then 1).
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import emulation_suite  # noqa: E402  (header generation and runs)

SOURCE = os.path.join(HERE, "fix_kernels.cu")
# The lane strides and last-lane guards, as --fix-wave64 writes them and as a partial fix left them,
# with the kernel each is in.
WIDENED = (("c += warpSize", "c += 32", "rowSumsMixed"),
           ("lane + d <= warpSize - 1", "lane + d <= 31", "blockSuffixSums"),
           ("lane + 1 >= warpSize", "lane + 1 >= 32", "blockPrefixTotals"))
VARIANTS = ("original", "plain", "fixed", "partial")


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", help="cu2dcu (not needed with --run-only)")
    ap.add_argument("--build-only", action="store_true")
    ap.add_argument("--run-only", action="store_true")
    ap.add_argument("--work", default=os.path.join(emulation_suite.ROOT, "build", "validation",
                                                   "wave64-fixes"))
    ap.add_argument("--out")
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", shutil.which("nvcc") or
                                                     "/usr/local/cuda/bin/nvcc"))
    ap.add_argument("--hip-src", default=os.environ.get("HIP_SRC", "/usr/include/hip"))
    return ap.parse_args(argv)


def translate(args, extra, out):
    proc = subprocess.run([args.tool, SOURCE, "-o", out, "--fail-on=never", *extra],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        sys.exit("fix_behaviour: cu2dcu failed:\n" + proc.stdout[-2000:])
    with open(out) as f:
        return f.read()


def sources(args):
    """The four programs' sources in --work."""
    plain = translate(args, [], os.path.join(args.work, "plain.cu"))
    fixed = translate(args, ["--fix-wave64"], os.path.join(args.work, "fixed.cu"))
    partial = fixed
    for as_fixed, as_partial, _ in WIDENED:
        if fixed.count(as_fixed) != 1:
            sys.exit(f"fix_behaviour: the fixed translation has {fixed.count(as_fixed)} "
                     f"'{as_fixed}', expected one")
        partial = partial.replace(as_fixed, as_partial)
    with open(os.path.join(args.work, "partial.cu"), "w") as f:
        f.write(partial)
    shutil.copy(SOURCE, os.path.join(args.work, "original.cu"))
    return plain != fixed


def build_all(args, names=VARIANTS):
    include = os.path.join(args.work, "include")
    emulation_suite.generate(args, include)
    results = {}
    for name in names:
        cmd = [args.nvcc, "-x", "cu", "-arch=sm_90", "-O2", "-w",
               os.path.join(args.work, name + ".cu"), "-o", os.path.join(args.work, "bin-" + name)]
        if name != "original":
            cmd[5:5] = ["-D__HIP_PLATFORM_NVIDIA__", "-isystem", include]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        results[name] = proc.returncode == 0
        if proc.returncode:
            print(f"FAIL: build of {name}:\n{proc.stdout[-2000:]}")
    return all(results.values()), results


def lines_of(output):
    """{kernel: result} from the lines `NAME VALUE` a program prints."""
    found = {}
    for line in output.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].isidentifier():
            found[parts[0]] = parts[1]
    return found


def compare(args, names):
    """Runs each built program (names[0] is the original): what each printed,
    its exit code, and the result lines where each other one differs."""
    # All of the output: an emulation trap's messages can outnumber the result lines.
    runs = {name: emulation_suite.run(os.path.join(args.work, "bin-" + name), tail=None)
            for name in names}
    printed = {name: lines_of(text) for name, (code, text) in runs.items()}
    exits = {name: code for name, (code, _) in runs.items()}
    original = printed[names[0]]
    differs = {name: sorted(k for k in original if printed[name].get(k) != original[k])
               for name in names[1:]}
    return printed, exits, differs


def judge(args):
    printed, exits, differs = compare(args, VARIANTS)
    original = printed["original"]
    checks = {
        "original ran": exits["original"] == 0 and bool(original),
        "fixed prints the original's every line": exits["fixed"] == 0 and not differs["fixed"],
        "plain differs somewhere (a hazard to fix)": bool(differs["plain"]),
    }
    for _, _, kernel in WIDENED:
        checks["partial fix differs in " + kernel] = kernel in differs["partial"]
    return all(checks.values()), {"printed": printed, "exit": exits, "differs": differs,
                                  "checks": checks}


def drive(argv, program, sources_of, judge_of, names, sources_key):
    """The harnesses' main: build (--build-only), run (--run-only) or both."""
    args = parse_args(argv)
    code = emulation_suite.missing_toolchain(args)
    if code is not None:
        return code
    if not args.run_only and not args.tool:
        sys.exit(f"{program}: --tool is required unless --run-only")
    os.makedirs(args.work, exist_ok=True)
    result, good = {}, True
    if not args.run_only:
        result[sources_key] = sources_of(args)
        built, result["builds"] = build_all(args, names)
        good = built and result[sources_key]
    if not args.build_only and good:
        good, result["runs"] = judge_of(args)
    return emulation_suite.finish(result, good, args.out)


def main(argv=None):
    return drive(argv, "fix_behaviour", sources, judge, VARIANTS, "fixesApplied")


if __name__ == "__main__":
    sys.exit(main())
