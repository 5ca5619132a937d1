#!/usr/bin/env python3
"""Self-test of compare_resources.py: identical trees pass; a translated tree whose
kernel spills, or lacks a kernel, or fails to build, fails.

The spill case is real, not synthetic: it rebuilds samples-hip/sgemm with CUDA's
`__launch_bounds__(NTHREADS, 2)` (what a literal translation of samples-cuda/sgemm
keeps), which HIP 5.2 turns into amdgpu_waves_per_eu(2) and which makes
sgemm_padded_dbuf spill on gfx906.
"""
import copy
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
VAL = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(VAL))
sys.path.insert(0, VAL)
import compare_resources  # noqa: E402
import hip_resources  # noqa: E402

HIPCC = os.environ.get("HIPCC", "hipcc")


def make_tree(dst, programs, edit=None):
    os.makedirs(dst)
    shutil.copytree(os.path.join(ROOT, "samples-hip", "common"), os.path.join(dst, "common"))
    for p in programs:
        shutil.copytree(os.path.join(ROOT, "samples-hip", p), os.path.join(dst, p))
    if edit:
        edit(dst)


@unittest.skipUnless(shutil.which(HIPCC), "hipcc not found")
class CompareResources(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="cmpres-")
        make_tree(os.path.join(cls.tmp, "hand"), ["sgemm", "reduction"])
        cls.hand = hip_resources.collect(os.path.join(cls.tmp, "hand"),
                                         os.path.join(cls.tmp, "hand-out"), ["gfx906"], HIPCC, [],
                                         log=lambda *a: None)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def run_cli(self, translated, handwritten):
        out = os.path.join(self.tmp, "cli-out")
        return subprocess.run([sys.executable, os.path.join(VAL, "compare_resources.py"),
                               "--translated", translated, "--handwritten", handwritten,
                               "--arch", "gfx906", "--out", out], capture_output=True, text=True)

    def test_identical_passes(self):
        rows, fails, _ = compare_resources.compare(self.hand, self.hand, ["gfx906"])
        self.assertEqual(fails, [])
        self.assertEqual(len(rows), 8)
        r = self.run_cli(os.path.join(self.tmp, "hand-out"), os.path.join(self.tmp, "hand-out"))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_missing_kernel_fails(self):
        t = copy.deepcopy(self.hand)
        del t["archs"]["gfx906"]["reduction"]["kernels"]["count_ballot"]
        _, fails, _ = compare_resources.compare(t, self.hand, ["gfx906"])
        self.assertTrue(any("count_ballot" in f and "missing" in f for f in fails), fails)

    def test_failed_build_fails(self):
        def broken(d):
            with open(os.path.join(d, "reduction", "reduction.cpp"), "a") as f:
                f.write("\nthis is not C++;\n")
        make_tree(os.path.join(self.tmp, "broken"), ["sgemm", "reduction"], broken)
        r = self.run_cli(os.path.join(self.tmp, "broken"), os.path.join(self.tmp, "hand-out"))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("translated build failed", r.stdout)

    def test_spilling_translation_fails(self):
        def cuda_bounds(d):
            p = os.path.join(d, "sgemm", "sgemm.cpp")
            with open(p) as f:
                s = f.read()
            s2 = s.replace("__global__ void SGEMM_LAUNCH_BOUNDS\nsgemm_padded_dbuf",
                           "__global__ void __launch_bounds__(NTHREADS, 2)\nsgemm_padded_dbuf")
            self.assertNotEqual(s, s2)
            with open(p, "w") as f:
                f.write(s2)
        make_tree(os.path.join(self.tmp, "spill"), ["sgemm", "reduction"], cuda_bounds)
        r = self.run_cli(os.path.join(self.tmp, "spill"), os.path.join(self.tmp, "hand-out"))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("sgemm_padded_dbuf: translated spills", r.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
