#!/usr/bin/env python3
"""GPU mode of the corpus runner: builds each staged benchmark twice on an
NVIDIA machine (the CUDA original with nvcc, cu2dcu's translation through
HIP's NVIDIA path), runs both with the arguments of their Makefile's `run`
target, and compares what they print, timing lines left out.

The stage (written by run_corpus.py --gpu-stage DIR on a machine without a
GPU) holds:
  manifest.json             {"benchmarks": [...], "sm": "90"}
  cuda/NAME-cuda/           the CUDA original, as in the corpus
  translated/NAME-cuda/     cu2dcu's output for it (Makefile translated too)
  hip-nvidia-include/       the project's HIP-on-NVIDIA compat headers

The original is built with `make ARCH=sm_XX`; the translation with its own
translated Makefile, whose `hipcc` is hipcc_nvidia.py (hipcc's NVIDIA path:
nvcc -x cu with the compat headers). Both run under `make -s run`.

Verdicts per benchmark:
  same            the outputs agree (lines that differ between two runs of the
                  original itself are left out, where the line counts agree)
  differs         they do not
  no-output       the original prints nothing but timing lines
  translated-build / translated-run   the translation does not build / run
  cuda-build / cuda-run                the original does not (not counted)
  not-run         the time limit (--deadline) came first

Usage: gpu_run.py --stage DIR --out FILE [--jobs N] [--deadline S] [--previous FILE]
Only the standard library; results are rewritten after every benchmark.
"""
import argparse
import concurrent.futures
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# Lines that carry timings or rates: left out of the comparison.
TIMING = re.compile(r"(?i)(time|elapsed|duration|latency|\bsec(ond)?s?\b|\b[mun]s\b|usec|msec|"
                    r"throughput|bandwidth|[gmkt]b/s|[gmt]flop|flops|/s\b|speed|per second|"
                    r"\bcycles\b|\bclock)")
POINTER = re.compile(r"0x[0-9a-fA-F]{8,}")
BUILD_TIMEOUT = 300
OUTPUT_LIMIT = 1 << 20  # bytes of a run's output kept for the comparison


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stage", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) - 2))
    ap.add_argument("--deadline", type=float, default=540, help="wall seconds for the whole run")
    ap.add_argument("--run-timeout", type=float, default=60, help="wall seconds per program run")
    ap.add_argument("--only", help="comma-separated benchmark names")
    ap.add_argument("--previous", help="an earlier --out: benchmarks it finished are kept, "
                    "not run again (to go on after a --deadline)")
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", "nvcc"))
    return ap.parse_args(argv)


def run(cmd, cwd, timeout, env=None):
    """(exit code or None on timeout, seconds, output) of cmd in its own
    process group, which is killed whole on timeout."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=max(1, timeout))
        code = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
        code = None
    text = output[:OUTPUT_LIMIT].decode("utf-8", errors="replace")
    return code, round(time.monotonic() - start, 2), text


def comparable_lines(output):
    """The output's lines without timing lines, blanks and pointer values."""
    lines = []
    for line in output.splitlines():
        line = POINTER.sub("0x?", line.rstrip())
        if line.strip() and not TIMING.search(line) and not line.startswith("make"):
            lines.append(line)
    return lines


def stable_compare(first, again, translated):
    """Whether translated agrees with the original on every line the original
    prints the same in two runs (needs equal line counts)."""
    if not (len(first) == len(again) == len(translated)):
        return False
    return all(a != b or a == t for a, b, t in zip(first, again, translated))


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return {"line": i + 1, "cuda": x[:200], "translated": y[:200]}
    if len(a) != len(b):
        return {"line": min(len(a), len(b)) + 1, "cudaLines": len(a), "translatedLines": len(b)}
    return None


class Runner:
    def __init__(self, args):
        self.args = args
        self.stage = os.path.abspath(args.stage)
        self.stop_at = time.monotonic() + args.deadline
        with open(os.path.join(self.stage, "manifest.json")) as f:
            self.manifest = json.load(f)
        self.sm = self.manifest.get("sm", "90")
        self.env = self.hipcc_environment()
        self.results = self.finished_before(args.previous)
        self.lock = threading.Lock()

    def hipcc_environment(self):
        """PATH with a `hipcc` that is hipcc_nvidia.py, for translated Makefiles."""
        bindir = os.path.join(self.stage, "bin")
        os.makedirs(bindir, exist_ok=True)
        hipcc = os.path.join(bindir, "hipcc")
        with open(hipcc, "w") as f:
            f.write("#!/bin/sh\nexec %s %s \"$@\"\n" % (sys.executable,
                                                       os.path.join(HERE, "hipcc_nvidia.py")))
        os.chmod(hipcc, 0o755)
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""),
                   CU2DCU_NVCC=self.args.nvcc, CU2DCU_SM=self.sm,
                   CU2DCU_HIP_NVIDIA_INCLUDE=os.path.join(self.stage, "hip-nvidia-include"))
        return env

    @staticmethod
    def finished_before(path):
        """An earlier run's records, except those not reached or whose
        program timed out (a busy GPU may be why: they run again)."""
        if not path:
            return {}
        with open(path) as f:
            records = json.load(f)["benchmarks"]
        return {r["name"]: r for r in records
                if r["verdict"] != "not-run" and not any(
                    r.get(run, {}).get("timeout") for run in ("cudaRun", "translatedRun"))}

    def left(self):
        return self.stop_at - time.monotonic()

    def build(self, folder, extra):
        if self.left() < 30:
            return {"ok": False, "error": "not-run"}
        code, seconds, output = run(["make", "-j2"] + extra, folder,
                                    min(BUILD_TIMEOUT, self.left() - 20), self.env)
        result = {"ok": code == 0, "seconds": seconds}
        if code != 0:
            errors = [l for l in output.splitlines() if "error" in l.lower()]
            result["error"] = ("timed out" if code is None else
                               (errors[0] if errors else output.strip()[-300:]))[:300]
        return result

    def execute(self, folder):
        timeout = min(self.args.run_timeout, self.left() - 10)
        if timeout < self.args.run_timeout:
            return {"ok": False, "error": "not-run"}, None  # cut short, it would prove nothing
        code, seconds, output = run(["make", "-s", "run"], folder, timeout, self.env)
        result = {"ok": code == 0, "exitCode": code, "seconds": seconds, "timeout": code is None}
        if code != 0:
            result["tail"] = output.strip().splitlines()[-3:]
        return result, output

    def benchmark(self, name):
        cuda = os.path.join(self.stage, "cuda", name + "-cuda")
        translated = os.path.join(self.stage, "translated", name + "-cuda")
        record = {"name": name}
        record["cudaBuild"] = self.build(cuda, ["ARCH=sm_" + self.sm])
        record["translatedBuild"] = self.build(translated, [])
        record["verdict"] = self.compare(record, cuda, translated)
        with self.lock:
            self.results[name] = record
            self.write()

    def run_side(self, record, side, folder):
        """Runs one side ("cuda" or "translated") once it has built: a verdict
        that ends the comparison (or None), and the program's output."""
        if not record[side + "Build"]["ok"]:
            return side + "-build", None
        record[side + "Run"], output = self.execute(folder)
        if output is None:
            return "not-run", None
        if not record[side + "Run"]["ok"]:
            return side + "-run", None
        return None, output

    def compare(self, record, cuda, translated):
        if any(record[side + "Build"].get("error") == "not-run" for side in ("cuda", "translated")):
            return "not-run"
        verdict, cuda_output = self.run_side(record, "cuda", cuda)
        if verdict:
            return verdict
        verdict, translated_output = self.run_side(record, "translated", translated)
        if verdict:
            return verdict
        first, ours = comparable_lines(cuda_output), comparable_lines(translated_output)
        if not first:
            return "no-output"
        if first == ours:
            return "same"
        _, again_output = self.execute(cuda)
        again = comparable_lines(again_output or "")
        record["cudaRerunSame"] = again == first
        if again != first and stable_compare(first, again, ours):
            return "same"
        record["difference"] = first_difference(first, ours)
        return "differs"

    def write(self):
        counts = {}
        for r in self.results.values():
            counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
        runs = sum(counts.get(v, 0) for v in
                   ("same", "differs", "no-output", "translated-build", "translated-run"))
        summary = {"sm": self.sm, "benchmarks": len(self.manifest["benchmarks"]), "finished": len(self.results),
                   "verdicts": dict(sorted(counts.items())), "cudaRuns": runs,
                   "same": counts.get("same", 0),
                   "sameShare": round(counts.get("same", 0) / runs, 4) if runs else None,
                   "sameShareWithOutput": (round(counts.get("same", 0) /
                                                 (runs - counts.get("no-output", 0)), 4)
                                           if runs > counts.get("no-output", 0) else None)}
        document = {"summary": summary,
                    "benchmarks": [self.results[n] for n in sorted(self.results)]}
        tmp = self.args.out + ".tmp"
        with open(tmp, "w") as f:
            json.dump(document, f, indent=1)
        os.replace(tmp, self.args.out)

    def run_all(self):
        names = self.manifest["benchmarks"]
        if self.args.only:
            names = [n for n in names if n in self.args.only.split(",")]
        names = [n for n in names if n not in self.results]
        with concurrent.futures.ThreadPoolExecutor(self.args.jobs) as pool:
            list(pool.map(self.benchmark, names))
        for name in names:  # every benchmark gets a record, reached or not
            self.results.setdefault(name, {"name": name, "verdict": "not-run"})
        self.write()
        return self.results


def main(argv=None):
    args = parse_args(argv)
    results = Runner(args).run_all()
    with open(args.out) as f:
        print(json.dumps(json.load(f)["summary"], indent=1))
    return 0 if results else 1


if __name__ == "__main__":
    sys.exit(main())
