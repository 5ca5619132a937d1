#!/usr/bin/env python3
"""Throughput benchmark of cu2dcu (not a pass/fail test).

Generates synthetic CUDA trees (gen_corpus.py) of several sizes, adds the
samples (samples-cuda/), and translates each with every configuration and -j
value, interleaved and repeated so that a loaded machine disturbs all
configurations alike. For each run it records, from the child's rusage:
elapsed seconds, user+sys CPU seconds, peak RSS (ru_maxrss: the largest single
process, the tool or one of its parser processes, so the peak of one job);
and from `--time-report`
the per-stage breakdown. It checks that every configuration and -j value
wrote byte-identical output, and writes everything as JSON plus a short table.

  run_bench.py --tool build/tool/main/cu2dcu --sizes 40,80,160 --jobs 1,2 \\
      --repeat 2 --config default= --config no-pch=--no-pch \\
      --out testsuite/results/throughput.json

Metrics (medians over the repeats):
  files/s, lines/s  every input file (and line) of the tree over elapsed time
  cpu/file          user+sys CPU seconds over the input files that contain CUDA
                    (the ones the tool translates; host-only .cpp and build
                    files are only scanned and copied)
  cpu/unit          the same over the translation units clang parses
  speedup           elapsed(-j 1) / elapsed(-j N), from runs of the same round
"""

import argparse
import hashlib
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen_corpus  # noqa: E402

SOURCE_EXT = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hh", ".hxx", ".inl")
STAGE_RE = re.compile(r"^  (discover|maps|pch|parse|match|rewrite|write|report)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s*$")
PARSED_RE = re.compile(r"parsed: (\d+) with the AST, (\d+) lexically")
PCH_RE = re.compile(r"shared PCHs: (\d+) built, (\d+) units parsed with one, (\d+) parsed again without")


def tree_stats(root):
    files = lines = sources = cuda_files = 0
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            files += 1
            if n.endswith(SOURCE_EXT):
                sources += 1
                with open(p, "rb") as f:
                    text = f.read()
                lines += text.count(b"\n")
                if re.search(rb"cuda|__global__|__device__|<<<|cublas|curand|thrust|cub::", text):
                    cuda_files += 1
    return {"files": files, "source_files": sources, "source_lines": lines, "cuda_files": cuda_files}


def tree_hash(root):
    h = hashlib.sha256()
    for d, dirs, names in os.walk(root):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(d, n)
            h.update(os.path.relpath(p, root).encode() + b"\0")
            with open(p, "rb") as f:
                h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


def run_once(cmd):
    """Runs cmd; returns (rc, elapsed, user, sys, maxrss_kib, stderr)."""
    err_path = "/tmp/cu2dcu-bench-stderr-%d.txt" % os.getpid()
    with open(err_path, "wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
    with open(err_path, encoding="utf-8", errors="replace") as f:
        stderr = f.read()
    os.unlink(err_path)
    rc = os.waitstatus_to_exitcode(status)
    return rc, elapsed, usage.ru_utime, usage.ru_stime, usage.ru_maxrss, stderr


def parse_time_report(stderr):
    stages = {}
    for line in stderr.splitlines():
        m = STAGE_RE.match(line)
        if m:
            stages[m.group(1)] = {"count": int(m.group(2)), "wall": float(m.group(3)),
                                  "cpu": float(m.group(4))}
    return stages


def rm_tree(path):
    if os.path.isdir(path):
        subprocess.run(["rm", "-rf", path], check=True)


def machine_info():
    info = {"nproc": os.cpu_count(), "platform": platform.platform()}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return info


def git_commit():
    try:
        return subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", default=os.path.join(REPO, "build/tool/main/cu2dcu"))
    ap.add_argument("--work", default="/tmp/cu2dcu-bench", help="corpora and outputs go here")
    ap.add_argument("--sizes", default="40,80,160", help="generated translation units per corpus")
    ap.add_argument("--jobs", default="1,2")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples", default=os.path.join(REPO, "samples-cuda"),
                    help="tree added to every corpus ('' for none)")
    ap.add_argument("--config", action="append", default=[],
                    help="NAME=[@TOOL] [EXTRA ARGS], e.g. default=, no-pch=--no-pch, "
                         "before=@/tmp/cu2dcu-old (repeatable; TOOL defaults to --tool)")
    ap.add_argument("--out", default=os.path.join(REPO, "testsuite/results/throughput.json"))
    ap.add_argument("--note", default="", help="free text stored in the JSON")
    args = ap.parse_args()

    sizes = [int(s) for s in args.sizes.split(",") if s]
    jobs = [int(j) for j in args.jobs.split(",") if j]
    tool = os.path.abspath(args.tool)
    configs = []  # (name, tool, extra args)
    for c in args.config or ["default="]:
        name, _, extra = c.partition("=")
        words = extra.split()
        ctool = tool
        if words and words[0].startswith("@"):
            ctool = os.path.abspath(words.pop(0)[1:])
        # Cold runs: a tool with a unit cache must not reuse an earlier round.
        helptext = subprocess.run([ctool, "--help"], capture_output=True, text=True).stdout
        if "--no-cache" in helptext:
            words = words + ["--no-cache"]
        configs.append((name, ctool, words))
    version = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout.strip()
    for cname, ctool, _ in configs:
        if not os.access(ctool, os.X_OK):
            sys.exit("config %s: %s is not an executable" % (cname, ctool))
    os.makedirs(args.work, exist_ok=True)

    corpora = {}
    for size in sizes:
        root = os.path.join(args.work, f"corpus-{size}")
        gen_corpus.generate(root, size, args.seed, args.samples or None)
        corpora[size] = {"root": root, "units_generated": size, **tree_stats(root)}

    runs = []
    load_start = os.getloadavg()
    for rep in range(args.repeat):
        for size in sizes:
            root = corpora[size]["root"]
            for cname, ctool, extra in configs:
                for j in jobs:
                    out = os.path.join(args.work, f"out-{size}-{cname}-j{j}")
                    rm_tree(out)
                    cmd = [ctool, root, "-o", out, f"-j{j}", "--time-report", "--fail-on=never",
                           "--quiet", *extra, "--", "-I" + os.path.join(root, "include")]
                    load = os.getloadavg()[0]
                    rc, elapsed, user, sys_, rss, stderr = run_once(cmd)
                    # --quiet hides the summary; count parsed units from the time report.
                    stages = parse_time_report(stderr)
                    pch = PCH_RE.search(stderr)
                    run = {"round": rep, "size": size, "config": cname, "tool": ctool,
                           "jobs": j, "rc": rc,
                           "pch_built": int(pch.group(1)) if pch else 0,
                           "pch_units": int(pch.group(2)) if pch else 0,
                           "pch_reparsed": int(pch.group(3)) if pch else 0,
                           "elapsed_s": round(elapsed, 3), "user_s": round(user, 3),
                           "sys_s": round(sys_, 3), "cpu_s": round(user + sys_, 3),
                           "peak_rss_mib": round(rss / 1024.0, 1), "load1_before": load,
                           "stages": stages, "output_sha256": tree_hash(out),
                           "command": " ".join(cmd)}
                    if rc != 0:
                        run["stderr_tail"] = stderr[-2000:]
                    runs.append(run)
                    print(f"round {rep} size {size:4d} {cname:>10} -j{j}: {elapsed:7.2f} s elapsed, "
                          f"{user + sys_:7.2f} s cpu, {rss / 1024:6.0f} MiB, load {load:.1f}",
                          file=sys.stderr, flush=True)
    load_end = os.getloadavg()

    # One parse check per corpus: how many units went through the AST.
    for size in sizes:
        root = corpora[size]["root"]
        p = subprocess.run([tool, root, "--dry-run", "-j2", "--fail-on=never", "--", "-I" +
                            os.path.join(root, "include")], capture_output=True, text=True)
        m = PARSED_RE.search(p.stderr)
        corpora[size]["parsed_ast"] = int(m.group(1)) if m else None
        corpora[size]["parsed_lexically"] = int(m.group(2)) if m else None

    summary = []
    for size in sizes:
        c = corpora[size]
        for cname, ctool, _ in configs:
            # Every run of one binary must write the same tree, whatever -j or
            # PCH setting; another binary (an older build) may differ.
            hashes = {r["output_sha256"] for r in runs if r["size"] == size and r["tool"] == ctool}
            for j in jobs:
                sel = [r for r in runs if r["size"] == size and r["config"] == cname and r["jobs"] == j]
                el = statistics.median(r["elapsed_s"] for r in sel)
                cpu = statistics.median(r["cpu_s"] for r in sel)
                units = sel[0]["stages"].get("parse", {}).get("count") or 0
                row = {"size": size, "config": cname, "jobs": j, "runs": len(sel),
                       "elapsed_s": el, "cpu_s": cpu,
                       "files_per_s": round(c["files"] / el, 2),
                       "lines_per_s": round(c["source_lines"] / el, 1),
                       "cpu_per_file_s": round(cpu / c["cuda_files"], 3),
                       "cpu_per_unit_s": round(cpu / units, 3) if units else None,
                       "parsed_units": units,
                       # ru_maxrss of the waited-for tool is the largest of its
                       # process and its parser processes, i.e. of one job.
                       "peak_rss_per_job_mib": max(r["peak_rss_mib"] for r in sel),
                       "outputs_identical": len(hashes) == 1,
                       "pch_built": sel[0]["pch_built"], "pch_units": sel[0]["pch_units"],
                       "pch_reparsed": sel[0]["pch_reparsed"],
                       "stages_cpu_s": {k: round(statistics.median(r["stages"].get(k, {}).get("cpu", 0)
                                                                  for r in sel), 3)
                                        for k in ("discover", "maps", "pch", "parse", "match",
                                                  "rewrite", "write", "report")}}
                if j != jobs[0]:
                    base = {r["round"]: r["elapsed_s"] for r in runs if r["size"] == size and
                            r["config"] == cname and r["jobs"] == jobs[0]}
                    row["speedup_vs_j%d" % jobs[0]] = round(statistics.median(
                        base[r["round"]] / r["elapsed_s"] for r in sel), 2)
                summary.append(row)

    # Linearity: least-squares fit of CPU seconds against parsed units, per config and -j.
    fits = []
    for cname, _, _ in configs:
        for j in jobs:
            pts = [(r["parsed_units"], r["cpu_s"]) for r in summary if r["config"] == cname and r["jobs"] == j]
            if len(pts) >= 2:
                n = len(pts)
                mx = sum(p[0] for p in pts) / n
                my = sum(p[1] for p in pts) / n
                sxx = sum((p[0] - mx) ** 2 for p in pts)
                b = sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx if sxx else 0.0
                fits.append({"config": cname, "jobs": j, "cpu_s_per_unit": round(b, 4),
                             "fixed_cpu_s": round(my - b * mx, 3)})

    result = {
        "benchmark": "cu2dcu throughput (testsuite/bench/run_bench.py)",
        "command": " ".join([os.path.relpath(sys.argv[0], REPO) if sys.argv[0].startswith(REPO) else sys.argv[0]]
                            + sys.argv[1:]),
        "note": args.note,
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "tool": {"path": tool, "version": version, "git": git_commit()},
        "configs": [{"name": n, "tool": t, "args": a} for n, t, a in configs],
        "machine": {**machine_info(), "load1_5_15_start": load_start, "load1_5_15_end": load_end},
        "corpora": [corpora[s] for s in sizes],
        "summary": summary,
        "linear_fit": fits,
        "runs": runs,
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")

    print(f"\nmachine: {result['machine'].get('cpu', '?')}, {os.cpu_count()} cores, "
          f"load {load_start[0]:.1f} -> {load_end[0]:.1f}")
    print("%6s %6s %6s %-10s %3s %8s %8s %8s %9s %8s %8s %7s %7s %s" % (
        "units", "files", "lines", "config", "-j", "wall s", "cpu s", "files/s", "lines/s",
        "cpu/file", "cpu/unit", "job RSS", "speedup", "same"))
    for r in summary:
        c = corpora[r["size"]]
        sp = next((v for k, v in r.items() if k.startswith("speedup")), None)
        print("%6d %6d %6d %-10s %3d %8.2f %8.2f %8.2f %9.0f %8.3f %8s %7.0f %7s %s" % (
            r["parsed_units"], c["files"], c["source_lines"], r["config"], r["jobs"], r["elapsed_s"],
            r["cpu_s"], r["files_per_s"], r["lines_per_s"], r["cpu_per_file_s"],
            "%.3f" % r["cpu_per_unit_s"] if r["cpu_per_unit_s"] else "-", r["peak_rss_per_job_mib"],
            "%.2f" % sp if sp else "", "yes" if r["outputs_identical"] else "NO"))
    print("stage CPU seconds (median): " + "; ".join(
        "%d/%s/-j%d: %s" % (r["size"], r["config"], r["jobs"],
                            ", ".join("%s %.2f" % (k, v) for k, v in r["stages_cpu_s"].items() if v >= 0.01))
        for r in summary))
    for f in fits:
        print("linear fit %s -j%d: %.3f s CPU per parsed unit + %.2f s fixed" % (
            f["config"], f["jobs"], f["cpu_s_per_unit"], f["fixed_cpu_s"]))
    print(f"wrote {args.out}")
    return 0 if all(r["rc"] == 0 for r in runs) and all(r["outputs_identical"] for r in summary) else 1


if __name__ == "__main__":
    sys.exit(main())
