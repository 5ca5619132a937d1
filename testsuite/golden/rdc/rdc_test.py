#!/usr/bin/env python3
"""Relocatable device code found by the parse reaches the CMake build.

  rdc_test.py --tool build/tool/main/cu2dcu --step translate|cmake

src/ is a CMake project whose app/ target calls a __device__ function that
another of its units defines; the parent CMakeLists.txt sets
CMAKE_CUDA_SEPARABLE_COMPILATION, which app/ relies on. --step translate
checks the JSON report: CU2DCU-RDC at the call in main.cu (and none for a
__host__ __device__ function main.cu calls from host code only), the
CU2DCU-BUILD note on app/CMakeLists.txt, and -fgpu-rdc in its compile and
link options. --step cmake configures and builds the output with CMake's HIP
language (Debian toolchain file): without -fgpu-rdc the link fails (undefined
hidden symbol). Exit 0 pass, 1 fail, 77 skipped (a missing hipcc or cmake
skips the build step on a developer's machine and fails it under CI).
"""
import argparse, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "testsuite", "lib"))
from verdict import finish  # noqa: E402
from hipbuild import TOOLCHAIN, build_env, missing_tools, run  # noqa: E402

TARGET_OPTIONS = ("target_compile_options(rdcapp PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)\n"
                  "target_link_options(rdcapp PRIVATE -fgpu-rdc)\n")


def port(tool, out, report):
    p = subprocess.run([tool, os.path.join(HERE, "src"), "-o", out, "--json", report],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("FAIL: cu2dcu exit %d:\n%s" % (p.returncode, p.stderr[-3000:]))


def check_translation(out, report, failures):
    found = [(d["file"], d["line"], d["id"], d["severity"])
             for d in json.load(open(report))["diagnostics"]
             if d["id"] in ("CU2DCU-RDC", "CU2DCU-BUILD")]
    want = [("CMakeLists.txt", 4, "CU2DCU-BUILD", "warning"),
            ("app/CMakeLists.txt", 1, "CU2DCU-BUILD", "note"),
            ("app/main.cu", 8, "CU2DCU-RDC", "note")]
    if sorted(found) != want:
        failures.append("findings: want %s, got %s" % (want, sorted(found)))
    with open(os.path.join(out, "app", "CMakeLists.txt")) as f:
        text = f.read()
    if not text.endswith(TARGET_OPTIONS):
        failures.append("app/CMakeLists.txt lacks the -fgpu-rdc target options:\n" + text)


def build(out, tmp, failures):
    skipped = missing_tools(["hipcc", "cmake"], failures)
    if skipped:
        return skipped
    bld = os.path.join(tmp, "bld")
    env = build_env()
    if run(["cmake", "-S", out, "-B", bld, "-DCMAKE_TOOLCHAIN_FILE=" + TOOLCHAIN], env, failures) \
            and run(["cmake", "--build", bld], env, failures) \
            and not os.path.isfile(os.path.join(bld, "app", "rdcapp")):
        failures.append("cmake did not link rdcapp")
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--step", choices=("translate", "cmake"), required=True)
    args = ap.parse_args()
    failures, skipped = [], None
    with tempfile.TemporaryDirectory(prefix="cu2dcu-rdc-") as tmp:
        out, report = os.path.join(tmp, "out"), os.path.join(tmp, "report.json")
        port(args.tool, out, report)
        if args.step == "translate":
            check_translation(out, report, failures)
        else:
            skipped = build(out, tmp, failures)
    return finish(failures, "rdc " + args.step, skipped)


if __name__ == "__main__":
    sys.exit(main())
