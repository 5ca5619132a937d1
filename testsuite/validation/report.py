#!/usr/bin/env python3
"""Merge the per-program JSON files of a GPU run into one report.

  report.py --results DIR [--out DIR] [--strict] [--ratio-tol 0.05] [--copy-tol 0.90]

DIR holds files named <variant>.<program>.json as written by the samples'
--json option, with variant one of
  cuda        the CUDA original (samples-cuda), nvcc
  hip         the hand-written HIP port (samples-hip)
  translated  the translator's output of samples-cuda
  cuda-rerun  the CUDA original run a second time (run-to-run noise)
Extra files DIR/<variant>.<program>.status may hold "skipped: reason" or
"failed: reason" for programs that were not built or did not run.

Writes OUT/report.json and OUT/report.md (OUT defaults to DIR) with, per
kernel: median and min time per variant, GB/s or GFLOP/s, the time ratios
hip/cuda and translated/hip, and the percentage of a device limit measured in
the same run (memcpy_d2d of the same program and variant for memory-bound
kernels; the CUDA cuBLAS run for SGEMM).

Exit status 1 if any verified kernel FAILed, a program failed, or a variant is
missing a kernel the CUDA original has; with --strict also if a performance
check misses (best vector_add variant >= copy-tol x memcpy_d2d; hip/cuda and
translated/hip time ratios within 1 +- ratio-tol).
"""
import argparse
import glob
import json
import os
import sys

VARIANTS = ["cuda", "hip", "translated", "cuda-rerun"]


def load(results):
    runs, status = {}, {}
    for path in sorted(glob.glob(os.path.join(results, "*.json"))):
        base = os.path.basename(path)[:-5]
        if "." not in base:
            continue
        variant, program = base.split(".", 1)
        if variant not in VARIANTS:
            continue
        with open(path) as f:
            runs[(variant, program)] = json.load(f)
    for path in sorted(glob.glob(os.path.join(results, "*.status"))):
        variant, program = os.path.basename(path)[:-7].split(".", 1)
        with open(path) as f:
            status[(variant, program)] = f.read().strip()
    return runs, status


def rate(r):
    if "gflops" in r:
        return r["gflops"], "GFLOP/s"
    if "gbps" in r:
        return r["gbps"], "GB/s"
    return None, ""


def build(runs, status, ratio_tol=0.05, copy_tol=0.90):
    programs = sorted({p for (_, p) in runs} | {p for (_, p) in status})
    variants = [v for v in VARIANTS if any(k[0] == v for k in runs)]
    blas = None
    cb = runs.get(("cuda", "sgemm_blas"))
    if cb:
        for r in cb["results"]:
            if r["name"] == "blas":
                blas = r.get("gflops")
    rows, failures, checks, notes = [], [], [], []
    device = next((j.get("device") for j in runs.values()), "?")
    for (v, p), s in sorted(status.items()):
        if s.startswith("failed"):
            failures.append(f"{v} {p}: {s}")
        else:
            notes.append(f"{v} {p}: {s}")
    for prog in programs:
        by_v = {v: {r["name"]: r for r in runs[(v, prog)]["results"]}
                for v in variants if (v, prog) in runs}
        names = []
        for v in variants:
            for n in by_v.get(v, {}):
                if n not in names:
                    names.append(n)
        limit = {v: by_v[v]["memcpy_d2d"]["gbps"] for v in by_v if "memcpy_d2d" in by_v[v]}
        for name in names:
            row = {"program": prog, "kernel": name, "variants": {}}
            for v, ks in by_v.items():
                r = ks.get(name)
                if r is None:
                    if v != "cuda-rerun" and name in by_v.get("cuda", {}) and \
                            not status.get((v, prog), "").startswith("skipped"):
                        failures.append(f"{v} {prog}: kernel {name} missing")
                    continue
                val, unit = rate(r)
                e = {"median_ms": r["median_ms"], "min_ms": r["min_ms"], "rate": val,
                     "unit": unit, "pass": r.get("pass")}
                if unit == "GB/s" and v in limit and not r.get("reference"):
                    e["pct_limit"] = 100.0 * val / limit[v]
                    e["limit"] = "memcpy_d2d"
                elif unit == "GFLOP/s" and blas and name != "blas":
                    e["pct_limit"] = 100.0 * val / blas
                    e["limit"] = "cuBLAS"
                if "stride" in r:
                    row["stride"] = r["stride"]
                if r.get("reference"):
                    row["reference"] = True
                row["variants"][v] = e
                if r.get("pass") is False:
                    failures.append(f"{v} {prog} {name}: verification FAIL "
                                    f"(max err {r.get('max_err')}, tol {r.get('tol')})")
            vs = row["variants"]
            if "cuda" in vs and "hip" in vs:
                row["hip_over_cuda"] = vs["hip"]["median_ms"] / vs["cuda"]["median_ms"]
            if "translated" in vs and "hip" in vs:
                row["translated_over_hip"] = vs["translated"]["median_ms"] / vs["hip"]["median_ms"]
            if "cuda" in vs and "cuda-rerun" in vs:
                row["rerun_over_cuda"] = vs["cuda-rerun"]["median_ms"] / vs["cuda"]["median_ms"]
            rows.append(row)

    # checks
    for v in variants:
        if v == "cuda-rerun":
            continue
        va = [r for r in rows if r["program"] == "vector_add" and v in r["variants"]]
        lim = next((r["variants"][v]["rate"] for r in va if r["kernel"] == "memcpy_d2d"), None)
        cand = [r for r in va if not r.get("reference")]
        if lim and cand:
            best = max(cand, key=lambda r: r["variants"][v]["rate"])
            frac = best["variants"][v]["rate"] / lim
            checks.append({"check": f"{v}: best vector_add variant >= {copy_tol:.0%} of memcpy_d2d",
                           "ok": frac >= copy_tol,
                           "detail": f"{best['kernel']} {best['variants'][v]['rate']:.0f} GB/s = "
                                     f"{frac:.1%} of {lim:.0f} GB/s"})
    for key, label in (("hip_over_cuda", "hand-written HIP / CUDA"),
                       ("translated_over_hip", "translated / hand-written HIP")):
        rs = [r for r in rows if key in r]
        if not rs:
            continue
        out = [r for r in rs if abs(r[key] - 1) > ratio_tol]
        detail = ", ".join(f"{r['program']}/{r['kernel']} {r[key]:.3f}" for r in out) or \
            f"all {len(rs)} within"
        checks.append({"check": f"{label} time ratio within 1 +- {ratio_tol:.0%}",
                       "ok": not out, "detail": detail})
    rr = [r["rerun_over_cuda"] for r in rows if "rerun_over_cuda" in r]
    if rr:
        notes.append("run-to-run noise (CUDA rerun / CUDA, median time): "
                     f"{min(rr):.3f} .. {max(rr):.3f}")
    return {"device": device, "variants": variants, "rows": rows, "failures": failures,
            "checks": checks, "notes": notes, "cublas_gflops": blas}


def fmt(x, f="{:.3f}"):
    return "" if x is None else f.format(x)


def to_markdown(rep):
    vs = [v for v in rep["variants"] if v != "cuda-rerun"]
    lines = [f"# GPU validation report: {rep['device']}", ""]
    head = "| program | kernel | " + " | ".join(f"{v} median ms" for v in vs) + \
        " | " + " | ".join(f"{v} rate" for v in vs) + " | % of limit (" + ", ".join(vs) + \
        ") | HIP/CUDA | translated/HIP | pass |"
    lines += [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rep["rows"]:
        v = r["variants"]
        times = " | ".join(fmt(v[x]["median_ms"], "{:.4f}") if x in v else "-" for x in vs)
        rates = " | ".join(f"{v[x]['rate']:.1f} {v[x]['unit']}" if x in v and v[x]["rate"]
                           else "-" for x in vs)
        pct = ", ".join(f"{v[x]['pct_limit']:.1f}%" if x in v and "pct_limit" in v[x] else "-"
                        for x in vs)
        lim = next((v[x]["limit"] for x in vs if x in v and "limit" in v[x]), "")
        passes = "/".join({True: "PASS", False: "FAIL", None: "n/a"}[v[x]["pass"]]
                          for x in vs if x in v)
        lines.append(f"| {r['program']} | {r['kernel']} | {times} | {rates} | {pct}"
                     f"{' of ' + lim if lim else ''} | {fmt(r.get('hip_over_cuda'))} | "
                     f"{fmt(r.get('translated_over_hip'))} | {passes} |")
    lines += ["", "## Checks", ""]
    for c in rep["checks"]:
        lines.append(f"- {'OK' if c['ok'] else 'MISS'}: {c['check']}: {c['detail']}")
    if rep["failures"]:
        lines += ["", "## Failures", ""] + [f"- {f}" for f in rep["failures"]]
    if rep["notes"]:
        lines += ["", "## Notes", ""] + [f"- {n}" for n in rep["notes"]]
    if rep.get("cublas_gflops"):
        lines.append(f"- SGEMM limit: cuBLAS {rep['cublas_gflops']:.0f} GFLOP/s (same run)")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description="merge sample JSON into one report")
    ap.add_argument("--results", required=True)
    ap.add_argument("--out")
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--ratio-tol", type=float, default=0.05)
    ap.add_argument("--copy-tol", type=float, default=0.90)
    a = ap.parse_args()
    out = a.out or a.results
    runs, status = load(a.results)
    if not runs:
        print(f"report: no <variant>.<program>.json under {a.results}", file=sys.stderr)
        return 1
    rep = build(runs, status, a.ratio_tol, a.copy_tol)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "report.json"), "w") as f:
        json.dump(rep, f, indent=2)
    md = to_markdown(rep)
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(md)
    print(md)
    missed = [c for c in rep["checks"] if not c["ok"]]
    if rep["failures"]:
        print(f"report: {len(rep['failures'])} failure(s)")
        return 1
    if a.strict and missed:
        print(f"report: {len(missed)} performance check(s) missed (--strict)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
