#!/usr/bin/env python3
"""Checks mappings/collisions/hip_declared.yaml against real compilers: a
program's own definition of each entry's function (or operator), and a use of
it, must fail to compile against every HIP from the entry's hip_since (HIP 5.2
with hipcc, HIP 6.4 with clang++-22 and the headers scripts/fetch-hip64.sh
unpacks), compile against an older HIP, and compile with nvcc against CUDA.
Exit 1 on a wrong entry, 2 when a toolchain is missing (never a silent pass).

Each compiler sees every entry's use at once, each in a function of its own,
and an entry fails where an error points into its function; when an error
cannot be placed in one (it points into a header), every entry is compiled
alone."""
import argparse
import os
import re
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


def probe(entry, name="probe"):
    """Device code that defines the entry's function as a CUDA program would,
    with its parameter types, and uses it."""
    types = [VECTOR_PROBE if t == "VECTOR" else t for t in entry["parameters"]]
    decls = "".join("  %s a%d{};\n" % (t, i) for i, t in enumerate(types))
    fn = entry["function"]
    # As helper_math.h writes them: host and device, operands by reference (const
    # unless modified).
    qualifiers, modifies = "__device__", False
    if fn.startswith("operator"):
        op = fn[len("operator"):]
        use = "a0 %s a1" % op if len(types) == 2 else "%sa0" % op
        qualifiers, modifies = "__host__ __device__", op in ("++", "--") or op.endswith("=")
    else:
        use = "%s(%s)" % (fn, ", ".join("a%d" % i for i in range(len(types))))
    params = ", ".join(("%s &a%d" if i == 0 and modifies else
                        "const %s &a%d" if fn.startswith("operator") else "%s a%d") % (t, i)
                       for i, t in enumerate(types))
    return ("inline %s %s %s(%s) { return a0; }\n"
            "__device__ void %s() {\n%s  (void)(%s);\n}\n" % (qualifiers, types[0], fn, params,
                                                            name, decls, use))


def version_tuple(text):
    return tuple(int(x) for x in text.split("."))


def compile_probe(command, source_text, suffix):
    """(whether it compiles, the compiler's output lines)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "probe" + suffix)
        with open(path, "w") as f:
            f.write("#include <%s>\n%s" % ("cuda_runtime.h" if suffix == ".cu" else
                                           "hip/hip_runtime.h", source_text))
        run = subprocess.run(command(path), capture_output=True, text=True)
        return run.returncode == 0, (run.stdout + run.stderr).strip().splitlines()


# clang's "probe.hip:12:5: error:" and nvcc's "probe.cu(12): error:"
ERROR_LINE = re.compile(r"probe\.(?:hip|cu)(?::(\d+):\d+|\((\d+)\)): error")


def failing_entries(command, entries, suffix):
    """The indexes of the entries whose use does not compile, from one compile
    of them all; None when an error points outside every entry's function."""
    functions = [probe(e, "probe%d" % i) for i, e in enumerate(entries)]
    first_lines, line = [], 2  # line 1 is the #include
    for text in functions:
        first_lines.append(line)
        line += text.count("\n")
    ok, output = compile_probe(command, "".join(functions), suffix)
    if ok:
        return set()
    lines = [int(a or b) for a, b in ERROR_LINE.findall("\n".join(output))]
    owners = {max((i for i, f in enumerate(first_lines) if f <= n), default=None) for n in lines}
    return None if not lines or None in owners else owners


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
        ("HIP 5.2", "5.2", ".hip", lambda p: [a.hipcc, "-x", "hip", "--offload-arch=gfx906",
                                             "-std=c++17", "-fsyntax-only", "-ferror-limit=0", p]),
        ("HIP 6.4", "6.4", ".hip", lambda p: golden.hip64_command(a.clang, a.hip64_prefix,
                                                                 ["-ferror-limit=0"], p)),
        ("CUDA", None, ".cu", lambda p: [a.nvcc, "-x", "cu", "-arch=sm_90", "-std=c++17", "-cuda",
                                          "-fdevice-syntax-only", "-o", os.devnull, p]),
    ]
    with open(a.map) as f:
        entries = yaml.safe_load(f)["entries"]
    errors = 0
    for name, version, suffix, command in toolchains:
        failing = failing_entries(command, entries, suffix)
        for i, entry in enumerate(entries):
            # the definition compiles where HIP does not declare the function
            expected = version is None or version_tuple(version) < version_tuple(entry["hip_since"])
            alone = None if failing is not None else compile_probe(command, probe(entry), suffix)
            ok = i not in failing if failing is not None else alone[0]
            if ok == expected:
                continue
            errors += 1
            print("%s(%s): %s under %s, expected it %s" % (
                entry["function"], ", ".join(entry["parameters"]),
                "compiles" if ok else "does not compile", name,
                "to compile" if expected else "not to (HIP declares it)"))
            for line in (alone or compile_probe(command, probe(entry), suffix))[1][:3]:
                print("    " + line)
    print("%d entries, %d errors" % (len(entries), errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
