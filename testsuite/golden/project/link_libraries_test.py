#!/usr/bin/env python3
"""Libraries a HIP header needs at link time where the CUDA one needed none.

  link_libraries_test.py --tool build/tool/main/cu2dcu [--hip-tree build/hip-6.4]

NVTX 3 is header-only; roctx, what cu2dcu makes of it, is libroctx64. A
project whose sources include <nvtx3/nvToolsExt.h> is ported by the main
tool; the Makefile's link line (and only it, not the compile line, not the
Makefile of a folder without NVTX) must gain -lroctx64, the CMake target
must gain it in target_link_libraries (in the keyword form its other call
uses), and the JSON report must say so. Every `link:` of the maps must name
a library that the HIP 6.4 packages hold (--hip-tree, what setup.sh fetches).
Exit 0 pass, 1 fail.
"""
import argparse, glob, json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "testsuite", "lib"))
from verdict import finish  # noqa: E402

MAIN = """#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>
__global__ void fill(float *p) { p[threadIdx.x] = 1.0f; }
int main() {
  float *p;
  nvtxRangePushA("fill");
  cudaMalloc(&p, 64 * sizeof(float));
  fill<<<1, 64>>>(p);
  cudaDeviceSynchronize();
  nvtxRangePop();
  return 0;
}
"""
MAKEFILE = """NVCC = nvcc
app: main.o
\t$(NVCC) -o app main.o
main.o: main.cu
\t$(NVCC) -c main.cu -o main.o
"""
OTHER = """#include <cuda_runtime.h>
int main() { cudaDeviceSynchronize(); return 0; }
"""
CMAKE = """cmake_minimum_required(VERSION 3.18)
project(app LANGUAGES CXX CUDA)
add_executable(app main.cu)
target_link_libraries(app PRIVATE CUDA::cudart)
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read()


def port(tool, tmp):
    src, out, report = (os.path.join(tmp, n) for n in ("src", "out", "r.json"))
    write(os.path.join(src, "main.cu"), MAIN)
    write(os.path.join(src, "Makefile"), MAKEFILE)
    write(os.path.join(src, "CMakeLists.txt"), CMAKE)
    write(os.path.join(src, "other", "other.cu"), OTHER)
    write(os.path.join(src, "other", "Makefile"), MAKEFILE.replace("main", "other"))
    p = subprocess.run([tool, src, "-o", out, "--json", report, "--fail-on=never"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("FAIL: cu2dcu exit %d:\n%s" % (p.returncode, p.stderr[-3000:]))
    return out, json.load(open(report))


def check_build_files(out, report, failures):
    lines = read(os.path.join(out, "Makefile")).splitlines()
    link = [l for l in lines if "-o app" in l]
    compile_ = [l for l in lines if " -c " in l]
    if not link or not link[0].rstrip().endswith("-lroctx64"):
        failures.append("the link line did not gain -lroctx64: %r" % link)
    if any("roctx64" in l for l in compile_):
        failures.append("the compile line gained -lroctx64: %r" % compile_)
    if "roctx64" in read(os.path.join(out, "other", "Makefile")):
        failures.append("the Makefile of a folder without NVTX gained -lroctx64")
    cmake = read(os.path.join(out, "CMakeLists.txt"))
    if not re.search(r"^target_link_libraries\(app PRIVATE roctx64\)$", cmake, re.M):
        failures.append("the CMake target did not gain roctx64:\n" + cmake)
    notes = [d for d in report["diagnostics"]
             if d["id"] == "CU2DCU-BUILD" and "roctx64" in d["message"]]
    if {os.path.basename(d["file"]) for d in notes} != {"Makefile", "CMakeLists.txt"}:
        failures.append("the report's notes on roctx64: %r" % notes)


def check_map_libraries(hip_tree, failures):
    libraries = set()
    for path in glob.glob(os.path.join(ROOT, "mappings", "*.yaml")):
        libraries |= set(re.findall(r"\blink: *\"?([A-Za-z0-9_.+-]+)", read(path)))
    if not libraries:
        failures.append("no `link:` in the maps")
    for name in sorted(libraries):
        if not glob.glob(os.path.join(hip_tree, "usr", "lib", "*", "lib%s.so*" % name)):
            failures.append("`link: %s` names no library of the HIP 6.4 packages in %s"
                            % (name, hip_tree))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--hip-tree", default=os.path.join(ROOT, "build", "hip-6.4"))
    args = ap.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        out, report = port(os.path.abspath(args.tool), tmp)
        check_build_files(out, report, failures)
    check_map_libraries(args.hip_tree, failures)
    return finish(failures, "link libraries")


if __name__ == "__main__":
    sys.exit(main())
