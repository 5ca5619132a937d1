#!/usr/bin/env python3
"""Real-world-style CUDA programs with helper headers of their own (issue 31):
each is translated as a tree for --hip-version 6.4, must give no error
finding, and every translated unit must compile against HIP 6.4 (the golden
hip64 command, no define of ours) and, where the program's APIs exist there,
through HIP's NVIDIA path (nvcc with the project's compat headers).

- solver: error helpers for cudaError_t and CUresult (an overload collision),
  helper_math-style float2 operators (HIP 6.4 declares two of them), graphs in
  CUDA 11's and 12's cudaGraphInstantiate forms, CUDA's C++ overloads
  (cudaEventCreate with flags, cudaMallocHost with flags, a typed
  cudaHostGetDevicePointer), mixed-sign min, umin, atomicAdd on __half,
  __fadd_rd, atomicInc_system, and calls that leave out arguments CUDA
  defaults and HIP does not (cudaLaunchCooperativeKernel, cudaMalloc3DArray,
  a two-argument cudaGraphInstantiate).
- stats: bf16 <-> half casts, htanh, block-scope atomics, atomicAdd on
  __nv_bfloat16, CUDA 13's cudaMemAdvise / cudaMemPrefetchAsync. HIP 6.4 only:
  the compat headers are HIP 5.2's NVIDIA path, which has no hip_bf16.h.
- matmul: a full cuBLASLt GEMM (handle, descriptor, layouts, preference,
  heuristic, matmul with a bias + GELU epilogue and a workspace) behind
  error helpers for cudaError_t and cublasStatus_t, with range-for loops over
  handles. HIP 6.4 only (hipBLASLt is AMD's; HIP 5.2's NVIDIA path has none).
  At the default target, gfx906, the include gets the CU2DCU-ARCH warning
  (hipBLASLt has no gfx906 code); for gfx90a it gets none.

Exit 1 on any failure, also when a compiler is missing."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "lib"))
import golden  # noqa: E402

PROGRAMS = {"solver": {"nvidia": True}, "stats": {"nvidia": False},
            "matmul": {"nvidia": False, "arch_findings": {"gfx906": 1, "gfx90a": 0}}}


def findings(report, keep):
    with open(report) as f:
        return ["%s:%d %s %s" % (d["file"], d["line"], d["id"], d["message"][:120])
                for d in json.load(f)["diagnostics"] if keep(d)]


def arch_failures(name, a, tmp):
    """The CU2DCU-ARCH findings per --offload-arch, against the expected count."""
    failures = []
    for arch, expected in sorted(PROGRAMS[name].get("arch_findings", {}).items()):
        report = os.path.join(tmp, "%s-%s.json" % (name, arch))
        subprocess.run([a.tool, os.path.join(HERE, name), "-o", os.path.join(tmp, name + "-" + arch),
                        "--hip-version", "6.4", "--offload-arch", arch, "--json", report],
                       capture_output=True, text=True)
        got = findings(report, lambda d: d["id"] == "CU2DCU-ARCH") if os.path.exists(report) else None
        if got is None or len(got) != expected:
            failures.append("--offload-arch %s: %s CU2DCU-ARCH findings, expected %d"
                            % (arch, "no report" if got is None else len(got), expected))
    return failures


def compile_errors(command):
    p = subprocess.run(command, capture_output=True, text=True)
    return None if p.returncode == 0 else (p.stdout + p.stderr)[-2000:]


def check_program(name, a, tmp):
    failures = []
    out, report = os.path.join(tmp, name), os.path.join(tmp, name + ".json")
    run = subprocess.run([a.tool, os.path.join(HERE, name), "-o", out, "--hip-version", "6.4",
                          "--json", report], capture_output=True, text=True)
    if run.returncode != 0 or not os.path.exists(report):
        return ["cu2dcu exited %d:\n%s" % (run.returncode, run.stderr[-2000:])]
    failures += ["error finding: " + f for f in findings(report, lambda d: d["severity"] == "error")]
    failures += arch_failures(name, a, tmp)
    units = [f for f in sorted(os.listdir(out)) if f.endswith(".cu")]
    for unit in units:
        source = os.path.join(out, unit)
        error = compile_errors(golden.hip64_command(a.clang, a.hip64_prefix, ["-I", out], source))
        if error:
            failures.append("%s does not compile against HIP 6.4:\n%s" % (unit, error))
        if PROGRAMS[name]["nvidia"]:
            error = compile_errors([a.nvcc, "-x", "cu", "-arch=sm_90", "-std=c++17",
                                    "-D__HIP_PLATFORM_NVIDIA__", "-isystem", a.hip_nvidia_include,
                                    "-w", "-I", out, "-cuda", "-fdevice-syntax-only", "-o",
                                    os.devnull, source])
            if error:
                failures.append("%s does not compile through HIP's NVIDIA path:\n%s" % (unit, error))
    return failures if units else ["no translated unit in " + out]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--hip64-prefix", required=True)
    ap.add_argument("--hip-nvidia-include", required=True)
    ap.add_argument("--clang", default="clang++-22")
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    a = ap.parse_args()
    missing = [p for p in (a.clang, a.nvcc) if not shutil.which(p)]
    missing += [d for d in (os.path.join(a.hip64_prefix, "usr", "include", "hip"),
                            os.path.join(a.hip_nvidia_include, "hip")) if not os.path.isdir(d)]
    if missing:
        print("FAIL: missing " + ", ".join(missing))
        return 1
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in PROGRAMS:
            failures = check_program(name, a, tmp)
            print("%s %s" % ("PASS" if not failures else "FAIL", name))
            for f in failures:
                print("  " + f.replace("\n", "\n    "))
            failed += bool(failures)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
