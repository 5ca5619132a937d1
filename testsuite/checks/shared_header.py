#!/usr/bin/env python3
"""--fix-wave64 never edits a shared header for one unit alone.

  shared_header.py --tool cu2dcu --case testsuite/checks/shared-header

The case folder holds reduce.cuh (a reduction from offset 16) and two units
that include it: a.cu, whose lane grouping has safe fixes, and b.cu, whose
half-warp test has none. Ported together, neither the header nor a.cu may be
changed, and the header's finding must say why (fixWithheld, JSON report).
Ported alone, a.cu and the header are fixed (the control: the harness can see
a fix). Exit 0 when both hold.
"""
import argparse, json, os, shutil, subprocess, sys, tempfile


def port(tool, inputs, tmp, name):
    out, report = os.path.join(tmp, name), os.path.join(tmp, name + ".json")
    p = subprocess.run([tool, *inputs, "-o", out, "--fix-wave64", "--fail-on=never", "--quiet",
                        "--json", report], capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(report):
        sys.exit("FAIL: cu2dcu failed (%d): %s" % (p.returncode, p.stderr))
    with open(report) as f:
        return out, json.load(f)["diagnostics"]


def read(path):
    with open(path) as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--case", required=True)
    a = ap.parse_args()
    failures = []
    with tempfile.TemporaryDirectory(prefix="shared-header-") as tmp:
        both = os.path.join(tmp, "both")
        shutil.copytree(a.case, both)
        out, diagnostics = port(a.tool, [both], tmp, "out-both")
        if "warpSize" in read(os.path.join(out, "reduce.cuh")) + read(os.path.join(out, "a.cu")):
            failures.append("ported together, reduce.cuh or a.cu was fixed for a.cu alone")
        withheld = [d.get("fixWithheld", "") for d in diagnostics
                    if os.path.basename(d["file"]) == "reduce.cuh" and d["id"].startswith("W64-")]
        if not any("shared with" in w for w in withheld):
            failures.append("the header's finding does not say why its fix was withheld: %r"
                            % withheld)
        alone = os.path.join(tmp, "alone")
        os.makedirs(alone)
        for name in ("a.cu", "reduce.cuh"):
            shutil.copy(os.path.join(a.case, name), alone)
        out, _ = port(a.tool, [alone], tmp, "out-alone")
        if "warpSize" not in read(os.path.join(out, "reduce.cuh")):
            failures.append("control: a.cu ported alone did not fix its header")
    if failures:
        sys.exit("FAIL: " + "\n  ".join(failures))
    print("ok")


if __name__ == "__main__":
    main()
