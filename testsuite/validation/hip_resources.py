#!/usr/bin/env python3
"""Build HIP sample programs with hipcc (no GPU needed) and collect per-kernel
resource usage from `-Rpass-analysis=kernel-resource-usage`.

A sample tree is a folder with one sub-folder per program (e.g. vector_add/)
holding one source file (.cpp, .hip or .cu; .cu is compiled as HIP), plus a
`common/` folder of shared headers.  This is the layout of samples-hip/ and of
the translator's output for samples-cuda/.

For every program and every --arch this writes an executable
OUT/<arch>/<program>, the compiler log OUT/<arch>/<program>.log, and collects
for each kernel: SGPRs, VGPRs, AGPRs, scratch bytes per lane, occupancy
(waves/SIMD), SGPR/VGPR spills and LDS bytes per block, into OUT/resources.json
and OUT/resources.md.

Programs that include hipBLAS are built only where hipBLAS headers are found;
otherwise they are recorded as skipped and "skipped: hipBLAS not installed" is
printed.  A program that fails to compile is recorded as failed and makes the
exit status 1.

--hip64 PREFIX is the HIP 6.4 profile: instead of hipcc, clang++-22 builds
the device code of each program against the HIP 6.4 tree of
scripts/fetch-hip64.sh, with the device libraries of its rocm-device-libs
package, and links it with lld-22 into a code object OUT/<arch>/<program>.co
(the host side needs the HIP runtime library, which the tree lacks).  A
profile that cannot be set up (no clang++-22, lld-22, tree or device
libraries) fails, it is not skipped.

Usage:
  hip_resources.py --src samples-hip --out build/validation/hip-handwritten \
                   [--arch gfx906 --arch gfx90a] [--hipcc hipcc] [--no-spill]
  hip_resources.py --src samples-hip --out build/validation/hip64 --hip64 build/hip-6.4
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import golden  # noqa: E402  (the HIP 6.4 profile's defines)
from verdict import in_ci  # noqa: E402

SOURCE_EXTS = (".cpp", ".hip", ".cu", ".cc", ".cxx")
DEFAULT_ARCHS = ("gfx906", "gfx90a")
HIPBLAS_RE = re.compile(r'^\s*#\s*include\s*[<"](hipblas/)?hipblas(\.h)?[>"]', re.M)
FIELDS = {
    "SGPRs": "sgprs",
    "TotalSGPRs": "sgprs",  # clang 22's name
    "VGPRs": "vgprs",
    "AGPRs": "agprs",
    "ScratchSize [bytes/lane]": "scratch",
    "Occupancy [waves/SIMD]": "occupancy",
    "SGPRs Spill": "sgpr_spill",
    "VGPRs Spill": "vgpr_spill",
    "LDS Size [bytes/block]": "lds",
}
REMARK_RE = re.compile(r"remark:\s+(.*?):\s+(\S+)\s+\[-Rpass-analysis=kernel-resource-usage\]")


def find_programs(src):
    """[(program, source path)] for every sub-folder of src except common/."""
    progs = []
    for name in sorted(os.listdir(src)):
        d = os.path.join(src, name)
        if name == "common" or name.startswith(".") or not os.path.isdir(d):
            continue
        files = sorted(f for f in os.listdir(d) if f.endswith(SOURCE_EXTS))
        if not files:
            continue
        # prefer <program>.<ext>, else the only / first source
        pick = next((f for f in files if os.path.splitext(f)[0] == name), files[0])
        progs.append((name, os.path.join(d, pick)))
    return progs


def demangle(names):
    """mangled -> readable base name (no parameters, no namespaces)."""
    out = {}
    tool = shutil.which("llvm-cxxfilt") or shutil.which("c++filt")
    plain = list(names)
    dem = plain
    if tool and plain:
        try:
            r = subprocess.run([tool], input="\n".join(plain), capture_output=True, text=True,
                               check=True)
            dem = r.stdout.splitlines()
        except (OSError, subprocess.CalledProcessError):
            dem = plain
    for m, d in zip(plain, dem):
        base = d.split("(")[0]
        base = re.sub(r"<.*>$", "", base)  # template arguments
        base = base.split("::")[-1].strip()
        if base.startswith("void "):
            base = base[5:]
        out[m] = base or m
    return out


def parse_remarks(log):
    """kernel-resource-usage remarks -> {mangled: {field: int}}."""
    kernels = {}
    cur = None
    for line in log.splitlines():
        m = REMARK_RE.search(line)
        if not m:
            continue
        key, val = m.group(1).strip(), m.group(2)
        if key == "Function Name":
            cur = kernels.setdefault(val, {})
        elif cur is not None and key in FIELDS:
            try:
                cur[FIELDS[key]] = int(val)
            except ValueError:
                cur[FIELDS[key]] = val
    return kernels


def hipblas_available(hipcc, extra):
    with tempfile.TemporaryDirectory() as t:
        src = os.path.join(t, "probe.cpp")
        with open(src, "w") as f:
            f.write("#if __has_include(<hipblas/hipblas.h>)\n#include <hipblas/hipblas.h>\n"
                    "#else\n#include <hipblas.h>\n#endif\nint main() { return 0; }\n")
        r = subprocess.run([hipcc, "-E", src, "-o", os.devnull] + extra, capture_output=True,
                           text=True)
        return r.returncode == 0


class Hip64Profile:
    """clang++-22 against the HIP 6.4 tree under prefix: device code only,
    linked with lld-22 into a code object."""

    def __init__(self, prefix, clang="clang++-22"):
        self.usr = os.path.join(os.path.abspath(prefix), "usr")
        self.clang = shutil.which(clang)
        bitcode = glob.glob(os.path.join(self.usr, "lib", "llvm-*", "lib", "clang", "*", "amdgcn",
                                         "bitcode"))
        self.device_libs = bitcode[0] if bitcode else None
        lld = os.path.join(os.path.dirname(os.path.realpath(self.clang or "/")), "ld.lld")
        self.missing = [what for what, ok in (
            (clang, self.clang),
            ("lld-22 (%s)" % lld, os.access(lld, os.X_OK)),
            ("the HIP 6.4 tree %s (scripts/fetch-hip64.sh)" % prefix,
             os.path.isfile(os.path.join(self.usr, "include", "hip", "hip_version.h"))),
            ("its device libraries (rocm-device-libs)", self.device_libs)) if not ok]

    def command(self, arch, path, exe, extra):
        return [self.clang, "-x", "hip", f"--offload-arch={arch}", "-O3", "-std=c++17"] + \
            golden.HIP64_DEFINES + ["--hip-path=" + self.usr,
                "-isystem", os.path.join(self.usr, "include"),
                "--rocm-device-lib-path=" + self.device_libs,
                "-Rpass-analysis=kernel-resource-usage", "--cuda-device-only",
                "--no-gpu-bundle-output", "-c", path, "-o", exe + ".co"] + extra


def hipcc_command(hipcc, arch, path, exe, extra, link):
    cmd = [hipcc, f"--offload-arch={arch}", "-O3", "-std=c++17",
           "-Rpass-analysis=kernel-resource-usage"]
    if path.endswith(".cu"):
        cmd += ["-x", "hip"]
    return cmd + [path, "-o", exe] + extra + link


def build_tree(src, out, archs, hipcc="hipcc", extra=None, log=print, hip64=None):
    """Build every program of `src` for every arch (with hipcc, or the
    Hip64Profile hip64); return the resources dict."""
    extra = list(extra or [])
    src = os.path.abspath(src)
    res = {"source": src, "compiler": hip64.clang if hip64 else hipcc, "archs": {}}
    progs = find_programs(src)
    if not progs:
        raise SystemExit(f"hip_resources: no programs under {src}")
    blas_ok = None
    for arch in archs:
        adir = os.path.join(out, arch)
        os.makedirs(adir, exist_ok=True)
        ares = res["archs"].setdefault(arch, {})
        for prog, path in progs:
            entry = {"source": os.path.relpath(path, src), "status": "ok", "kernels": {}}
            ares[prog] = entry
            with open(path, errors="replace") as f:
                text = f.read()
            if HIPBLAS_RE.search(text) and not hip64:  # the 6.4 tree has hipBLAS
                if blas_ok is None:
                    blas_ok = hipblas_available(hipcc, extra)
                if not blas_ok:
                    entry["status"] = "skipped"
                    entry["reason"] = "hipBLAS not installed"
                    log(f"  {arch:7s} {prog:14s} skipped: hipBLAS not installed")
                    continue
                link = ["-lhipblas"]
            else:
                link = []
            exe = os.path.join(adir, prog)
            cmd = (hip64.command(arch, path, exe, extra) if hip64
                   else hipcc_command(hipcc, arch, path, exe, extra, link))
            r = subprocess.run(cmd, capture_output=True, text=True)
            text_log = " ".join(cmd) + "\n" + r.stdout + r.stderr
            with open(exe + ".log", "w") as f:
                f.write(text_log)
            if r.returncode != 0:
                entry["status"] = "failed"
                errs = [l for l in (r.stdout + r.stderr).splitlines() if "error" in l]
                entry["reason"] = (errs[0] if errs else f"exit {r.returncode}")[:300]
                log(f"  {arch:7s} {prog:14s} FAILED: {entry['reason']}")
                continue
            kernels = parse_remarks(r.stdout + r.stderr)
            names = demangle(kernels.keys())
            for mangled, fields in kernels.items():
                fields = dict(fields)
                fields["mangled"] = mangled
                entry["kernels"][names[mangled]] = fields
            log(f"  {arch:7s} {prog:14s} ok, {len(kernels)} kernel(s)")
    return res


def spills(k):
    return (k.get("vgpr_spill", 0) or 0) + (k.get("sgpr_spill", 0) or 0) > 0 or \
        (k.get("scratch", 0) or 0) > 0


def to_markdown(res, title="HIP kernel resources"):
    lines = [f"# {title}", "", f"Source: `{res['source']}`", ""]
    for arch, progs in res["archs"].items():
        lines += [f"## {arch}", "",
                  "| program | kernel | VGPRs | AGPRs | SGPRs | LDS B | scratch B/lane | "
                  "VGPR spill | SGPR spill | occupancy (waves/SIMD) |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for prog, e in progs.items():
            if e["status"] != "ok":
                lines.append(f"| {prog} | *{e['status']}: {e.get('reason', '')}* |"
                             " | | | | | | | |")
                continue
            for kname, k in sorted(e["kernels"].items()):
                lines.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
                    prog, kname, k.get("vgprs", ""), k.get("agprs", "-"), k.get("sgprs", ""),
                    k.get("lds", ""), k.get("scratch", ""), k.get("vgpr_spill", ""),
                    k.get("sgpr_spill", ""), k.get("occupancy", "")))
        lines.append("")
    return "\n".join(lines) + "\n"


def collect(src, out, archs, hipcc, extra, log=print, hip64=None):
    os.makedirs(out, exist_ok=True)
    res = build_tree(src, out, archs, hipcc, extra, log, hip64)
    with open(os.path.join(out, "resources.json"), "w") as f:
        json.dump(res, f, indent=2, sort_keys=True)
    with open(os.path.join(out, "resources.md"), "w") as f:
        f.write(to_markdown(res))
    return res


def main():
    ap = argparse.ArgumentParser(description="build HIP samples and collect kernel resources")
    ap.add_argument("--src", required=True, help="sample tree (one folder per program)")
    ap.add_argument("--out", required=True, help="output folder")
    ap.add_argument("--arch", action="append", help="offload arch (repeatable); "
                    "default gfx906 and gfx90a")
    ap.add_argument("--hipcc", default=os.environ.get("HIPCC", "hipcc"))
    ap.add_argument("--no-spill", action="store_true",
                    help="exit 1 if any kernel spills or uses scratch")
    ap.add_argument("--hip64", metavar="PREFIX",
                    help="the HIP 6.4 profile: clang++-22 and lld-22 against this tree of "
                         "scripts/fetch-hip64.sh (build/hip-6.4), device code only")
    ap.add_argument("extra", nargs="*", help="extra compiler flags (after --)")
    a = ap.parse_args()
    hip64 = Hip64Profile(a.hip64) if a.hip64 else None
    if hip64 and hip64.missing:
        print("hip_resources: the HIP 6.4 profile cannot be set up: %s missing"
              % ", ".join(hip64.missing), file=sys.stderr)
        return 1
    if not hip64 and not shutil.which(a.hipcc):
        print(f"hip_resources: {a.hipcc} not found", file=sys.stderr)
        return 1 if in_ci() else 77  # a missing toolchain under CI is an error
    archs = a.arch or list(DEFAULT_ARCHS)
    print(f"hip_resources: {a.src} -> {a.out} ({', '.join(archs)}%s)"
          % (", HIP 6.4 profile" if hip64 else ""))
    res = collect(a.src, a.out, archs, a.hipcc, a.extra, hip64=hip64)
    failed = [(arch, p) for arch, ps in res["archs"].items() for p, e in ps.items()
              if e["status"] == "failed"]
    spilled = [(arch, p, k) for arch, ps in res["archs"].items() for p, e in ps.items()
               for k, v in e["kernels"].items() if spills(v)]
    nk = sum(len(e["kernels"]) for ps in res["archs"].values() for e in ps.values())
    print(f"hip_resources: {nk} kernel entries, {len(failed)} failed build(s), "
          f"{len(spilled)} spilling kernel(s); wrote {a.out}/resources.json and resources.md")
    for s in spilled:
        print("  spills: %s %s %s" % s)
    if failed or (a.no_spill and spilled):
        return 1
    if nk == 0:
        print("hip_resources: no kernel resource remarks found", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
