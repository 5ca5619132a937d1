#!/usr/bin/env python3
"""Unit tests of the corpus runner's HIP 6.4 column (--hip64): which columns
run, which files it compiles with which command, and how its pairs count."""
import argparse
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_corpus  # noqa: E402
import golden  # noqa: E402  (run_corpus put testsuite/lib on the path)


def options(**given):
    defaults = dict(no_compile=False, nvidia=False, hip64=None, clang="clang++-22")
    return argparse.Namespace(**dict(defaults, **given))


def unit(path, **results):
    return dict({"path": path, "twin": path}, **results)


def record(name, units, **columns):
    return {"name": name, "compile": dict({"units": units}, **columns)}


class Columns(unittest.TestCase):
    def test_hip64_runs_without_the_hipcc_column(self):
        self.assertEqual(run_corpus.compile_platforms(options(no_compile=True, hip64="/p")), ["hip64"])
        self.assertEqual(run_corpus.compile_platforms(options(nvidia=True, hip64="/p")),
                         ["amd", "nvidia", "hip64"])
        self.assertEqual(run_corpus.compile_platforms(options(no_compile=True)), [])

    def test_command_is_the_golden_hip64_step(self):
        cmd = run_corpus.hip64_command(options(hip64="/p"), ["-DX"], "a.cu")
        self.assertEqual(cmd, ["clang++-22"] + golden.HIP64_FLAGS
                         + ["--hip-path=/p/usr", "-isystem", "/p/usr/include", "-DX", "a.cu"])


class Tasks(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        root = self.tmp.name
        self.corpus, self.work = os.path.join(root, "corpus"), os.path.join(root, "work")
        for rel in ("b-cuda/main.cu", "b-cuda/only.cu", "b-hip/main.cu", "work/b-out/main.cu",
                    "work/hip64/b-out/main.cu"):
            path = os.path.join(root, rel if rel.startswith("work") else "corpus/" + rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "w").close()

    def tearDown(self):
        self.tmp.cleanup()

    def tasks(self):
        files = [{"path": p, "header": False, "parseMode": "ast"} for p in ("main.cu", "only.cu")]
        rec = {"name": "b", "files": files,
               "makefileFlags": {"defines": [], "includes": [], "std": "c++17"}}
        args = argparse.Namespace(corpus=self.corpus, platforms=["amd", "hip64"])
        return rec, run_corpus.compile_tasks(rec, args, self.work)

    def test_hip64_compiles_its_own_translation_and_the_same_twin(self):
        _, tasks = self.tasks()
        sources = {(t[0], t[2], os.path.relpath(t[3], self.tmp.name)) for t in tasks}
        self.assertEqual(sources, {
            ("amd", "translated", "work/b-out/main.cu"), ("amd", "twin", "corpus/b-hip/main.cu"),
            ("amd", "translated", "work/b-out/only.cu"),
            ("hip64", "translated", "work/hip64/b-out/main.cu"),
            ("hip64", "twin", "corpus/b-hip/main.cu"),
            ("hip64", "translated", "work/hip64/b-out/only.cu")})

    def test_a_unit_without_twin_fails_the_twin_side_of_each_column(self):
        rec, _ = self.tasks()
        only = [u for u in rec["compile"]["units"] if u["path"] == "only.cu"][0]
        self.assertEqual((only["twinOk"], only["hip64TwinOk"]), (False, False))
        self.assertEqual(only["hip64TwinError"], "no hand-written twin found")


class Summary(unittest.TestCase):
    def test_pairs_are_comparable_where_the_twin_compiles_with_hip64(self):
        records = [
            # the twin compiles with 6.4 only: comparable in the 6.4 column alone
            record("a", [unit("a.cu", translatedOk=False, twinOk=False, hip64TranslatedOk=True,
                              hip64TwinOk=True, hip64TranslatedError=None)],
                   translatedOk=False, comparable=False, hip64TranslatedOk=True, hip64Comparable=True),
            record("b", [unit("b.cu", translatedOk=True, twinOk=True, hip64TranslatedOk=False,
                              hip64TwinOk=True, hip64TranslatedError="b.cu:1:1: error: x 7")],
                   translatedOk=True, comparable=True, hip64TranslatedOk=False, hip64Comparable=True),
            # the twin compiles with hipcc only: comparable in the 5.2 column alone
            record("c", [unit("c.cu", translatedOk=True, twinOk=True, hip64TranslatedOk=True,
                              hip64TwinOk=False, hip64TranslatedError=None)],
                   translatedOk=True, comparable=True, hip64TranslatedOk=True, hip64Comparable=False),
            record("d", [unit("d.cu", translatedOk=True, twinOk=False, hip64TranslatedOk=True,
                              hip64TwinOk=True, hip64TranslatedError=None)],
                   translatedOk=True, comparable=False, hip64TranslatedOk=True, hip64Comparable=True),
        ]
        s = run_corpus.compile_summary(records, "hip64")
        self.assertEqual((s["comparablePairs"], s["translatedPairsOk"], s["translatedPairsOkPercent"]),
                         (3, 2, 66.7))
        self.assertEqual((s["translatedUnitsOk"], s["twinUnitsOk"]), (3, 3))
        self.assertEqual((s["comparableBothPairs"], s["translatedPairsOkBoth"]), (1, 0))
        self.assertEqual(s["topCompileErrors"], [["error: x N", 1]])
        self.assertIn("--hip-path=HIP64_PREFIX/usr", s["command"])

    def test_without_the_hipcc_column_there_is_no_both_count(self):
        records = [record("a", [unit("a.cu", hip64TranslatedOk=True, hip64TwinOk=True,
                                     hip64TranslatedError=None)],
                          hip64TranslatedOk=True, hip64Comparable=True)]
        s = run_corpus.compile_summary(records, "hip64")
        self.assertEqual((s["comparablePairs"], s["translatedPairsOkPercent"]), (1, 100.0))
        self.assertNotIn("comparableBothPairs", s)


if __name__ == "__main__":
    unittest.main()
