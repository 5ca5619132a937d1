#!/usr/bin/env python3
"""Self-test of report.py on synthetic sample JSON: ratios, % of limit, failures."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

VAL = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, VAL)
import report  # noqa: E402


def prog_json(program, results):
    return {"program": program, "backend": "x", "device": "Fake GPU", "warp_size": 32,
            "warmup": 1, "repeat": 3, "seed": 1, "results": results}


def va(name, ms, gbps, ok=True, **kw):
    r = {"name": name, "size": 1 << 20, "min_ms": ms * 0.98, "median_ms": ms, "bytes": 1,
         "gbps": gbps, "pass": ok, "max_err": 0, "tol": 0}
    r.update(kw)
    return r


def gemm(name, ms, gflops, ok=True, **kw):
    r = {"name": name, "size": 512, "min_ms": ms, "median_ms": ms, "flops": 1,
         "gflops": gflops, "pass": ok, "max_err": 1e-7, "tol": 1e-4}
    r.update(kw)
    return r


def write_tree(d, hip_scale=1.0, translated_scale=1.0, fail=False, drop=None, slow_add=False):
    files = {}
    for v, scale in (("cuda", 1.0), ("hip", hip_scale), ("translated", translated_scale),
                     ("cuda-rerun", 1.01)):
        add_gbps = 3000.0 if slow_add else 3900.0
        rs = [va("coalesced", 1.0 * scale, add_gbps / scale,
                 ok=not (fail and v == "translated")),
              va("strided_s4", 4.0 * scale, 1000.0 / scale, stride=4),
              va("memcpy_d2d", 0.7, 4200.0, reference=True)]
        if drop and v == "translated":
            rs = [r for r in rs if r["name"] != drop]
        files[f"{v}.vector_add.json"] = prog_json("vector_add", rs)
        files[f"{v}.sgemm.json"] = prog_json("sgemm", [gemm("naive", 100 * scale, 1000 / scale)])
    files["cuda.sgemm_blas.json"] = prog_json("sgemm_blas", [gemm("blas", 3, 40000, reference=True)])
    for n, j in files.items():
        with open(os.path.join(d, n), "w") as f:
            json.dump(j, f)
    with open(os.path.join(d, "hip.sgemm_blas.status"), "w") as f:
        f.write("skipped: hipBLAS not installed\n")


def run(d, *extra):
    return subprocess.run([sys.executable, os.path.join(VAL, "report.py"), "--results", d] +
                          list(extra), capture_output=True, text=True)


class Report(unittest.TestCase):
    def test_clean_run(self):
        with tempfile.TemporaryDirectory() as d:
            write_tree(d, hip_scale=1.02, translated_scale=1.03)
            r = run(d, "--strict")
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            with open(os.path.join(d, "report.json")) as f:
                rep = json.load(f)
            row = next(x for x in rep["rows"] if x["kernel"] == "coalesced")
            self.assertAlmostEqual(row["hip_over_cuda"], 1.02)
            self.assertAlmostEqual(row["translated_over_hip"], 1.03 / 1.02)
            self.assertAlmostEqual(row["variants"]["cuda"]["pct_limit"], 100 * 3900 / 4200)
            g = next(x for x in rep["rows"] if x["kernel"] == "naive")
            self.assertAlmostEqual(g["variants"]["cuda"]["pct_limit"], 100 * 1000 / 40000)
            self.assertTrue(all(c["ok"] for c in rep["checks"]), rep["checks"])
            self.assertTrue(any("hipBLAS" in n for n in rep["notes"]))
            with open(os.path.join(d, "report.md")) as f:
                self.assertIn("| vector_add | coalesced |", f.read())

    def test_verification_failure_fails(self):
        with tempfile.TemporaryDirectory() as d:
            write_tree(d, fail=True)
            r = run(d)
            self.assertEqual(r.returncode, 1)
            self.assertIn("translated vector_add coalesced: verification FAIL", r.stdout)

    def test_missing_kernel_fails(self):
        with tempfile.TemporaryDirectory() as d:
            write_tree(d, drop="strided_s4")
            r = run(d)
            self.assertEqual(r.returncode, 1)
            self.assertIn("kernel strided_s4 missing", r.stdout)

    def test_failed_program_fails(self):
        with tempfile.TemporaryDirectory() as d:
            write_tree(d)
            with open(os.path.join(d, "translated.reduction.status"), "w") as f:
                f.write("failed: build\n")
            self.assertEqual(run(d).returncode, 1)

    def test_perf_checks_only_fail_when_strict(self):
        with tempfile.TemporaryDirectory() as d:
            write_tree(d, hip_scale=1.2, slow_add=True)
            self.assertEqual(run(d).returncode, 0)
            r = run(d, "--strict")
            self.assertEqual(r.returncode, 1)
            self.assertIn("MISS: cuda: best vector_add variant", r.stdout)
            self.assertIn("MISS: hand-written HIP / CUDA time ratio", r.stdout)

    def test_empty_dir_fails(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(run(d).returncode, 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
