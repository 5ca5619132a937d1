#!/usr/bin/env python3
"""Tests of the GPU mode's wave64 emulation run (gpu_stage.py --wave64,
gpu_run.py --wave64) that need no GPU: the summary's counts (nondeterministic
originals left out, partial runs merged, W64 findings attributed), the
selection's order, the stage's layout on a tiny fake corpus, and both
runners end to end on a stage whose Makefiles only print (make, no compiler)."""
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import textwrap
import unittest
from types import SimpleNamespace

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_run  # noqa: E402
import gpu_stage  # noqa: E402


def record(name, cuda="ok", plain_before="same", w64=None, **variants):
    counts = dict({"error": 0, "warning": 0, "note": 0, "checks": []}, **(w64 or {}))
    return {"name": name, "cudaVerdict": cuda, "plainVerdictBefore": plain_before,
            "w64": counts, "attempt": 1,
            "variants": {v: {"verdict": verdict} for v, verdict in variants.items()}}


class Summary(unittest.TestCase):
    def setUp(self):
        self.records = [
            record("same", wave64="same", twin="same"),
            record("differsW64", wave64="differs", twin="same", w64={"warning": 1}),
            record("noBuild", wave64="build-failure", twin="build-failure", w64={"note": 2}),
            record("runFails", wave64="run-failure", twin="differs", w64={"error": 1}),
            record("plainDiffered", plain_before="differs", wave64="differs", twin="same"),
            record("sameButError", wave64="same", twin="same", w64={"error": 2}),
            record("fixedRepairs", wave64="differs", twin="same", fixed="same", w64={"warning": 3}),
            record("fixedBreaks", wave64="same", twin="same", fixed="differs"),
            record("noisy", cuda="nondeterministic", wave64="differs", twin="differs",
                   fixed="differs", w64={"error": 1}),
            record("quiet", cuda="no-output", wave64="no-output", twin="no-output"),
            record("cut", wave64="not-run", twin="not-run"),
            {"name": "unreached", "cudaVerdict": "not-run", "variants": {}},
        ]

    def test_counts_and_lists(self):
        s = gpu_run.summarize([self.records], selected=[r["name"] for r in self.records])
        lists = s["lists"]
        self.assertEqual(lists["benchmarks_run"], sorted(
            ["same", "differsW64", "noBuild", "runFails", "plainDiffered", "sameButError",
             "fixedRepairs", "fixedBreaks"]))
        self.assertEqual(lists["translated_differs"],
                         ["differsW64", "fixedRepairs", "noBuild", "runFails"])
        self.assertEqual(lists["translated_build_failures"], ["noBuild"])
        self.assertEqual(lists["translated_run_failures"], ["runFails"])
        # a note is no W64 evidence; a warning or an error is
        self.assertEqual(lists["translated_differs_with_w64"],
                         ["differsW64", "fixedRepairs", "runFails"])
        self.assertEqual(lists["translated_failed_plain_too"], ["plainDiffered"])
        self.assertEqual(lists["translated_same_with_w64_error"], ["sameButError"])
        self.assertEqual(lists["twin_differs"], ["noBuild", "runFails"])
        self.assertEqual(lists["twin_build_failures"], ["noBuild"])
        self.assertEqual(lists["fixed_run"], ["fixedBreaks", "fixedRepairs"])
        self.assertEqual(lists["fixed_differs"], ["fixedBreaks"])
        self.assertEqual(lists["fixed_same_where_translated_differs"], ["fixedRepairs"])
        self.assertEqual(lists["nondeterministic"], ["noisy"])
        self.assertEqual(lists["not_finished"], ["cut", "unreached"])
        self.assertEqual((s["benchmarks"], s["finished"], s["benchmarks_run"],
                          s["translated_differs"], s["nondeterministic"]), (12, 10, 8, 4, 1))

    def test_plain_variant_run_here_decides_over_the_earlier_run(self):
        r = record("x", plain_before="differs", wave64="differs", plain="same")
        self.assertEqual(gpu_run.summarize([[r]])["lists"]["translated_differs"], ["x"])
        r = record("y", plain_before="same", wave64="differs", plain="differs")
        self.assertEqual(gpu_run.summarize([[r]])["lists"]["translated_differs"], [])

    def test_partial_runs_merge(self):
        first = [record("a", wave64="not-run"), record("b", wave64="differs"),
                 {"name": "c", "cudaVerdict": "not-run", "variants": {}}]
        second = [record("a", wave64="same"), record("b", cuda="not-run", wave64="not-run"),
                  record("d", wave64="same")]
        s = gpu_run.summarize([first, second])
        self.assertEqual(s["lists"]["benchmarks_run"], ["a", "b", "d"])  # b kept from the first
        self.assertEqual(s["lists"]["translated_differs"], ["b"])
        self.assertEqual(s["lists"]["not_finished"], ["c"])
        # a finished record of a later run replaces an earlier finished one
        third = [record("b", wave64="same")]
        self.assertEqual(gpu_run.summarize([first, second, third])["translated_differs"], 0)

    def test_timed_out_record_runs_again_once(self):
        r = record("t", wave64="run-failure")
        r["variants"]["wave64"]["run"] = {"timeout": True}
        self.assertFalse(gpu_run.wave64_finished(r))
        r["attempt"] = 2
        self.assertTrue(gpu_run.wave64_finished(r))


class CannotJudge(unittest.TestCase):
    """A timeout or an emulation trap says nothing about wave64 either way."""

    def test_timeouts_and_traps_are_not_differences(self):
        records = [record("slow", wave64="timeout", twin="timeout", w64={"warning": 1}),
                   record("trapped", wave64="emulation-trap", twin="emulation-trap"),
                   record("real", wave64="differs", twin="same", w64={"warning": 1})]
        lists = gpu_run.summarize([records])["lists"]
        self.assertEqual(lists["translated_differs"], ["real"])
        self.assertEqual(lists["translated_timeouts"], ["slow"])
        self.assertEqual(lists["translated_emulation_traps"], ["trapped"])
        self.assertEqual(lists["twin_differs"], [])
        self.assertEqual(lists["twin_timeouts_or_traps"], ["slow", "trapped"])
        self.assertEqual(lists["benchmarks_run"], ["real", "slow", "trapped"])

    def judge(self, result, failure, output):
        runner = SimpleNamespace(run_built=lambda *a: (result, failure, output))
        original = gpu_run.Original(None, None, ["PASS"])
        part = {"build": {"ok": True}}
        gpu_run.Wave64Runner.judge_variant(runner, part, original, "folder", {})
        return part["verdict"]

    def test_variant_verdicts(self):
        self.assertEqual(self.judge({"ok": False, "timeout": True}, "run", ""), "timeout")
        self.assertEqual(self.judge({"ok": False, "timeout": False}, "run", "x"), "run-failure")
        self.assertEqual(self.judge({"ok": True}, None, "cu2dcu wave64 emulation: op: why\nPASS"),
                         "emulation-trap")
        self.assertEqual(self.judge({"ok": True}, None, "PASS"), "same")

    def test_emulation_trap_is_read_from_the_output(self):
        output = "PASS\ncu2dcu wave64 emulation: __shfl in block (0,0,0): why\nFAIL\n"
        self.assertEqual(gpu_run.emulation_trap(output),
                         "cu2dcu wave64 emulation: __shfl in block (0,0,0): why")
        self.assertIsNone(gpu_run.emulation_trap("PASS\n"))
        self.assertIsNone(gpu_run.emulation_trap(None))

    def test_twin_prints_api_and_input_paths_its_own_way(self):
        normalize = gpu_run.twin_lines("nms")
        self.assertEqual(normalize(["Read ../nms-cuda/detections.txt", "Evaluate cudaFree"]),
                         normalize(["Read ./detections.txt", "Evaluate hipFree"]))
        self.assertEqual(normalize(["(detections.txt): 2997", "! ./hash/a.txt : missing"]),
                         normalize(["(../nms-cuda/detections.txt): 2997",
                                    "! ../bitcracker-cuda/hash/a.txt : missing"]))
        self.assertNotEqual(normalize(["sum 1"]), normalize(["sum 2"]))


class Selection(unittest.TestCase):
    def test_order_and_filter(self):
        def gpu(name, verdict, seconds):
            return {"name": name, "verdict": verdict, "cudaRun": {"seconds": seconds}}
        gpu_records = [gpu("slow", "same", 9.0), gpu("fast", "differs", 1.0),
                       gpu("warpSlow", "same", 8.0), gpu("warpFast", "same", 2.0),
                       gpu("quietWarp", "no-output", 0.5), gpu("quiet", "no-output", 0.1),
                       gpu("broken", "cuda-run", 1.0), gpu("notComparable", "same", 1.0)]
        dev = [{"name": r["name"], "compile": {"nvidiaComparable": r["name"] != "notComparable"}}
               for r in gpu_records]
        order = gpu_stage.selection(gpu_records, dev, lambda n: "arp" in n)
        self.assertEqual([e["name"] for e in order],
                         ["warpFast", "warpSlow", "fast", "slow", "quietWarp", "quiet"])
        self.assertEqual(order[0], {"name": "warpFast", "warpRelevant": True, "cudaSeconds": 2.0,
                                    "noOutput": False, "previousVerdict": "same"})

    def test_warp_features(self):
        self.assertTrue(gpu_stage.WARP_FEATURES.search("v = __shfl_down_sync(m, v, 1);"))
        self.assertTrue(gpu_stage.WARP_FEATURES.search("if (__all(x)) return;"))
        self.assertFalse(gpu_stage.WARP_FEATURES.search("p = __alloc(n); // warp_size"))


MAKEFILE = "all:\n\t@{build}\nrun:\n\t@{run}\n\t@echo 'kernel time 1.5 ms'\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def makefile(folder, run, build="true"):
    write(os.path.join(folder, "Makefile"), MAKEFILE.format(build=build, run=run))


class FakeCorpus(unittest.TestCase):
    """A corpus of three benchmarks, their translations and reports, and
    the results files: warp (twin builds ../warp-cuda/main.cu, the original
    includes ../helper-cuda/helper.h, a W64 warning, a fix applied), calm (no warp feature, its fix withheld) and
    quiet (its original printed only timings)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="gpu-wave64-test-")
        self.addCleanup(shutil.rmtree, self.tmp)
        p = lambda *parts: os.path.join(self.tmp, *parts)
        for name in ("warp", "calm", "quiet", "unrun"):
            write(p("corpus", name + "-cuda", "main.cu"), "int main() { return 0; }\n")
            write(p("corpus", name + "-hip", "Makefile"), "run:\n\t./main\n")
            for work in ("plain", "fixed"):
                write(p(work, name + "-out", "main.cu"), "int main() { return 0; }\n")
                write(p(work, name + ".json"), json.dumps({"diagnostics": []}))
        write(p("corpus", "warp-hip", "Makefile"), "source = ../warp-cuda/main.cu\n")
        write(p("corpus", "warp-hip", "k.h"), "int lane = threadIdx.x % warpSize;\n")
        write(p("corpus", "calm-hip", "Makefile"), "CFLAGS = -I../helper-cuda -I../absent-cuda\n")
        write(p("corpus", "helper-cuda", "helper.h"), "#define HELP 1\n")
        write(p("corpus", "warp-cuda", "main.cu"), '#include "../helper-cuda/helper.h"\n')
        write(p("plain", "helper-out", "helper.h"), "#define HELP 1 // translated\n")
        finding = {"id": "W64-LANE-MASK", "severity": "warning", "file": "main.cu", "line": 3,
                   "column": 1, "fixes": [{"applied": False}]}
        write(p("plain", "warp.json"), json.dumps({"diagnostics": [
            finding, dict(finding, id="CU2DCU-UNMAPPED", severity="error")]}))
        write(p("fixed", "warp.json"), json.dumps({"diagnostics": [
            dict(finding, fixes=[{"applied": True}])]}))
        write(p("fixed", "calm.json"), json.dumps({"diagnostics": [
            dict(finding, fixes=[{"applied": True}], fixWithheld="W64-OTHER")]}))
        for include in ("plain-include", "w64-include"):
            write(p(include, "hip", "hip_runtime.h"), "// " + include + "\n")
        gpu = [{"name": "warp", "verdict": "same", "cudaRun": {"seconds": 5.0}},
               {"name": "calm", "verdict": "same", "cudaRun": {"seconds": 1.0}},
               {"name": "quiet", "verdict": "no-output", "cudaRun": {"seconds": 0.1}},
               {"name": "unrun", "verdict": "cuda-run", "cudaRun": {"seconds": 0.1}}]
        write(p("gpu.json"), json.dumps({"benchmarks": gpu}))
        write(p("dev.json"), json.dumps({"benchmarks": [
            {"name": r["name"], "compile": {"nvidiaComparable": True}} for r in gpu]}))
        self.p = p

    def stage(self, *extra):
        p = self.p
        with contextlib.redirect_stdout(io.StringIO()):
            self.run_stage(extra)
        with open(p("stage", "manifest.json")) as f:
            return json.load(f)

    def run_stage(self, extra):
        p = self.p
        gpu_stage.main(["--wave64", "--work", p("plain"), "--fixed-work", p("fixed"),
                        "--corpus", p("corpus"), "--results", p("dev.json"),
                        "--gpu-results", p("gpu.json"), "--hip-nvidia-include", p("plain-include"),
                        "--hip-nvidia-wave64-include", p("w64-include"), "--out", p("stage")]
                       + list(extra))


class StageLayout(FakeCorpus):
    def test_layout_and_manifest(self):
        manifest = self.stage()
        self.assertEqual(manifest["mode"], "wave64")
        self.assertEqual(manifest["benchmarks"], ["warp", "calm", "quiet"])
        listing = sorted(os.path.relpath(os.path.join(root, f), self.p("stage"))
                         for root, _, files in os.walk(self.p("stage")) for f in files)
        self.assertEqual(listing, [
            "cuda/calm-cuda/main.cu", "cuda/helper-cuda/helper.h", "cuda/quiet-cuda/main.cu",
            "cuda/warp-cuda/main.cu", "fixed/warp-cuda/main.cu",
            "hip-nvidia-include/hip/hip_runtime.h", "hip-nvidia-wave64-include/hip/hip_runtime.h",
            "manifest.json", "translated/calm-cuda/main.cu", "translated/helper-cuda/helper.h",
            "translated/quiet-cuda/main.cu",
            "translated/warp-cuda/main.cu", "twin/calm-hip/Makefile", "twin/quiet-hip/Makefile",
            "twin/warp-hip/Makefile", "twin/warp-hip/k.h"])
        warp, calm = manifest["records"]["warp"], manifest["records"]["calm"]
        self.assertEqual(warp["w64Findings"], [{"id": "W64-LANE-MASK", "severity": "warning",
                                                "file": "main.cu", "line": 3}])
        self.assertEqual((warp["fixesApplied"], calm["fixesApplied"]), (1, 0))
        self.assertEqual((warp["warpRelevant"], calm["warpRelevant"]), (True, False))
        self.assertEqual((warp["twinSiblings"], calm["twinSiblings"]), (["warp-cuda"], ["helper-cuda"]))
        self.assertEqual((warp["cudaSiblings"], calm["cudaSiblings"]), (["helper-cuda"], []))
        self.assertEqual((warp["cudaSeconds"], manifest["records"]["quiet"]["noOutput"]), (5.0, True))

    def test_only(self):
        self.assertEqual(self.stage("--only", "calm,unrun")["benchmarks"], ["calm"])


class Runners(FakeCorpus):
    """Both runners on a stage whose Makefiles print (make is all they need)."""

    def setUp(self):
        super().setUp()
        self.manifest = self.stage()
        s = lambda *parts: self.p("stage", *parts)
        makefile(s("cuda", "warp-cuda"), "echo 'sum 10'")
        # the twin builds only with its original beside it
        makefile(s("twin", "warp-hip"), "echo 'sum 10'", build="test -f ../warp-cuda/Makefile")
        # the fixed and plain translations build only with the translated ../helper-cuda beside them
        helper = "grep -q translated ../helper-cuda/helper.h"
        makefile(s("fixed", "warp-cuda"), "echo 'sum 10'", build=helper)
        makefile(s("translated", "warp-cuda"), "echo 'sum 11'", build=helper)
        makefile(s("cuda", "calm-cuda"), "echo \"seed $$(date +%N)\"")
        makefile(s("translated", "calm-cuda"), "echo 'seed 0'")
        makefile(s("twin", "calm-hip"), "echo 'seed 0'", build="false")
        makefile(s("cuda", "quiet-cuda"), "true")
        makefile(s("translated", "quiet-cuda"), "exit 3")
        makefile(s("twin", "quiet-hip"), "true")

    def args(self, **given):
        defaults = dict(stage=self.p("stage"), out=self.p("out.json"), jobs=2, deadline=120,
                        run_timeout=20, only=None, previous=None, nvcc="nvcc", with_plain=False)
        return SimpleNamespace(**dict(defaults, **given))

    def test_wave64_runner(self):
        results = gpu_run.Wave64Runner(self.args(with_plain=True)).run_all()
        warp, calm, quiet = results["warp"], results["calm"], results["quiet"]
        self.assertEqual(warp["cudaVerdict"], "ok")
        self.assertEqual({k: v["verdict"] for k, v in warp["variants"].items()},
                         {"wave64": "differs", "twin": "same", "fixed": "same", "plain": "differs"})
        self.assertEqual(warp["variants"]["wave64"]["difference"],
                         {"line": 1, "cuda": "sum 10", "translated": "sum 11"})
        self.assertEqual(warp["w64"]["checks"], ["W64-LANE-MASK"])
        self.assertEqual(calm["cudaVerdict"], "nondeterministic")
        self.assertEqual(calm["variants"]["twin"]["verdict"], "build-failure")
        self.assertEqual(quiet["cudaVerdict"], "no-output")
        self.assertEqual(quiet["variants"]["wave64"]["verdict"], "run-failure")
        with open(self.p("out.json")) as f:
            summary = json.load(f)["summary"]
        self.assertEqual(summary["lists"]["nondeterministic"], ["calm"])
        self.assertEqual(summary["lists"]["benchmarks_run"], ["warp"])
        self.assertEqual(summary["lists"]["translated_failed_plain_too"], ["warp"])
        self.assertEqual(summary["lists"]["fixed_same_where_translated_differs"], ["warp"])

    def test_smaller_inputs_reach_the_original_and_every_variant(self):
        s = lambda *parts: self.p("stage", *parts)
        self.manifest["records"]["warp"]["runArgs"] = "7"
        write(s("manifest.json"), json.dumps(self.manifest))
        for folder, prints in ((s("cuda", "warp-cuda"), "sum $*"), (s("twin", "warp-hip"), "sum $*"),
                               (s("fixed", "warp-cuda"), "sum $*"),
                               (s("translated", "warp-cuda"), "sum 7")):
            write(os.path.join(folder, "prog"), "#!/bin/sh\necho \"%s\"\n" % prints)
            os.chmod(os.path.join(folder, "prog"), 0o755)
            makefile(folder, "$(LAUNCHER) ./prog 10")
        warp = gpu_run.Wave64Runner(self.args(only="warp")).run_all()["warp"]
        self.assertEqual(warp["runArgs"], "7")
        self.assertEqual({k: v["verdict"] for k, v in warp["variants"].items()},
                         {"wave64": "same", "twin": "same", "fixed": "same"})

    def test_previous_run_goes_on(self):
        gpu_run.Wave64Runner(self.args(only="warp")).run_all()
        makefile(self.p("stage", "cuda", "warp-cuda"), "exit 9")  # would fail if it ran again
        gpu_run.Wave64Runner(self.args(previous=self.p("out.json"), out=self.p("two.json"))).run_all()
        with open(self.p("two.json")) as f:
            document = json.load(f)
        self.assertEqual([r["name"] for r in document["benchmarks"]], ["calm", "quiet", "warp"])
        self.assertEqual(document["summary"]["lists"]["benchmarks_run"], ["warp"])

    def test_deadline_cut_is_not_run(self):
        results = gpu_run.Wave64Runner(self.args(deadline=25)).run_all()
        self.assertEqual({r["cudaVerdict"] for r in results.values()}, {"not-run"})
        with open(self.p("out.json")) as f:
            self.assertEqual(json.load(f)["summary"]["not_finished"], 3)

    def test_variant_cut_by_deadline_is_not_run(self):
        class Cut(gpu_run.Wave64Runner):
            def execute(self, folder, env=None):  # the deadline comes before the translation runs
                if os.sep + "translated" + os.sep in folder:
                    return {"ok": False, "error": "not-run"}, None
                return super().execute(folder, env)
        warp = Cut(self.args(only="warp")).run_all()["warp"]
        self.assertEqual(warp["variants"]["wave64"]["verdict"], "not-run")
        self.assertEqual(warp["variants"]["twin"]["verdict"], "same")
        with open(self.p("out.json")) as f:
            lists = json.load(f)["summary"]["lists"]
        self.assertEqual((lists["not_finished"], lists["benchmarks_run"], lists["translated_differs"]),
                         (["warp"], [], []))

    def test_plain_runner_unchanged(self):
        write(self.p("stage", "manifest.json"), json.dumps({"benchmarks": ["warp", "calm"]}))
        results = gpu_run.Runner(self.args()).run_all()
        self.assertEqual(results["warp"]["verdict"], "differs")
        self.assertTrue(results["warp"]["cudaRerunSame"])
        self.assertEqual(results["calm"]["verdict"], "same")  # only the varying line differs
        self.assertFalse(results["calm"]["cudaRerunSame"])


if __name__ == "__main__":
    unittest.main()
