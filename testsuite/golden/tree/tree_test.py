#!/usr/bin/env python3
"""End-to-end test of a small tree: mirroring, copying, header translation,
compile_commands.json (-p: its -D flag must reach the parser, checked through
the JSON report and the output), -j determinism and input-error exit codes.

  tree_test.py --tool build/tool/main/cu2dcu --src testsuite/golden/tree/src
"""
import argparse, filecmp, json, os, shutil, subprocess, sys, tempfile

failures = []

def check(cond, what):
    if not cond:
        failures.append(what)
    return cond

def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)

def read(p):
    with open(p, "rb") as f:
        return f.read()

def files_under(root):
    out = []
    for d, _, fs in os.walk(root):
        out += [os.path.relpath(os.path.join(d, f), root) for f in fs]
    return sorted(out)

def check_tree(tool, src, tmp):
    """Mirroring, copying, header translation and the summary; returns the output."""
    before = {f: read(os.path.join(src, f)) for f in files_under(src)}
    out1 = os.path.join(tmp, "out1")
    p = run([tool, src, "-o", out1, "-j", "1"])
    check(p.returncode == 0, "tree translation exit %d: %s" % (p.returncode, p.stderr))
    check(files_under(out1) == files_under(src), "output does not mirror the input tree")
    for f in ["docs/NOTES.txt", "docs/logo.png", "include/plain.h"]:
        check(read(os.path.join(out1, f)) == before[f], f + " not copied byte for byte")
    main_cu = read(os.path.join(out1, "main.cu")).decode()
    check("hipLaunchKernelGGL(add, 1, 64, 0, 0, a, b);" in main_cu, "launch in main.cu")
    check("hipMalloc(&a" in main_cu and "cudaMalloc" not in main_cu, "API calls in main.cu")
    common = read(os.path.join(out1, "include/common.cuh")).decode()
    check("#include <hip/hip_runtime.h>" in common and "hipError_t status = hipGetLastError();" in common,
          "included header translated through the including file")
    unused = read(os.path.join(out1, "include/unused.cuh")).decode()
    check("inline hipError_t resetDevice() { return hipDeviceReset(); }" in unused,
          "header included by no source translated on its own")
    host = read(os.path.join(out1, "host.cpp")).decode()
    check("hipGetDeviceCount(&n);" in host, "host .cpp translated")
    check("7 files" in p.stderr and "4 translated, 1 unchanged, 2 copied, 0 failed" in p.stderr,
          "summary counts: " + p.stderr)
    check({f: read(os.path.join(src, f)) for f in files_under(src)} == before, "input modified")
    return out1


def check_jobs(tool, src, tmp, out1):
    out2 = os.path.join(tmp, "out2")
    p = run([tool, src, "-o", out2, "-j", "2", "--quiet"])
    check(p.returncode == 0, "-j 2 run failed")
    cmp = filecmp.dircmp(out1, out2)
    check(not cmp.diff_files and not cmp.left_only and not cmp.right_only,
          "-j 1 and -j 2 outputs differ")


def check_compile_database(tool, src, tmp):
    """Flags from compile_commands.json (-p) reach the parser: main.cu's
    kernel under #ifdef USE_DOUBLE is parsed with the AST only when
    -DUSE_DOUBLE does, and only then reported (W64-LANE-MATH) and fixed."""
    build = os.path.join(tmp, "build")
    os.makedirs(build)
    with open(os.path.join(build, "compile_commands.json"), "w") as f:
        json.dump([{"directory": src, "file": os.path.join(src, "main.cu"),
                    "command": "nvcc -DUSE_DOUBLE -arch=sm_90 -c main.cu -o main.o"}], f)
    out3, report = os.path.join(tmp, "out3"), os.path.join(tmp, "out3.json")
    p = run([tool, "-p", build, "-o", out3, "--fix-wave64", "--json", report])
    if not check(p.returncode == 0 and os.path.exists(report), "-p run failed: " + p.stderr):
        return
    with open(report) as f:
        r = json.load(f)
    mode = {f["path"]: f["parseMode"] for f in r["files"]}.get("main.cu")
    check(mode == "ast", "-p: main.cu parse mode %r, want 'ast'" % mode)
    check(any(d["file"] == "main.cu" and d["id"] == "W64-LANE-MATH" for d in r["diagnostics"]),
          "-p: no W64-LANE-MATH in main.cu: -DUSE_DOUBLE did not reach the parser")
    check("lane[threadIdx.x] = threadIdx.x % warpSize;" in read(os.path.join(out3, "main.cu")).decode(),
          "-p: the USE_DOUBLE kernel was not fixed: -DUSE_DOUBLE did not reach the parser")


def check_relative_include(tool, tmp):
    """-p resolves a database's relative path options, separate (-I include)
    and joined (-Iinclude), against the command's directory: the unit that
    includes "kernel.cuh" from include/ parses with the AST."""
    proj, build = os.path.join(tmp, "proj"), os.path.join(tmp, "build-rel")
    for d in (os.path.join(proj, "include"), os.path.join(proj, "src"), build):
        os.makedirs(d)
    with open(os.path.join(proj, "include", "kernel.cuh"), "w") as f:
        f.write("#pragma once\n#include <cuda_runtime.h>\n__global__ void k(float *p);\n")
    for name, flag in (("separate.cu", "-I include"), ("joined.cu", "-Iinclude")):
        with open(os.path.join(proj, "src", name), "w") as f:
            f.write('#include "kernel.cuh"\nvoid run(float *p) { k<<<1, 64>>>(p); cudaDeviceSynchronize(); }\n')
    with open(os.path.join(build, "compile_commands.json"), "w") as f:
        json.dump([{"directory": proj, "file": "src/" + name,
                    "command": "nvcc %s -c src/%s" % (flag, name)}
                   for name, flag in (("separate.cu", "-I include"), ("joined.cu", "-Iinclude"))], f)
    report = os.path.join(tmp, "rel.json")
    p = run([tool, "-p", build, "-o", os.path.join(tmp, "out-rel"), "--json", report])
    if not check(p.returncode == 0 and os.path.exists(report), "-p (relative -I) failed: " + p.stderr):
        return
    with open(report) as f:
        modes = {os.path.basename(f["path"]): f["parseMode"] for f in json.load(f)["files"]}
    for name in ("separate.cu", "joined.cu"):
        check(modes.get(name) == "ast", "-p: %s parse mode %r with a relative -I, want 'ast'"
              % (name, modes.get(name)))


def check_tree_include_fallback(tool, tmp):
    """A directory input names no -I: an include found only in one folder of
    the tree (cuda-samples' <helper_cuda.h> in Common/) is searched there, so
    the unit parses with the AST; it is searched after the system folders (the
    tree's own math.h does not shadow the C library's), and a name two folders
    hold is left unresolved."""
    proj = os.path.join(tmp, "samples")
    files = {
        "Common/helper.h": "#pragma once\n#include <cuda_runtime.h>\n#include <cmath>\n"
                           "inline bool ok(cudaError_t e) { return e == cudaSuccess && std::isfinite(1.0); }\n",
        "Common/math.h": "#error the tree's math.h shadowed the C library's\n",
        "Samples/a/a.cu": "#include <helper.h>\n#include <math.h>\n__global__ void k(float *p) { p[0] = 1; }\n"
                          "int main() { float *p; return ok(cudaMalloc(&p, 4)) ? 0 : 1; }\n",
        "Samples/b/b.cu": "#include \"twice.h\"\nint main() { return TWICE; }\n",
        "x/twice.h": "#define TWICE 2\n",
        "y/twice.h": "#define TWICE 3\n",
    }
    for name, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(proj, name)), exist_ok=True)
        with open(os.path.join(proj, name), "w") as f:
            f.write(text)
    report = os.path.join(tmp, "fallback.json")
    p = run([tool, proj, "-o", os.path.join(tmp, "out-fallback"), "--json", report, "--fail-on=never"])
    if not check(p.returncode == 0 and os.path.exists(report), "tree fallback run failed: " + p.stderr):
        return
    with open(report) as f:
        modes = {os.path.basename(f["path"]): f["parseMode"] for f in json.load(f)["files"]}
    check(modes.get("a.cu") == "ast", "a.cu parse mode %r, want 'ast' (<helper.h> from Common/)"
          % modes.get("a.cu"))
    check(modes.get("b.cu") != "ast", "b.cu parsed with one of two twice.h (mode %r)" % modes.get("b.cu"))


def check_input_errors(tool, src, tmp):
    """Input errors: exit 2, nothing written."""
    p = run([tool, src, "-o", os.path.join(src, "out")])
    check(p.returncode == 2 and "inside the input" in p.stderr, "output inside input not refused")
    check(not os.path.exists(os.path.join(src, "out")), "output created inside the input")
    p = run([tool, os.path.join(tmp, "missing"), "-o", os.path.join(tmp, "o4")])
    check(p.returncode == 2 and "does not exist" in p.stderr, "missing input not refused")
    p = run([tool, src])
    check(p.returncode == 2 and "no output" in p.stderr, "missing -o not refused")
    p = run([tool, "--hip-version", "six", src, "--dry-run"])
    check(p.returncode == 2, "bad --hip-version not refused")


def check_options(tool, src):
    main_cu = os.path.join(src, "main.cu")
    # Target HIP: a profile name resolves through mappings/profiles; an unknown
    # name is a usage error listing the profiles; no flag means the installed HIP.
    p = run([tool, main_cu, "--dry-run", "--hip-version", "dtk-25.04", "--json", "-"])
    check(p.returncode == 0 and '"hipVersion": "6.3"' in p.stdout
          and '"hipVersionSource": "profile dtk-25.04"' in p.stdout, "--hip-version profile")
    p = run([tool, main_cu, "--dry-run", "--hip-version", "dtk-0"])
    check(p.returncode == 2 and "dtk-25.04" in p.stderr, "unknown profile not refused")
    p = run([tool, main_cu, "--dry-run", "--json", "-"])
    check(p.returncode == 0 and ('installed HIP' in p.stdout or 'default' in p.stdout),
          "default HIP target source")
    p = run([tool, "--version"])
    check(p.returncode == 0 and "cu2dcu" in p.stdout, "--version")
    p = run([tool, main_cu, "--diff"])
    check(p.returncode == 0 and "+  hipLaunchKernelGGL(add, 1, 64, 0, 0, a, b);" in p.stdout
          and "-  add<<<1, 64>>>(a, b);" in p.stdout, "--diff output")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--src", required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        shutil.copytree(a.src, src)
        check_jobs(a.tool, src, tmp, check_tree(a.tool, src, tmp))
        check_compile_database(a.tool, src, tmp)
        check_relative_include(a.tool, tmp)
        check_tree_include_fallback(a.tool, tmp)
        check_input_errors(a.tool, src, tmp)
        check_options(a.tool, src)
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("PASS tree")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
