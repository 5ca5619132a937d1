#!/usr/bin/env python3
"""`cu2dcu --explain NAME`: what the maps say about a CUDA name at each HIP
target, from translating a use of it as a run does.

  explain_test.py --tool build/tool/main/cu2dcu
"""
import argparse, os, re, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from verdict import finish  # noqa: E402


def explain(tool, *args):
    p = subprocess.run([tool, "--explain", *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def section(out, version):
    """The lines of the HIP VERSION block."""
    m = re.search(r"^  HIP %s: .*?(?=^  HIP |\Z)" % re.escape(version), out, re.M | re.S)
    return m.group(0) if m else ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    tool = ap.parse_args().tool
    failures = []

    def expect(name, condition, what, output):
        if not condition:
            failures.append("%s: %s\n%s" % (name, what, output))

    code, out, err = explain(tool, "cudaMallocAsync")
    expect("cudaMallocAsync", code == 0 and "function of the runtime family" in out, "facts", out + err)
    for v in ("5.2", "6.4"):
        expect("cudaMallocAsync", "becomes hipMallocAsync" in section(out, v), "HIP " + v, out)

    code, out, _ = explain(tool, "__shfl_down_sync")
    old, new = section(out, "5.2"), section(out, "6.4")
    expect("__shfl_down_sync", "a call becomes __shfl_down" in old and
           "[CU2DCU-HIP-VERSION]" in old and "cu2dcu_lane_mask" not in old, "HIP 5.2", out)
    expect("__shfl_down_sync", "HIP_ENABLE_WARP_SYNC_BUILTINS" in new and
           "cu2dcu_lane_mask" in new and "[CU2DCU-HIP-VERSION]" not in new, "HIP 6.4", out)

    # A shim's note names the HIP function of a later HIP, also where the
    # entry has no HIP name of its own (it is the CUDA one).
    code, out, _ = explain(tool, "__syncwarp")
    expect("__syncwarp", "('__syncwarp' is in HIP 7.0)" in section(out, "5.2") and
           "'' is in HIP" not in out, "the shim note", out)

    code, out, _ = explain(tool, "cublasLt.h")
    expect("cublasLt.h", code == 0 and "has code for gfx908, gfx90a" in out and
           "[CU2DCU-ARCH]" in section(out, "6.4"), "hip_archs and the default gfx906's warning", out)

    code, out, _ = explain(tool, "cudaDeviceProp")
    expect("cudaDeviceProp", code == 0 and "CU2DCU-MEMBER" in out and
           "persistingL2CacheMaxSize (from HIP 6.4)" in out, "the members HIP lacks", out)

    code, out, _ = explain(tool, "nvtx3/nvToolsExt.h")
    expect("nvtx3/nvToolsExt.h", code == 0 and "link: -lroctx64" in out and
           "becomes #include <roctracer/roctx.h>" in section(out, "6.4"), "header entry", out)

    code, out, _ = explain(tool, "__nv_bfloat162", "--hip-version", "6.2")
    expect("__nv_bfloat162", [l for l in out.splitlines() if l.startswith("  HIP ")] ==
           ["  HIP 5.2: becomes __hip_bfloat162", "  HIP 6.2: becomes __hip_bfloat162",
            "  HIP 6.4: becomes __hip_bfloat162"], "the chosen target is listed too", out)

    code, out, err = explain(tool, "cudaMallc")
    expect("cudaMallc", code == 1 and not out and "closest known names: cudaMalloc" in err,
           "an unknown name", "exit %d\n%s%s" % (code, out, err))

    with tempfile.TemporaryDirectory() as tmp:
        extra = os.path.join(tmp, "extra.yaml")
        with open(extra, "w") as f:
            f.write("family: extra\nentries:\n"
                    "- {cuda: cudaDeviceReset, hip: hipDeviceResetByUser, kind: function}\n")
        code, out, _ = explain(tool, "cudaDeviceReset", "--map", extra)
        expect("--map", "becomes hipDeviceResetByUser" in section(out, "6.4"),
               "a --map entry overrides the shipped one", out)

    return finish(failures, "explain")


if __name__ == "__main__":
    sys.exit(main())
