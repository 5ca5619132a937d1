#!/usr/bin/env python3
"""Plots from a GPU run's report.json (testsuite/validation/report.py).

  plot_results.py REPORT_JSON [--out DIR]

Writes DIR/sgemm_ladder.png (GFLOP/s per SGEMM kernel and variant, cuBLAS as a
line) and DIR/vector_add_stride.png (effective GB/s of vector_add's strided
kernel against stride, memcpy_d2d as a line).  Needs matplotlib; exits 77 when
it is missing (run it where it is installed, e.g. with the returned JSON).
"""
import argparse
import json
import os
import sys

COLORS = {"cuda": "#76b900", "hip": "#ed1c24", "translated": "#1f77b4"}
STYLES = {"cuda": ("o", "-"), "hip": ("s", "--"), "translated": ("^", ":")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--out")
    a = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_results: matplotlib not installed; no plots", file=sys.stderr)
        return 77
    with open(a.report) as f:
        rep = json.load(f)
    out = a.out or os.path.dirname(os.path.abspath(a.report))
    os.makedirs(out, exist_ok=True)
    variants = [v for v in rep["variants"] if v != "cuda-rerun"]
    written = []

    rows = [r for r in rep["rows"] if r["program"] == "sgemm"]
    if rows:
        fig, ax = plt.subplots(figsize=(8, 4.5))
        w = 0.8 / len(variants)
        for i, v in enumerate(variants):
            xs = [j + i * w for j in range(len(rows))]
            ys = [r["variants"].get(v, {}).get("rate") or 0 for r in rows]
            ax.bar(xs, ys, w, label=v, color=COLORS.get(v))
        if rep.get("cublas_gflops"):
            ax.axhline(rep["cublas_gflops"], color="k", ls="--",
                       label=f"cuBLAS {rep['cublas_gflops']:.0f}")
        ax.set_xticks([j + 0.4 - w / 2 for j in range(len(rows))])
        ax.set_xticklabels([r["kernel"] for r in rows], rotation=15)
        ax.set_ylabel("GFLOP/s (median)")
        ax.set_title(f"SGEMM ladder, {rep['device']}")
        ax.legend()
        fig.tight_layout()
        p = os.path.join(out, "sgemm_ladder.png")
        fig.savefig(p, dpi=120)
        written.append(p)

    rows = sorted((r for r in rep["rows"] if r["program"] == "vector_add" and "stride" in r),
                  key=lambda r: r["stride"])
    if rows:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for v in variants:
            pts = [(r["stride"], r["variants"][v]["rate"]) for r in rows if v in r["variants"]]
            if pts:
                mk, ls = STYLES.get(v, ("o", "-"))
                ax.plot(*zip(*pts), marker=mk, ls=ls, mfc="none", label=v, color=COLORS.get(v))
        lim = next((r["variants"].get("cuda", {}).get("rate") for r in rep["rows"]
                    if r["program"] == "vector_add" and r["kernel"] == "memcpy_d2d"), None)
        if lim:
            ax.axhline(lim, color="k", ls="--", label=f"D2D copy {lim:.0f} GB/s")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("stride (floats between consecutive threads)")
        ax.set_ylabel("effective GB/s (3 x 4 B per element)")
        ax.set_ylim(bottom=0)
        ax.set_title(f"vector_add effective bandwidth vs stride, {rep['device']}")
        ax.legend()
        fig.tight_layout()
        p = os.path.join(out, "vector_add_stride.png")
        fig.savefig(p, dpi=120)
        written.append(p)
    for p in written:
        print("plot_results: wrote", p)
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main())
