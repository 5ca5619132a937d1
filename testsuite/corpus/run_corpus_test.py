#!/usr/bin/env python3
"""Unit tests of the corpus runner's residual-identifier count: which names
count as CUDA names left in the output, and which do not."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_corpus  # noqa: E402

MAP = """family: test
entries:
- {cuda: cudaMalloc, hip: hipMalloc, kind: function}
- {cuda: __ldg, hip: __ldg, kind: function}
- {cuda: cudaFuncCache, kind: type, status: unsupported, reason: "none"}
- {cuda: "cub::", hip: "hipcub::", kind: namespace}
- {cuda: "cuda_runtime.h", hip: "hip/hip_runtime.h", kind: header}
"""


class ResidualCount(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        with open(os.path.join(self.tmp.name, "test.yaml"), "w") as f:
            f.write(MAP)
        self.names = run_corpus.map_cuda_names(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def count(self, code, reported=()):
        with open(os.path.join(self.tmp.name, "a.cu"), "w") as f:
            f.write(code)
        counts = run_corpus.residual_counts([{"path": "a.cu"}], self.tmp.name, self.names,
                                            {"a.cu": set(reported)})
        return counts["a.cu"]

    def test_names_hip_spells_the_same_do_not_count(self):
        self.assertEqual(self.names, {"cudaMalloc", "cudaFuncCache", "cub::", "cuda_runtime.h"})

    def test_left_names_prefixes_and_includes_count(self):
        code = '#include <cuda_runtime.h>\nvoid f() { cudaMalloc(0, 1); cub::BlockReduce<int> r; __ldg(p); }\n'
        self.assertEqual(self.count(code), {"cuda_runtime.h": 1, "cudaMalloc": 1, "cub::": 1})

    def test_comments_user_definitions_and_reported_names_do_not_count(self):
        code = ('// cudaMalloc in a comment\n#define cudaFuncCache int\n'
                'int cudaStat = 0; const char *s = "cudaMalloc"; cudaMalloc(0, 1);\n')
        self.assertEqual(self.count(code, reported={"cudaMalloc"}), {})

    def test_functions_the_program_defines_are_its_own(self):
        code = ('INLINE __hip_bfloat162 cudaMalloc(const float a,\n    const float b) {\n'
                '  return g(a, b);\n}\nvoid f() { if (cudaMalloc(1, 2)) {} }\n')
        self.assertEqual(self.count(code), {})
        self.assertEqual(self.count('void f() {\n  if (x) { cudaMalloc(1, 2); }\n}\n'),
                         {"cudaMalloc": 1})

    def test_names_of_a_declaration_list_are_the_programs_own(self):
        code = 'void f() { Real ajj, cudaMalloc, *cudaFuncCache; int i,j; cudaMalloc = 1; }\n'
        self.assertEqual(self.count(code), {})
        self.assertEqual(self.count('void f() { g(a, cudaMalloc); }\n'), {"cudaMalloc": 1})

    def test_shim_blocks_are_cu2dcus_own(self):
        shim = ('#ifndef CU2DCU_SHIM_cu2dcu_f\n#define CU2DCU_SHIM_cu2dcu_f\n'
                '#if defined(__HIP_PLATFORM_NVIDIA__)\n#include <cuda_runtime.h>\n'
                '#define cu2dcu_f(p) cudaMalloc(p, 1)\n#else\n#define cu2dcu_f(p) hipMalloc(p, 1)\n'
                '#endif\n#endif\n')
        self.assertEqual(self.count(shim + 'void g() { cu2dcu_f(0); }\n'), {})
        self.assertEqual(self.count(shim + 'void g() { cudaMalloc(0, 1); }\n'), {"cudaMalloc": 1})


if __name__ == "__main__":
    unittest.main()
