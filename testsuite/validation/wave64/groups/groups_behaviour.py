#!/usr/bin/env python3
"""Consistent 32-lane groups judged by behaviour: right at 64 lanes as written.

Translates group_kernels.cu (kernels built on consistent 32-lane groups) with
cu2dcu --fix-wave64, builds the CUDA original with nvcc and the translation with
the wave64 emulation headers (HIP on NVIDIA with AMD's 64-lane wavefronts),
then, unless --build-only, runs them on the NVIDIA GPU:

  * ported    the translation as cu2dcu writes it: the W64 findings are notes
              and --fix-wave64 applies none, so it must print every line the
              original prints;
  * halfway   the advice cu2dcu gave before it knew such groups (start the
              reductions at warpSize / 2, nothing else): it must differ, or
              this harness could not see the advice break the program;
  * ported64  the translation for HIP 6.4, whose shuffle masks name the
              caller's 32-lane group (cu2dcu_group_mask): it must print every
              line the original prints, a block of 48 threads included;
  * widened64 the same with the whole-wavefront mask cu2dcu wrote before
              (0xffffffffffffffffull): HIP's mask check must stop it (a trap)
              or it must differ, or the harness could not see a bad mask.

  groups_behaviour.py --tool cu2dcu [--build-only | --run-only] [--work DIR] [--out FILE]

Exit 0 when all of that holds; 1 otherwise; 77 (skip) without nvcc or the HIP
headers, unless CI is set (then 1).
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "fixes"))
sys.path.insert(0, os.path.dirname(HERE))
import fix_behaviour  # noqa: E402  (arguments, builds, result lines)

SOURCE = os.path.join(HERE, "group_kernels.cu")
OFFSETS = (("o = GROUP / 2", "o = warpSize / 2"), ("o = 16", "o = warpSize / 2"))
VARIANTS = ("original", "ported", "halfway", "ported64", "widened64")
GROUP_MASK, WHOLE_MASK = "cu2dcu_group_mask(0xffffffff)", "0xffffffffffffffffull"


def translate(args, name, extra):
    out = os.path.join(args.work, name + ".cu")
    proc = subprocess.run([args.tool, SOURCE, "-o", out, "--fix-wave64", "--fail-on=never", *extra],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        sys.exit("groups_behaviour: cu2dcu failed:\n" + proc.stdout[-2000:])
    with open(out) as f:
        return f.read()


def sources(args):
    """The programs' sources in --work; whether the translations kept every 32
    (and the HIP 6.4 one wrote group masks)."""
    ported = translate(args, "ported", [])
    ported64 = translate(args, "ported64", ["--hip-version=6.4"])
    if GROUP_MASK not in ported64:
        sys.exit(f"groups_behaviour: the HIP 6.4 translation has no '{GROUP_MASK}'")
    with open(os.path.join(args.work, "widened64.cu"), "w") as f:
        f.write(ported64.replace(GROUP_MASK, WHOLE_MASK))
    halfway = ported
    for old, new in OFFSETS:
        if old not in halfway:
            sys.exit(f"groups_behaviour: the translation has no '{old}'")
        halfway = halfway.replace(old, new)
    with open(os.path.join(args.work, "halfway.cu"), "w") as f:
        f.write(halfway)
    shutil.copy(SOURCE, os.path.join(args.work, "original.cu"))
    return "warpSize" not in ported + ported64


def judge(args):
    printed, exits, differs = fix_behaviour.compare(args, VARIANTS)
    original = printed["original"]
    checks = {
        "original ran": exits["original"] == 0 and len(original) == 2,
        "ported prints the original's every line": exits["ported"] == 0 and not differs["ported"],
        "halfway advice differs": bool(differs["halfway"]),
        "ported64 prints the original's every line":
            exits["ported64"] == 0 and not differs["ported64"],
        "widened64 traps or differs": exits["widened64"] != 0 or bool(differs["widened64"]),
    }
    return all(checks.values()), {"printed": printed, "exit": exits, "differs": differs,
                                  "checks": checks}


def main(argv=None):
    return fix_behaviour.drive(argv, "groups_behaviour", sources, judge, VARIANTS, "keptEvery32")


if __name__ == "__main__":
    sys.exit(main())
