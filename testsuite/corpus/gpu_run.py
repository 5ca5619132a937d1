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

Wave64 emulation (--wave64, issue 29): the stage of `gpu_stage.py --wave64`
(its docstring says how to make it; it adds twin/, fixed/ and
hip-nvidia-wave64-include/). Each benchmark's original runs as above; then,
each built with the wave64 emulation headers and compared with the
original's output the same way, its variants:
  wave64   the translation (translated/NAME-cuda, built in place)
  twin     the hand-written twin (twin/NAME-hip; each ../X-cuda it names is
           copied from cuda/X-cuda to twin/X-cuda before anything builds)
  fixed    the --fix-wave64 translation, where a fix applied (fixed/NAME-cuda)
  plain    with --with-plain only: the translation with the plain compat
           headers (a copy of translated/ in plain/), as in the mode above
A benchmark whose manifest record has runArgs (wave64-small-inputs.json:
the emulation is too slow for its Makefile's arguments) runs, original and
variants alike, as `make -s run LAUNCHER=bin/with-run-args`, which starts the
program with those arguments instead.
A variant's verdict: same, differs, no-output, build-failure, run-failure,
not-run, timeout (past --run-timeout) or emulation-trap (the emulation said
it cannot give AMD's answer); the last two count as neither same nor
different. A twin is compared with CUDA/HIP names and input paths
normalized (twin_lines). The benchmark's cudaVerdict: ok, no-output, nondeterministic (the
original, run again because a variant differed, printed something else:
left out of every count and listed), cuda-build, cuda-run, not-run.
summarize() counts a run; `--merge A.json B.json ... --out F` merges the
partial results of several device calls (a later finished record replaces
an earlier one) and writes them with their summary. On the device (about
520 s of a 600 s call; --previous goes on from the last call's output):

  python3 testsuite/corpus/gpu_run.py --wave64 --stage .gpu-stage-w64 \
      --out w64.json --jobs 12 --deadline 520 --run-timeout 100 [--previous w64.json]
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
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
    ap.add_argument("--stage")
    ap.add_argument("--out", required=True)
    ap.add_argument("--wave64", action="store_true", help="the wave64 emulation stage's variants")
    ap.add_argument("--with-plain", action="store_true",
                    help="--wave64: also run the translation with the plain compat headers")
    ap.add_argument("--merge", nargs="+", metavar="FILE",
                    help="merge these --wave64 outputs into --out (no stage, nothing runs)")
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) - 2))
    ap.add_argument("--deadline", type=float, default=540, help="wall seconds for the whole run")
    ap.add_argument("--run-timeout", type=float, default=60, help="wall seconds per program run")
    ap.add_argument("--only", help="comma-separated benchmark names")
    ap.add_argument("--previous", help="an earlier --out: benchmarks it finished are kept, "
                    "not run again (to go on after a --deadline)")
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", "nvcc"))
    args = ap.parse_args(argv)
    if not args.stage and not args.merge:
        ap.error("--stage is required (or --merge)")
    return args


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


def unchanged(lines):
    return lines


class Original:
    """The original's comparable output, and a second run of it, made the
    first time a comparison needs it (when something differs)."""

    def __init__(self, runner, folder, lines, env=None):
        self.runner, self.folder, self.lines, self.env = runner, folder, lines, env
        self.again = None  # the second run's lines, once made
        self.cut = False  # the deadline stopped the second run

    def rerun(self):
        if self.again is None:
            _, output = self.runner.execute(self.folder, self.env)
            self.cut = output is None
            self.again = comparable_lines(output or "")
        return self.again

    def deterministic(self):
        return self.again is None or self.again == self.lines

    def judge(self, ours, normalize=unchanged):
        """("same" or "differs", the first difference or None) for lines
        of another program; lines the original varies are not compared.
        `normalize` is applied to both sides first."""
        first, ours = normalize(self.lines), normalize(ours)
        if first == ours:
            return "same", None
        again = normalize(self.rerun())
        if again != first and stable_compare(first, again, ours):
            return "same", None
        return "differs", first_difference(first, ours)


class Runner:
    def __init__(self, args):
        self.args = args
        self.stage = os.path.abspath(args.stage)
        self.stop_at = time.monotonic() + args.deadline
        with open(os.path.join(self.stage, "manifest.json")) as f:
            self.manifest = json.load(f)
        self.sm = self.manifest.get("sm", "90")
        self.env = self.hipcc_environment("hip-nvidia-include")
        self.results = self.finished_before(args.previous)
        self.lock = threading.Lock()

    def hipcc_environment(self, include):
        """PATH with a `hipcc` that is hipcc_nvidia.py, for translated
        Makefiles, and the stage's compat headers named include."""
        bindir = os.path.join(self.stage, "bin")
        os.makedirs(bindir, exist_ok=True)
        hipcc = os.path.join(bindir, "hipcc")
        with open(hipcc, "w") as f:
            f.write("#!/bin/sh\nexec %s %s \"$@\"\n" % (sys.executable,
                                                       os.path.join(HERE, "hipcc_nvidia.py")))
        os.chmod(hipcc, 0o755)
        with_args = os.path.join(bindir, "with-run-args")
        with open(with_args, "w") as f:  # a Makefile's $(LAUNCHER): other arguments
            f.write("#!/bin/sh\nexec \"$1\" $CU2DCU_RUN_ARGS\n")
        os.chmod(with_args, 0o755)
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""),
                   CU2DCU_NVCC=self.args.nvcc, CU2DCU_SM=self.sm,
                   CU2DCU_HIP_NVIDIA_INCLUDE=os.path.join(self.stage, include))
        return env

    def finished_before(self, path):
        """An earlier run's records that are finished (self.finished)."""
        if not path:
            return {}
        with open(path) as f:
            records = json.load(f)["benchmarks"]
        return {r["name"]: r for r in records if self.finished(r)}

    @staticmethod
    def finished(record):
        """Not when the deadline cut it, nor when its program timed out (a
        busy GPU may be why: it runs again)."""
        return record["verdict"] != "not-run" and not any(
            record.get(run, {}).get("timeout") for run in ("cudaRun", "translatedRun"))

    def left(self):
        return self.stop_at - time.monotonic()

    def build(self, folder, extra, env=None):
        if self.left() < 30:
            return {"ok": False, "error": "not-run"}
        code, seconds, output = run(["make", "-j2"] + extra, folder,
                                    min(BUILD_TIMEOUT, self.left() - 20), env or self.env)
        result = {"ok": code == 0, "seconds": seconds}
        if code != 0:
            errors = [l for l in output.splitlines() if "error" in l.lower()]
            result["error"] = ("timed out" if code is None else
                               (errors[0] if errors else output.strip()[-300:]))[:300]
        return result

    def execute(self, folder, env=None):
        timeout = min(self.args.run_timeout, self.left() - 10)
        if timeout < self.args.run_timeout:
            return {"ok": False, "error": "not-run"}, None  # cut short, it would prove nothing
        env = env or self.env
        command = ["make", "-s", "run"]
        if "CU2DCU_RUN_ARGS" in env:  # smaller inputs: the program with other arguments
            command.append("LAUNCHER=" + os.path.join(self.stage, "bin", "with-run-args"))
        code, seconds, output = run(command, folder, timeout, env)
        result = {"ok": code == 0, "exitCode": code, "seconds": seconds, "timeout": code is None}
        if code != 0:
            result["tail"] = output.strip().splitlines()[-3:]
        return result, output

    def run_built(self, build, folder, env=None):
        """Runs a program once it has built: (its run record or None, what
        failed: "build", "run", "not-run" or None, its output)."""
        if not build["ok"]:
            return None, "not-run" if build.get("error") == "not-run" else "build", None
        result, output = self.execute(folder, env)
        if output is None:
            return result, "not-run", None
        return result, None if result["ok"] else "run", output

    def benchmark(self, name):
        cuda = os.path.join(self.stage, "cuda", name + "-cuda")
        translated = os.path.join(self.stage, "translated", name + "-cuda")
        record = {"name": name}
        record["cudaBuild"] = self.build(cuda, ["ARCH=sm_" + self.sm])
        record["translatedBuild"] = self.build(translated, [])
        record["verdict"] = self.compare(record, cuda, translated)
        self.store(record)

    def store(self, record):
        with self.lock:
            self.results[record["name"]] = record
            self.write()

    def run_side(self, record, side, folder):
        """Runs one side ("cuda" or "translated") once it has built: a verdict
        that ends the comparison (or None), and the program's output."""
        result, failure, output = self.run_built(record[side + "Build"], folder)
        if result is not None:
            record[side + "Run"] = result
        if failure == "not-run":
            return failure, None
        return (side + "-" + failure if failure else None), output

    def compare(self, record, cuda, translated):
        if any(record[side + "Build"].get("error") == "not-run" for side in ("cuda", "translated")):
            return "not-run"
        verdict, cuda_output = self.run_side(record, "cuda", cuda)
        if verdict:
            return verdict
        verdict, translated_output = self.run_side(record, "translated", translated)
        if verdict:
            return verdict
        original = Original(self, cuda, comparable_lines(cuda_output))
        if not original.lines:
            return "no-output"
        verdict, difference = original.judge(comparable_lines(translated_output))
        if original.again is not None:
            record["cudaRerunSame"] = original.deterministic()
        if difference:
            record["difference"] = difference
        return verdict

    def summary(self):
        counts = {}
        for r in self.results.values():
            counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
        runs = sum(counts.get(v, 0) for v in
                   ("same", "differs", "no-output", "translated-build", "translated-run"))
        return {"sm": self.sm, "benchmarks": len(self.manifest["benchmarks"]), "finished": len(self.results),
                "verdicts": dict(sorted(counts.items())), "cudaRuns": runs,
                "same": counts.get("same", 0),
                "sameShare": round(counts.get("same", 0) / runs, 4) if runs else None,
                "sameShareWithOutput": (round(counts.get("same", 0) /
                                              (runs - counts.get("no-output", 0)), 4)
                                        if runs > counts.get("no-output", 0) else None)}

    def document(self):
        return {"summary": self.summary(),
                "benchmarks": [self.results[n] for n in sorted(self.results)]}

    def write(self):
        write_json(self.args.out, self.document())

    def prepare(self, names):
        """What must be in place before the first build (nothing here)."""

    def run_all(self):
        names = self.manifest["benchmarks"]
        if self.args.only:
            names = [n for n in names if n in self.args.only.split(",")]
        names = [n for n in names if n not in self.results]
        self.prepare(names)
        with concurrent.futures.ThreadPoolExecutor(self.args.jobs) as pool:
            list(pool.map(self.benchmark, names))
        for name in names:  # every benchmark gets a record, reached or not
            self.results.setdefault(name, self.unreached(name))
        self.write()
        return self.results

    @staticmethod
    def unreached(name):
        return {"name": name, "verdict": "not-run"}


def write_json(path, document):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(document, f, indent=1)
    os.replace(tmp, path)


# --- wave64 emulation --------------------------------------------------------

VARIANT_FAILURE = {"build": "build-failure", "run": "run-failure", "not-run": "not-run"}
EMULATION_TRAP = "cu2dcu wave64 emulation: "


def emulation_trap(output):
    """The emulation's first trap message in a program's output, or None."""
    for line in (output or "").splitlines():
        if line.startswith(EMULATION_TRAP):
            return line[:300]
    return None


def twin_lines(name):
    """What a hand-written twin prints differently by design: the API's
    name (CUDA/HIP) and the paths to the original's input files, which
    twins read from ../NAME-cuda/."""
    sibling = re.compile(r"\.\./[\w.+-]+-cuda/")
    here = re.compile(r"(?<![\w.])\./")
    api = re.compile(r"(?i)cuda|hip")
    return lambda lines: [api.sub("GPU", here.sub("", sibling.sub("", line))) for line in lines]
FAILED = ("differs", "build-failure", "run-failure")
TIMEOUT_ATTEMPTS = 2  # a record whose program timed out runs again once


def w64_counts(findings):
    """W64 findings of the plain translation by severity, and the checks of
    those that are warnings or errors."""
    counts = {"error": 0, "warning": 0, "note": 0}
    for f in findings:
        counts[f["severity"]] = counts.get(f["severity"], 0) + 1
    counts["checks"] = sorted({f["id"] for f in findings if f["severity"] in ("error", "warning")})
    return counts


def runs_of(record):
    yield record.get("cuda", {}).get("run", {})
    for part in record.get("variants", {}).values():
        yield part.get("run", {})


def wave64_finished(record):
    """Finished unless the deadline cut any of it, or a program timed out
    (a busy GPU may be why) and it has not run TIMEOUT_ATTEMPTS times."""
    if record.get("cudaVerdict", "not-run") == "not-run" or any(
            part.get("verdict") == "not-run" for part in record.get("variants", {}).values()):
        return False
    timed_out = any(run.get("timeout") for run in runs_of(record))
    return not timed_out or record.get("attempt", 1) >= TIMEOUT_ATTEMPTS


class Wave64Runner(Runner):
    """Runs the original and the variants of gpu_stage.py --wave64's stage."""

    def __init__(self, args):
        super().__init__(args)
        self.env_w64 = self.hipcc_environment("hip-nvidia-wave64-include")
        self.attempts = self.earlier_attempts(args.previous)

    @staticmethod
    def earlier_attempts(path):
        if not path:
            return {}
        with open(path) as f:
            return {r["name"]: r.get("attempt", 1) for r in json.load(f)["benchmarks"]
                    if any(run.get("timeout") for run in runs_of(r))}

    finished = staticmethod(wave64_finished)

    def info(self, name):
        return self.manifest["records"][name]

    def variants(self, name):
        """(variant, folder, environment) in the order they run."""
        info, folder = self.info(name), lambda *p: os.path.join(self.stage, *p)
        w64, plain = self.with_run_args(name, self.env_w64), self.with_run_args(name, self.env)
        found = [("wave64", folder("translated", name + "-cuda"), w64),
                 ("twin", folder("twin", name + "-hip"), w64)]
        if info.get("fixesApplied"):
            found.append(("fixed", folder("fixed", name + "-cuda"), w64))
        if self.args.with_plain:
            found.append(("plain", folder("plain", name + "-cuda"), plain))
        return found

    def prepare(self, names):
        """Copies, before anything builds: each original a twin names as
        ../X-cuda beside the twin, the plain variant's translations, and
        beside the fixed and plain ones the translations of the ../X-cuda
        their original names."""
        for name in names:
            info = self.info(name)
            for sibling in info.get("twinSiblings", []):
                self.copy_once(os.path.join("cuda", sibling), os.path.join("twin", sibling))
            if self.args.with_plain:
                self.copy_once(os.path.join("translated", name + "-cuda"),
                               os.path.join("plain", name + "-cuda"))
            for tree in ("fixed", "plain"):
                if os.path.isdir(os.path.join(self.stage, tree, name + "-cuda")):
                    for sibling in info.get("cudaSiblings", []):
                        self.copy_once(os.path.join("translated", sibling),
                                       os.path.join(tree, sibling))

    def copy_once(self, source, target):
        source, target = os.path.join(self.stage, source), os.path.join(self.stage, target)
        if os.path.isdir(source) and not os.path.exists(target):
            shutil.copytree(source, target)

    def new_record(self, name):
        info = self.info(name)
        return {"name": name, "warpRelevant": info.get("warpRelevant"),
                "cudaSecondsBefore": info.get("cudaSeconds"),
                "plainVerdictBefore": info.get("previousVerdict"),
                "fixesApplied": info.get("fixesApplied", 0),
                "w64": w64_counts(info.get("w64Findings", [])),
                "runArgs": info.get("runArgs"),
                "attempt": self.attempts.get(name, 0) + 1}

    def benchmark(self, name):
        record = self.new_record(name)
        cuda = os.path.join(self.stage, "cuda", name + "-cuda")
        record["cuda"] = {"build": self.build(cuda, ["ARCH=sm_" + self.sm])}
        variants = self.variants(name) if record["cuda"]["build"]["ok"] else []
        record["variants"] = {key: {"build": self.build(folder, [], env)}
                              for key, folder, env in variants}
        record["cudaVerdict"] = self.judge_variants(record, cuda, variants)
        self.store(record)

    def with_run_args(self, name, env):
        """env, and the benchmark's smaller inputs if the stage gives it some."""
        args = self.info(name).get("runArgs")
        return dict(env, CU2DCU_RUN_ARGS=args) if args else env

    def judge_variants(self, record, cuda, variants):
        """Runs the original, then each variant against it: the original's verdict."""
        env = self.with_run_args(record["name"], self.env)
        result, failure, output = self.run_built(record["cuda"]["build"], cuda, env)
        if result is not None:
            record["cuda"]["run"] = result
        if failure:
            for part in record["variants"].values():
                part["verdict"] = "not-run"
            return "not-run" if failure == "not-run" else "cuda-" + failure
        original = Original(self, cuda, comparable_lines(output), env)
        for key, folder, env in variants:
            normalize = twin_lines(record["name"]) if key == "twin" else unchanged
            self.judge_variant(record["variants"][key], original, folder, env, normalize)
        if original.again is not None:
            record["cuda"]["rerunSame"] = original.deterministic()
        if original.cut:
            return "not-run"
        if not original.lines:
            return "no-output"
        return "ok" if original.deterministic() else "nondeterministic"

    def judge_variant(self, part, original, folder, env, normalize=unchanged):
        result, failure, output = self.run_built(part["build"], folder, env)
        if result is not None:
            part["run"] = result
        trap = emulation_trap(output)
        if trap:  # the emulation said it cannot give AMD's answer
            part["verdict"], part["trap"] = "emulation-trap", trap
        elif failure == "run" and result.get("timeout"):
            part["verdict"] = "timeout"
        elif failure:
            part["verdict"] = VARIANT_FAILURE[failure]
        elif not original.lines:
            part["verdict"] = "no-output"
        else:
            part["verdict"], difference = original.judge(comparable_lines(output), normalize)
            if difference:
                part["difference"] = difference

    def summary(self):
        return summarize([list(self.results.values())], self.manifest["benchmarks"], self.sm)

    def document(self):
        return dict(super().document(), mode="wave64")

    @staticmethod
    def unreached(name):
        return {"name": name, "cudaVerdict": "not-run", "variants": {}}


def merge(runs):
    """{name: record} of several runs' records (a list per run, earliest
    first): a finished record replaces any earlier one, an unfinished one
    only an unfinished one."""
    merged = {}
    for records in runs:
        for r in records:
            if wave64_finished(r) or not wave64_finished(merged.get(r["name"], r)):
                merged[r["name"]] = r
    return merged


def verdict(record, variant):
    return record.get("variants", {}).get(variant, {}).get("verdict")


def plain_fine(record):
    """The plain translation prints the same: in this run where it ran
    (--with-plain), else in the earlier gpu-dev.json run."""
    if verdict(record, "plain") is not None:
        return verdict(record, "plain") == "same"
    return record.get("plainVerdictBefore") == "same"


def summary_lists(records):
    """The named lists of the summary (each count is a list's length)."""
    ran = [r for r in records if r.get("cudaVerdict") == "ok"
           and verdict(r, "wave64") not in (None, "not-run")]
    severe = lambda r: r["w64"]["error"] + r["w64"]["warning"] > 0
    differs = [r for r in ran if verdict(r, "wave64") in FAILED and plain_fine(r)]
    cannot = ("timeout", "emulation-trap")  # no verdict on wave64 either way
    fixed = [r for r in ran if verdict(r, "fixed") not in (None, "not-run")]
    names = lambda rs: sorted(r["name"] for r in rs)
    return {
        "benchmarks_run": names(ran),
        "translated_differs": names(differs),
        "translated_build_failures": names(r for r in differs if verdict(r, "wave64") == "build-failure"),
        "translated_run_failures": names(r for r in differs if verdict(r, "wave64") == "run-failure"),
        "translated_differs_with_w64": names(r for r in differs if severe(r)),
        "translated_failed_plain_too": names(r for r in ran if verdict(r, "wave64") in FAILED
                                             and not plain_fine(r)),
        "translated_same_with_w64_error": names(r for r in ran if verdict(r, "wave64") == "same"
                                                and r["w64"]["error"] > 0),
        "translated_timeouts": names(r for r in ran if verdict(r, "wave64") == "timeout"),
        "translated_emulation_traps": names(r for r in ran if verdict(r, "wave64") == "emulation-trap"),
        "twin_differs": names(r for r in ran if verdict(r, "twin") in FAILED),
        "twin_timeouts_or_traps": names(r for r in ran if verdict(r, "twin") in cannot),
        "twin_build_failures": names(r for r in ran if verdict(r, "twin") == "build-failure"),
        "fixed_run": names(fixed),
        "fixed_differs": names(r for r in fixed if verdict(r, "fixed") in FAILED),
        "fixed_timeouts_or_traps": names(r for r in fixed if verdict(r, "fixed") in cannot),
        "fixed_same_where_translated_differs": names(
            r for r in fixed if verdict(r, "fixed") == "same" and verdict(r, "wave64") in FAILED),
        "nondeterministic": names(r for r in records if r.get("cudaVerdict") == "nondeterministic"),
        "not_finished": names(r for r in records if not wave64_finished(r)),
    }


def summarize(runs, selected=None, sm="90"):
    """The summary of one run's records, or of several partial runs
    merged (a list of record lists, earliest first)."""
    records = list(merge(runs).values())
    lists = summary_lists(records)
    summary = {"sm": sm, "benchmarks": len(selected) if selected is not None else len(records),
               "finished": len(records) - len(lists["not_finished"]),
               "cudaVerdicts": tally(r.get("cudaVerdict") for r in records),
               "variantVerdicts": {v: tally(verdict(r, v) for r in records if verdict(r, v))
                                   for v in ("wave64", "twin", "fixed", "plain")}}
    summary.update({key: len(names) for key, names in lists.items()})
    summary["lists"] = lists
    return summary


def tally(values):
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return dict(sorted(counts.items()))


def merge_files(paths, out):
    runs = []
    for path in paths:
        with open(path) as f:
            runs.append(json.load(f)["benchmarks"])
    merged = merge(runs)
    write_json(out, {"mode": "wave64", "summary": summarize(runs),
                     "benchmarks": [merged[n] for n in sorted(merged)]})


def main(argv=None):
    args = parse_args(argv)
    if args.merge:
        merge_files(args.merge, args.out)
        results = True
    else:
        results = (Wave64Runner if args.wave64 else Runner)(args).run_all()
    with open(args.out) as f:
        print(json.dumps(json.load(f)["summary"], indent=1))
    return 0 if results else 1


if __name__ == "__main__":
    sys.exit(main())
