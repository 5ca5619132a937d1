#!/usr/bin/env python3
"""Mutation check: the validation suite must notice a wrong translation.

Copies a translated sample tree (the output of `cu2dcu samples-cuda -o DIR`),
injects one known translation bug per copy, and shows that the suite reports
each one:

  memcpy-direction   vector_add: the result download copies the wrong way -> run: FAIL
  missing-sync       reduction: the tree loop loses its __syncthreads()   -> run: FAIL
  launch-dims        vector_add: the coalesced kernel gets half the grid  -> run: FAIL
  upload-direction   vector_add: an input upload copies the wrong way, over
                     the host inputs the result is checked against (they
                     are const, so this no longer compiles)               -> build: hipcc fails
  mask32             reduction: a 32-bit-mask _sync shuffle on a wave64
                     target (HIP has no _sync forms before 6.2 and needs
                     64-bit masks after)                                  -> build: hipcc fails

  mutations.py --translated DIR --mode cpu   # CI: build-stage mutations with hipcc,
                                             # and every mutation must apply exactly once
  mutations.py --translated DIR --mode gpu --hip-include build/hip-nvidia-include [--json F]
                                             # NVIDIA host: every mutation detected at run time,
                                             # and the unmutated programs PASS

Exit 0 when every mutation is detected (and the controls pass), 1 otherwise;
--mode cpu without hipcc: 77, skipped (a failure under CI; testsuite/lib/verdict.py).
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from verdict import finish, missing_hipcc

MUTATIONS = [
    # name, file, stage, pattern, replacement
    ("memcpy-direction", "vector_add/vector_add.cu", "run",
     r"hipMemcpy\(hc\.data\(\), dc, bytes, hipMemcpyDeviceToHost\)",
     "hipMemcpy(dc, hc.data(), bytes, hipMemcpyHostToDevice)"),
    ("missing-sync", "reduction/reduction.cu", "run",
     r"(if \(tid < s\) sdata\[tid\] \+= sdata\[tid \+ s\];\s*)__syncthreads\(\);",
     r"\1"),
    ("launch-dims", "vector_add/vector_add.cu", "run",
     r"hipLaunchKernelGGL\(vadd_coalesced, blocks,", "hipLaunchKernelGGL(vadd_coalesced, blocks / 2,"),
    ("upload-direction", "vector_add/vector_add.cu", "build",
     r"hipMemcpy\(da, ha\.data\(\), bytes, hipMemcpyHostToDevice\)",
     "hipMemcpy(ha.data(), da, bytes, hipMemcpyDeviceToHost)"),
    ("mask32", "reduction/reduction.cu", "build",
     r"__shfl_down\(val, offset\)", "__shfl_down_sync(0xffffffff, val, offset)"),
]

def mutate(src_tree, dst_tree, name, rel, pattern, repl):
    shutil.copytree(src_tree, dst_tree)
    path = os.path.join(dst_tree, rel)
    with open(path) as f:
        text = f.read()
    # The first occurrence is the one each mutation targets (the first kernel's
    # check); none is a sign that the sample or its translation changed.
    new, count = re.subn(pattern, repl, text, count=1, flags=re.S)
    if count != 1:
        return "pattern not found: the sample or its translation changed"
    with open(path, "w") as f:
        f.write(new)
    return None

def hipcc_builds(tree, rel, hipcc):
    src = os.path.join(tree, rel)
    p = subprocess.run([hipcc, "--offload-arch=gfx906", "-x", "hip", "-c", "-w", "-O1",
                        "-I", os.path.join(tree, "common"), src, "-o", os.devnull],
                       capture_output=True, text=True)
    return p.returncode == 0, p.stderr[-400:]

def nvcc_run(tree, rel, hip_include, nvcc, workdir):
    exe = os.path.join(workdir, os.path.basename(rel) + ".bin")
    b = subprocess.run([nvcc, "-O2", "-std=c++17", "-arch=sm_90", "-x", "cu", "-D__HIP_PLATFORM_NVIDIA__",
                        "-isystem", hip_include, "-I", os.path.join(tree, "common"),
                        os.path.join(tree, rel), "-o", exe], capture_output=True, text=True)
    if b.returncode != 0:
        return "build-failed", b.stderr[-400:]
    r = subprocess.run([exe, "--size", "2^22", "--warmup", "1", "--repeat", "2", "--verify"],
                       capture_output=True, text=True, timeout=300)
    # The samples exit 1 when a kernel fails verification ("name ... FAIL (max err"),
    # 2 on an API error; the closing "N kernel(s), 0 FAIL" line is not a failure.
    kernel_failed = re.search(r"\bFAIL \(", r.stdout) is not None
    ok = r.returncode == 0 and not kernel_failed
    return ("pass" if ok else "fail"), (r.stdout + r.stderr)[-400:]

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--translated", required=True)
    ap.add_argument("--mode", choices=["cpu", "gpu"], required=True)
    ap.add_argument("--hipcc", default=shutil.which("hipcc"))
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--hip-include", default="build/hip-nvidia-include")
    ap.add_argument("--json")
    a = ap.parse_args()
    results, failures = [], []
    with tempfile.TemporaryDirectory() as tmp:
        if a.mode == "cpu" and missing_hipcc(a.hipcc, failures):
            return finish(failures, "", "hipcc not installed")
        for name, rel, stage, pattern, repl in MUTATIONS:
            tree = os.path.join(tmp, name)
            err = mutate(a.translated, tree, name, rel, pattern, repl)
            if err:
                failures.append("%s: %s" % (name, err))
                continue
            if a.mode == "cpu":
                if stage == "build":
                    built, log = hipcc_builds(tree, rel, a.hipcc)
                    detected = not built
                    results.append({"mutation": name, "stage": stage, "detected": detected})
                    if not detected:
                        failures.append("%s: hipcc accepted the broken translation" % name)
                else:
                    results.append({"mutation": name, "stage": stage, "applied": True})
            elif stage == "build":
                # A 32-lane NVIDIA GPU runs this correctly: the wave64 build is what catches it.
                results.append({"mutation": name, "stage": stage, "detected": None,
                                "note": "checked by --mode cpu (hipcc for gfx906)"})
            else:
                outcome, log = nvcc_run(tree, rel, a.hip_include, a.nvcc, tmp)
                detected = outcome != "pass"
                results.append({"mutation": name, "stage": stage, "outcome": outcome, "detected": detected})
                if not detected:
                    failures.append("%s: the broken program still PASSed: %s" % (name, log))
        # Controls: the unmutated translation must build (cpu) / pass (gpu).
        controls = sorted({rel for _, rel, _, _, _ in MUTATIONS})
        for rel in controls:
            if a.mode == "cpu":
                built, log = hipcc_builds(a.translated, rel, a.hipcc)
                results.append({"control": rel, "builds": built})
                if not built:
                    failures.append("control %s does not build: %s" % (rel, log))
            else:
                outcome, log = nvcc_run(a.translated, rel, a.hip_include, a.nvcc, tmp)
                results.append({"control": rel, "outcome": outcome})
                if outcome != "pass":
                    failures.append("control %s: %s: %s" % (rel, outcome, log))
    for r in results:
        print(json.dumps(r))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"mode": a.mode, "results": results, "failures": failures}, f, indent=2)
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("PASS: every mutation detected" if a.mode == "gpu" else
              "PASS: mutations apply; build-stage mutations detected; run-stage ones need a GPU")
    return 1 if failures else 0

if __name__ == "__main__":
    sys.exit(main())
