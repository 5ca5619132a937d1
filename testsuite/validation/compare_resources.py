#!/usr/bin/env python3
"""Compare the kernel resources of translated HIP samples with the hand-written ones.

  compare_resources.py --translated DIR --handwritten DIR [--arch gfx906 ...]
                       [--out build/validation/compare] [--hipcc hipcc]

Each DIR is either a sample tree (one folder per program, e.g. the output of
`cu2dcu samples-cuda -o out/`, or samples-hip/), which is then built with
hipcc for each arch by hip_resources.py, or a folder that already holds a
resources.json written by hip_resources.py.

Programs are matched by folder name, kernels by their unmangled name.

FAIL (exit 1), per arch:
  * a program builds by hand but the translated one fails to build;
  * a hand-written kernel has no translated kernel of the same name;
  * a translated kernel spills (VGPR/SGPR spills or scratch) where the
    hand-written one does not.
WARN (reported, exit 0): lower occupancy, more than 25% more VGPRs, a
different LDS size, extra translated kernels, programs skipped on both sides.

Writes OUT/compare.json and OUT/compare.md.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hip_resources  # noqa: E402


def load_or_build(d, out, archs, hipcc, label):
    if not os.path.isdir(d):
        raise SystemExit(f"compare_resources: {label} folder {d} does not exist")
    rj = os.path.join(d, "resources.json")
    if os.path.isfile(rj):
        with open(rj) as f:
            return json.load(f)
    print(f"compare_resources: building {label} samples from {d}")
    return hip_resources.collect(d, os.path.join(out, label), archs, hipcc, [])


def compare(trans, hand, archs=None):
    """Returns (rows, failures, warnings)."""
    rows, fails, warns = [], [], []
    for arch in archs or sorted(hand["archs"]):
        hp = hand["archs"].get(arch)
        tp = trans["archs"].get(arch)
        if hp is None:
            fails.append(f"{arch}: no hand-written resources")
            continue
        if tp is None:
            fails.append(f"{arch}: no translated resources")
            continue
        for prog, he in sorted(hp.items()):
            te = tp.get(prog)
            if te is None:
                fails.append(f"{arch} {prog}: no translated program")
                continue
            if he["status"] != "ok" or te["status"] != "ok":
                if he["status"] == "ok" and te["status"] == "failed":
                    fails.append(f"{arch} {prog}: translated build failed: {te.get('reason', '')}")
                elif te["status"] == "skipped" and he["status"] == "skipped":
                    warns.append(f"{arch} {prog}: skipped on both sides ({he.get('reason', '')})")
                else:
                    warns.append(f"{arch} {prog}: hand-written {he['status']}, "
                                 f"translated {te['status']}")
                continue
            for kname, hk in sorted(he["kernels"].items()):
                tk = te["kernels"].get(kname)
                row = {"arch": arch, "program": prog, "kernel": kname, "hand": hk,
                       "translated": tk, "verdict": "ok", "notes": []}
                rows.append(row)
                if tk is None:
                    row["verdict"] = "FAIL"
                    row["notes"].append("missing in translated")
                    fails.append(f"{arch} {prog} {kname}: missing in translated output")
                    continue
                if hip_resources.spills(tk) and not hip_resources.spills(hk):
                    row["verdict"] = "FAIL"
                    note = "translated spills (VGPR spill {}, SGPR spill {}, scratch {} B/lane)".format(
                        tk.get("vgpr_spill", 0), tk.get("sgpr_spill", 0), tk.get("scratch", 0))
                    row["notes"].append(note)
                    fails.append(f"{arch} {prog} {kname}: {note}; hand-written does not")
                ho, to = hk.get("occupancy"), tk.get("occupancy")
                if isinstance(ho, int) and isinstance(to, int) and to < ho:
                    row["notes"].append(f"occupancy {to} < {ho}")
                    warns.append(f"{arch} {prog} {kname}: occupancy {to} < hand-written {ho}")
                hv, tv = hk.get("vgprs"), tk.get("vgprs")
                if isinstance(hv, int) and isinstance(tv, int) and tv > hv * 1.25 + 4:
                    row["notes"].append(f"VGPRs {tv} vs {hv}")
                    warns.append(f"{arch} {prog} {kname}: {tv} VGPRs vs hand-written {hv}")
                if hk.get("lds") != tk.get("lds"):
                    row["notes"].append(f"LDS {tk.get('lds')} vs {hk.get('lds')}")
                    warns.append(f"{arch} {prog} {kname}: LDS {tk.get('lds')} B vs "
                                 f"hand-written {hk.get('lds')} B")
                if row["verdict"] == "ok" and row["notes"]:
                    row["verdict"] = "warn"
            for kname in sorted(set(te["kernels"]) - set(he["kernels"])):
                warns.append(f"{arch} {prog} {kname}: translated-only kernel")
    return rows, fails, warns


def to_markdown(rows, fails, warns):
    def f(k, key):
        return "" if k is None else str(k.get(key, ""))
    lines = ["# Translated vs hand-written HIP kernel resources", "",
             "| arch | program | kernel | VGPRs T/H | LDS T/H | spill T/H (VGPR+SGPR, scratch) "
             "| occupancy T/H | verdict |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        t, h = r["translated"], r["hand"]

        def sp(k):
            if k is None:
                return "-"
            return f"{(k.get('vgpr_spill', 0) or 0) + (k.get('sgpr_spill', 0) or 0)}, {k.get('scratch', 0)}"
        verdict = r["verdict"] + ("" if not r["notes"] else ": " + "; ".join(r["notes"]))
        lines.append(f"| {r['arch']} | {r['program']} | {r['kernel']} | {f(t, 'vgprs')}/{f(h, 'vgprs')} "
                     f"| {f(t, 'lds')}/{f(h, 'lds')} | {sp(t)} / {sp(h)} "
                     f"| {f(t, 'occupancy')}/{f(h, 'occupancy')} | {verdict} |")
    lines += ["", f"**{len(fails)} failure(s), {len(warns)} warning(s)**", ""]
    lines += [f"- FAIL: {x}" for x in fails] + [f"- warn: {x}" for x in warns]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--translated", required=True)
    ap.add_argument("--handwritten", required=True)
    ap.add_argument("--arch", action="append")
    ap.add_argument("--out", default="build/validation/compare")
    ap.add_argument("--hipcc", default=os.environ.get("HIPCC", "hipcc"))
    a = ap.parse_args()
    archs = a.arch or list(hip_resources.DEFAULT_ARCHS)
    os.makedirs(a.out, exist_ok=True)
    hand = load_or_build(a.handwritten, a.out, archs, a.hipcc, "handwritten")
    trans = load_or_build(a.translated, a.out, archs, a.hipcc, "translated")
    rows, fails, warns = compare(trans, hand, archs)
    with open(os.path.join(a.out, "compare.json"), "w") as f:
        json.dump({"rows": rows, "failures": fails, "warnings": warns}, f, indent=2)
    md = to_markdown(rows, fails, warns)
    with open(os.path.join(a.out, "compare.md"), "w") as f:
        f.write(md)
    for x in fails:
        print("FAIL:", x)
    for x in warns:
        print("warn:", x)
    print(f"compare_resources: {len(rows)} kernel(s) compared, {len(fails)} failure(s), "
          f"{len(warns)} warning(s); wrote {a.out}/compare.md")
    if not rows and not fails:
        print("compare_resources: nothing compared", file=sys.stderr)
        return 1
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
