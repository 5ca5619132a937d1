#!/usr/bin/env python3
"""The W64 reports' advice judged by behaviour: applied as written, it must work.

Translates advice_kernels.cu (one wave64 hazard or 32-lane design per check)
with cu2dcu, without fixes, and reads the findings from its JSON report. Each
W64 finding must have its recipe in advice_recipes.json, and each recipe its
finding, whose message must still say the recipe's `advice` words. The
recipes' edits, applied to the translation, give the advised program. The
CUDA original, the translation (plain) and the advised translation are built
with nvcc, the two translations against the wave64 emulation headers (HIP on
NVIDIA with AMD's 64-lane wavefronts); unless --build-only, they run on the
NVIDIA GPU:

  * advised   must print every line the original prints (the advice is a
              complete recipe: nothing it leaves out breaks the program);
  * plain     the translation with only the host's warp-size test dropped
              (HOST_TEST: otherwise it stops before any kernel runs): it
              must differ somewhere (or the advice fixed nothing);
  * partial   the advised translation without the recipe of one finding
              (LEFT_OUT): its kernel must differ, or this harness could not
              see advice that leaves something out;
  * plain64   the translation for HIP 6.4, its host test dropped: groupSums, consistent 32-lane
              groups in a unit whose other kernels work on whole wavefronts,
              gets masks that name its group (cu2dcu_group_mask), so its
              blocks of 96 threads (a half wavefront each) must not trap and
              must print the original's line;
  * widened64 plain64 with groupSums' masks widened to the whole wavefront's
              (cu2dcu_lane_mask, as for the other kernels, which is what a
              grouping of the whole unit gave): HIP's mask check must stop it
              (a trap), or it must differ there.

  advice_recipe.py --tool cu2dcu [--build-only | --run-only] [--work DIR] [--out FILE]

Exit 0 when all of that holds; 1 otherwise; 77 (skip) without nvcc or the HIP
headers, unless CI is set (then 1).
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "fixes"))
import fix_behaviour  # noqa: E402  (arguments, builds and runs of the wave64 harnesses)

SOURCE = os.path.join(HERE, "advice_kernels.cu")
RECIPES = os.path.join(HERE, "advice_recipes.json")
VARIANTS = ("original", "plain", "advised", "partial", "plain64", "widened64")
HOST_TEST = "W64-HOST-WARP-SIZE"
GROUPS_KERNEL, GROUP_MASK, WHOLE_MASK = "groupSums", "cu2dcu_group_mask(ALL_LANES)", "cu2dcu_lane_mask(ALL_LANES)"
# The recipe the partial variant leaves out, and the kernel that must then differ.
LEFT_OUT = (("W64-BALLOT-NARROW", 25), "positiveCount")


def translate(args, name="plain", extra=()):
    """A translation's text and its W64 findings."""
    out, report = os.path.join(args.work, name + ".cu"), os.path.join(args.work, name + ".json")
    proc = subprocess.run([args.tool, SOURCE, "-o", out, "--fail-on=never", "--json", report, *extra],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        sys.exit("advice_recipe: cu2dcu failed:\n" + proc.stdout[-2000:])
    with open(out) as f, open(report) as r:
        return f.read(), [d for d in json.load(r)["diagnostics"] if d["id"].startswith("W64-")]


def recipe_problems(recipes, findings):
    """Findings without a recipe, recipes without a finding, and advice no message says."""
    by_place = {(d["id"], d["line"]): d for d in findings}
    problems = [f"{key[0]} at line {key[1]}: a finding without a recipe ({d['message']})"
                for key, d in sorted(by_place.items())
                if not any((r["id"], r["line"]) == key for r in recipes)]
    for r in recipes:
        d = by_place.get((r["id"], r["line"]))
        if d is None:
            problems.append(f"{r['id']} at line {r['line']}: a recipe without a finding")
        elif r["advice"] not in d["message"]:
            problems.append(f"{r['id']} at line {r['line']}: the message no longer says "
                            f"'{r['advice']}': {d['message']}")
    return problems


def advised(plain, recipes):
    """The translation with every recipe's edits applied, or the problems found."""
    text, problems = plain, []
    for r in recipes:
        for e in r["edits"]:
            if text.count(e["from"]) != 1:
                problems.append(f"{r['id']} at line {r['line']}: '{e['from']}' occurs "
                                f"{text.count(e['from'])} times in the translation, not once")
                continue
            text = text.replace(e["from"], e["to"])
    return text, problems


def sources(args):
    with open(RECIPES) as f:
        recipes = json.load(f)["recipes"]
    translation, findings = translate(args)
    text, edit_problems = advised(translation, recipes)
    partial, _ = advised(translation, [r for r in recipes if (r["id"], r["line"]) != LEFT_OUT[0]])
    problems = recipe_problems(recipes, findings) + edit_problems
    host_test = [r for r in recipes if r["id"] == HOST_TEST]
    plain, _ = advised(translation, host_test)
    plain64, _ = advised(translate(args, "plain64", ["--hip-version=6.4"])[0], host_test)
    if plain64.count(GROUP_MASK) != 1:
        problems.append(f"the HIP 6.4 translation has {plain64.count(GROUP_MASK)} {GROUP_MASK}, not one")
    for p in problems:
        print("FAIL: " + p)
    programs = {"advised": text, "partial": partial, "plain": plain, "plain64": plain64,
                "widened64": plain64.replace(GROUP_MASK, WHOLE_MASK)}
    for name, program in programs.items():
        with open(os.path.join(args.work, name + ".cu"), "w") as f:
            f.write(program)
    with open(SOURCE) as src, open(os.path.join(args.work, "original.cu"), "w") as f:
        f.write(src.read())
    return not problems


def judge(args):
    printed, exits, differs = fix_behaviour.compare(args, VARIANTS)
    checks = {
        "original ran": exits["original"] == 0 and bool(printed["original"]),
        "advised prints the original's every line": exits["advised"] == 0 and not differs["advised"],
        "plain differs somewhere (advice to follow)": bool(differs["plain"]),
        "partial differs in " + LEFT_OUT[1]: LEFT_OUT[1] in differs["partial"],
        "plain64 prints the original's " + GROUPS_KERNEL: GROUPS_KERNEL not in differs["plain64"],
        "widened64 traps or differs in " + GROUPS_KERNEL:
            exits["widened64"] != 0 or GROUPS_KERNEL in differs["widened64"],
    }
    return all(checks.values()), {"printed": printed, "exit": exits, "differs": differs,
                                  "checks": checks}


def main(argv=None):
    return fix_behaviour.drive(argv, "advice_recipe", sources, judge, VARIANTS, "recipesHold")


if __name__ == "__main__":
    sys.exit(main())
