#!/usr/bin/env python3
"""Unit tests of the corpus runner's GPU mode that need no GPU: the hipcc
flags hipcc_nvidia.py gives nvcc, and how gpu_run.py compares two outputs."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_run  # noqa: E402
import hipcc_nvidia  # noqa: E402


class HipccFlags(unittest.TestCase):
    def test_compile_line_becomes_nvcc_cuda_compile(self):
        args = hipcc_nvidia.translate(["-std=c++17", "-Wall", "--offload-arch=gfx906", "-O3",
                                       "-c", "main.cu", "-o", "main.o"])
        self.assertEqual(args[:2], ["-x", "cu"])
        self.assertIn("-Xcompiler", args)
        self.assertEqual(args[args.index("-Xcompiler") + 1], "-Wall")
        self.assertFalse(any("offload-arch" in a for a in args))
        self.assertEqual(args[args.index("-o") + 1], "main.o")

    def test_link_line_reads_objects_as_objects(self):
        args = hipcc_nvidia.translate(["main.o", "util.o", "-o", "main", "-lm"])
        self.assertNotIn("-x", args)

    def test_hip_flags_renamed(self):
        args = hipcc_nvidia.translate(["-fgpu-rdc", "-ffast-math", "-fgpu-default-stream=per-thread",
                                       "--offload-arch", "gfx90a", "-c", "k.hip"])
        self.assertEqual(args[2:5], ["-rdc=true", "--use_fast_math", "--default-stream=per-thread"])
        self.assertNotIn("gfx90a", args)

    def test_device_only_flags(self):
        args = hipcc_nvidia.translate(["-fgpu-flush-denormals-to-zero", "-Xarch_device",
                                       "-funsafe-math-optimizations", "-Xarch_device", "-mwavefrontsize64",
                                       "-Xarch_host", "-fopenmp", "-c", "k.hip"])
        self.assertEqual(args[2:], ["-ftz=true", "--use_fast_math", "-Xcompiler", "-fopenmp", "-c", "k.hip"])

    def test_amd_only_flags_dropped(self):
        args = hipcc_nvidia.translate(["-O3", "-munsafe-fp-atomics", "-c", "k.cu"])
        self.assertEqual(args, ["-x", "cu", "-O3", "-c", "k.cu"])
        self.assertEqual(hipcc_nvidia.translate(["a.o", "-fgpu-rdc", "--hip-link", "-o", "a"]),
                         ["a.o", "-rdc=true", "-o", "a"])


class OutputComparison(unittest.TestCase):
    def test_timing_lines_blanks_and_pointers_left_out(self):
        output = "result: 42\nkernel time 1.5 ms\n\nBandwidth: 3 GB/s\nbuffer at 0x7ffd12345678\nPASS\n"
        self.assertEqual(gpu_run.comparable_lines(output), ["result: 42", "buffer at 0x?", "PASS"])

    def test_lines_the_original_varies_are_not_compared(self):
        first, again = ["seed 1", "sum 10"], ["seed 2", "sum 10"]
        self.assertTrue(gpu_run.stable_compare(first, again, ["seed 3", "sum 10"]))
        self.assertFalse(gpu_run.stable_compare(first, again, ["seed 3", "sum 11"]))
        self.assertFalse(gpu_run.stable_compare(first, again, ["sum 10"]))

    def test_first_difference_names_the_line(self):
        self.assertEqual(gpu_run.first_difference(["a", "b"], ["a", "c"]),
                         {"line": 2, "cuda": "b", "translated": "c"})
        self.assertIsNone(gpu_run.first_difference(["a"], ["a"]))


if __name__ == "__main__":
    unittest.main()
