#!/usr/bin/env python3
"""Checks mappings/collisions/hip_declared.yaml against real compilers: a use
of each entry's function (or operator) must compile against HIP 5.2 (hipcc)
and HIP 6.4 (clang++-22 with the headers scripts/fetch-hip64.sh unpacks),
and must not compile with nvcc against CUDA. Exit 1 on a wrong entry, 2 when
a toolchain is missing (never a silent pass)."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "testsuite", "lib"))
import golden  # noqa: E402  (the HIP 6.4 compile command)

# A CUDA vector type for VECTOR: float4 has every arithmetic operator HIP declares.
VECTOR_PROBE = "float4"


def probe(entry):
    """Device code that uses the entry's function with its parameter types."""
    types = [VECTOR_PROBE if t == "VECTOR" else t for t in entry["parameters"]]
    decls = "".join("  %s a%d{};\n" % (t, i) for i, t in enumerate(types))
    fn = entry["function"]
    if fn.startswith("operator"):
        op = fn[len("operator"):]
        use = "a0 %s a1" % op if len(types) == 2 else "%sa0" % op
    else:
        use = "%s(%s)" % (fn, ", ".join("a%d" % i for i in range(len(types))))
    return "__device__ void probe() {\n%s  (void)(%s);\n}\n" % (decls, use)


def compiles(command, source_text, suffix):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "probe" + suffix)
        with open(path, "w") as f:
            f.write("#include <%s>\n%s" % ("cuda_runtime.h" if suffix == ".cu" else
                                           "hip/hip_runtime.h", source_text))
        run = subprocess.run(command(path), capture_output=True, text=True)
        return run.returncode == 0, (run.stdout + run.stderr).strip().splitlines()[:3]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--map", default=os.path.join(REPO, "mappings", "collisions", "hip_declared.yaml"))
    ap.add_argument("--hipcc", default=shutil.which("hipcc"))
    ap.add_argument("--clang", default=shutil.which("clang++-22"))
    ap.add_argument("--hip64-prefix", default=os.environ.get("CU2DCU_HIP64_PREFIX",
                                                              os.path.join(REPO, "build", "hip-6.4")))
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    a = ap.parse_args()
    missing = [name for name, path in (("hipcc", a.hipcc), ("clang++-22", a.clang), ("nvcc", a.nvcc))
               if not path or not os.path.exists(path)]
    if not os.path.isdir(os.path.join(a.hip64_prefix, "usr", "include", "hip")):
        missing.append("HIP 6.4 headers in " + a.hip64_prefix + " (scripts/fetch-hip64.sh)")
    if missing:
        print("error: missing toolchain: " + ", ".join(missing))
        return 2
    toolchains = [
        ("HIP 5.2", True, ".hip", lambda p: [a.hipcc, "-x", "hip", "--offload-arch=gfx906",
                                             "-std=c++17", "-fsyntax-only", p]),
        ("HIP 6.4", True, ".hip", lambda p: golden.hip64_command(a.clang, a.hip64_prefix, [], p)),
        ("CUDA", False, ".cu", lambda p: [a.nvcc, "-x", "cu", "-arch=sm_90", "-std=c++17", "-cuda",
                                          "-fdevice-syntax-only", "-o", os.devnull, p]),
    ]
    with open(a.map) as f:
        entries = yaml.safe_load(f)["entries"]
    errors = 0
    for entry in entries:
        signature = "%s(%s)" % (entry["function"], ", ".join(entry["parameters"]))
        for name, expected, suffix, command in toolchains:
            ok, output = compiles(command, probe(entry), suffix)
            if ok != expected:
                errors += 1
                print("%s: %s under %s, expected it %s" % (
                    signature, "compiles" if ok else "does not compile", name,
                    "to compile" if expected else "not to"))
                for line in output:
                    print("    " + line)
    print("%d entries, %d errors" % (len(entries), errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
