#!/usr/bin/env python3
"""Prove the maps by use: every mapped entry, used as CUDA code uses it,
translated by cu2dcu, compiles on each target HIP.

    python3 mappings/tools/verify_use.py --tool build/tool/main/cu2dcu \\
        --json testsuite/results/use-verifier.json [--check mappings/tools/use_failures.txt]

For every entry the target HIP translates (targets.mapped_for) and CUDA 13
declares, the probe is written from CUDA's own declaration (signatures.py):
  * a function: one call per overload, with arguments of CUDA's parameter
    types (a template's type parameters as float), in a __device__ probe
    when CUDA declares it in a device header;
  * a type: a pointer to it as a parameter;
  * an enumerator: assigned to a variable of its enum's type (the typedef a
    user writes, CUresult for CUDA_SUCCESS, where the maps map it).
The probes are grouped by family and CUDA header, translated with cu2dcu for
the target, and compiled: HIP 5.2 with hipcc, HIP 6.4 with clang++-22 against
build/hip-6.4, and HIP's NVIDIA path with nvcc and the project's compat
headers (a family whose HIP library a target lacks is not probed there).
A compile's errors are traced to probes; failed probes are cut from the
translated file and it is compiled again until it passes, so every probe gets
its own verdict.  Compile results are cached by the translated text and the
command (--cache, default $CU2DCU_HDRSCAN_CACHE).

--check FILE fails (exit 1) on a failure FILE does not list, and on a listed
failure that now passes, so the list only shrinks.
"""
import argparse
import collections
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import families as F  # noqa: E402
import hdrscan  # noqa: E402
import signatures  # noqa: E402
import targets  # noqa: E402
sys.path.insert(0, os.path.join(hdrscan.REPO, "testsuite", "lib"))
import golden  # noqa: E402

import yaml  # noqa: E402

MAPDIR = os.path.join(hdrscan.REPO, "mappings")
PROBED_KINDS = ("function", "type", "enumerator")
# CUDA headers of host APIs; a function any other header declares is device code
HOST_HEADER = re.compile(r"^(cuda_runtime(_api)?|cuda_device_runtime_api|cuda|driver_functions|"
                         r"channel_descriptor|cuda_profiler_api|cublas\w*|cufft\w*|cudalibxt|"
                         r"curand|cusparse\w*|cusolver\w*|cudnn\w*|nccl)\.h$|^nvtx3/")
# the public header that brings in a declaration of an internal CUDA header
PUBLIC_HEADER = [(re.compile(p), h) for p, h in (
    (r"^cublasLt", "cublasLt.h"), (r"^cublas", "cublas_v2.h"), (r"^cusolver", "cusolverDn.h"), (r"^cusparse", "cusparse.h"),
    (r"^(cufft|cudalibxt)", "cufftXt.h"), (r"^curand_", "curand_kernel.h"), (r"^cudnn", "cudnn.h"),
    (r"^nvtx3/", "nvtx3/nvToolsExt.h"), (r"^cooperative_groups", "cooperative_groups.h"),
    (r"^cuda_fp16", "cuda_fp16.h"), (r"^cuda_bf16", "cuda_bf16.h"), (r"^cuda_fp8", "cuda_fp8.h"))]
# Every type a probe spells goes through cu2dcu_id<...>: a function pointer
# type needs no declarator syntax there, and a type the target lacks is one
# error in a template argument, where nvcc's parser recovers (a bare unknown
# type name in a parameter list ends its parse of the file).
PROBE_PRELUDE = "template <class T> struct cu2dcu_id { typedef T type; };\n"
PROBE_ID = re.compile(r"cu2dcu_probe_(\d+)\b")
SUMMARY_KEYS = ("entries", "verified", "failed_entries", "silent_entries")


class Probe:
    """One use of an entry: its text (with {probe} for the function's name),
    the header it needs and what it exercises (an overload's parameters)."""

    def __init__(self, entry, family, include, text, what):
        self.entry, self.family, self.include, self.text, self.what = \
            entry, family, include, text, what


def include_for(header):
    if header in F.CUDA_TU:
        return header
    return next((h for p, h in PUBLIC_HEADER if p.match(header)), "cuda_runtime.h")


def spelled_outside(type_text, name, sigs):
    """A parameter type as code outside the function's namespace spells it:
    `const thread_block &` of cooperative_groups::sync is
    `const cooperative_groups::thread_block &`."""
    ns = name.rpartition("::")[0]
    if not ns:
        return type_text
    return re.sub(r"(?<![\w:])([A-Za-z_]\w*)",
                  lambda m: ns + "::" + m.group(1) if ns + "::" + m.group(1) in sigs["type_headers"]
                  else m.group(1), type_text)


def function_probes(e, overloads, sigs):
    for o in overloads:
        types = [spelled_outside(t, e["cuda"], sigs) for t in o["params"]]
        if o["template"]:
            types = [re.sub(r"\b(%s)\b" % "|".join(o["template"]), "float", t) for t in types]
        params = ", ".join("cu2dcu_id<%s>::type a%d" % (t, i) for i, t in enumerate(types))
        # type parameters no argument deduces are given explicitly
        explicit = [t for t in o["template"] if not any(re.search(r"\b%s\b" % t, p)
                                                        for p in o["params"])]
        name = e["cuda"] + ("<%s>" % ", ".join("float" for _ in o["template"]) if explicit else "")
        call = "%s(%s)" % (name, ", ".join("a%d" % i for i in range(len(types))))
        device = "" if HOST_HEADER.match(o["header"]) else "__device__ "
        yield (include_for(o["header"]), "%svoid {probe}(%s) { (void)%s; }" % (device, params, call),
               "(%s)" % ", ".join(types))


def enumerator_probe(e, sigs, mapped_types):
    enum = sigs["enumerators"][e["cuda"]]["enum"]
    # the typedef users write (CUresult for CUDA_SUCCESS), else the enum's
    # own name; auto where the target translates neither (the enum type's own
    # entry then says why)
    named = [t for t in sigs["enum_typedefs"].get(enum, []) + [enum] if t in mapped_types]
    spelled = named[0] if named else "auto"
    if spelled == "auto":
        return "void {probe}() { auto v = %s; (void)v; }" % e["cuda"], spelled
    return "void {probe}() { cu2dcu_id<%s>::type v = %s; (void)v; }" % (spelled, e["cuda"]), spelled


def probes_of(e, sigs, mapped_types):
    """[(include, text with {probe} for its name, what it exercises)] of one
    entry, or a reason it cannot be probed."""
    if e["kind"] == "function":
        overloads = sigs["functions"].get(e["cuda"])
        return list(function_probes(e, overloads, sigs)) if overloads else "not declared by CUDA 13"
    if e["kind"] == "enumerator":
        if e["cuda"] not in sigs["enumerators"]:
            return "not an enumerator of CUDA 13"
        text, spelled = enumerator_probe(e, sigs, mapped_types)
        return [(include_for(sigs["enumerators"][e["cuda"]]["header"] or ""), text, spelled)]
    if e["cuda"] in sigs["type_templates"]:
        return "a class template"
    if e["cuda"] not in sigs["type_headers"]:
        return "not a type of CUDA 13"
    return [(include_for(sigs["type_headers"][e["cuda"]] or ""),
             "void {probe}(cu2dcu_id<%s *>::type p) { (void)p; }" % e["cuda"], "pointer")]


def load_entries(mapdir, families):
    """[(family, entry)] of the maps in mapdir (the families named, or all)."""
    found = []
    for fam in F.FAMILIES:
        path = os.path.join(mapdir, fam["file"])
        if not fam["cuda"] or not os.path.exists(path) or families and fam["family"] not in families:
            continue
        with open(path) as f:
            data = yaml.safe_load(f)
        for e in data.get("entries") or []:
            if e.get("kind") in PROBED_KINDS and e.get("status") != "removed":
                found.append((fam, e))
    return found


class Target:
    """One compile target: the cu2dcu version flag, which HIP libraries it
    has, its compile command, and the header folders a cached verdict
    depends on."""

    def __init__(self, name, version, command, has_library, headers=()):
        self.name, self.version, self.command, self.has_library = \
            name, version, command, has_library
        self.headers = headers


def folders_stamp(folders):
    """Every file's path, size and modification time under the folders."""
    stamp = hashlib.sha256()
    for folder in folders:
        for root, dirs, names in sorted(os.walk(folder)):
            dirs.sort()
            for name in sorted(names):
                path = os.path.join(root, name)
                stamp.update(("%s %s\n" % (path, hdrscan._stamp(path))).encode())
    return stamp.hexdigest()


def hip_folders(tree):
    """The folders of a HIP tree's headers (not all of /usr/include)."""
    if not tree:
        return []
    return [os.path.join(tree.inc, d) for d in hdrscan.HIP_DIRS
            if os.path.isdir(os.path.join(tree.inc, d))]


def make_targets(args):
    hip64 = hdrscan.HipTree(args.hip64_prefix) if os.path.isdir(args.hip64_prefix) else None
    hip52 = hdrscan.HipTree()

    def has(tree):
        return lambda fam: tree is not None and all(tree.has(h) for h in fam["hip"])
    return [
        Target("hip-5.2", "5.2", lambda src: [args.hipcc, "--offload-arch=gfx906", "-fsyntax-only",
                                              "-x", "hip", "-w", "-ferror-limit=0", src], has(hip52),
               hip_folders(hip52)),
        Target("hip-6.4", "6.4", lambda src: golden.hip64_command(
            args.clang, args.hip64_prefix, ["-ferror-limit=0"], src), has(hip64),
            hip_folders(hip64)),
        Target("nvidia", "5.2", lambda src: [
            args.nvcc, "-x", "cu", "-arch=sm_90", "-std=c++17", "-D__HIP_PLATFORM_NVIDIA__",
            "-isystem", args.hip_nvidia_include, "-w", "-cuda", "-fdevice-syntax-only",
            "-Xcudafe", "--error_limit=100000", "-o", os.devnull, src],
            lambda fam: not fam.get("hip_lib") and has(hip52)(fam), [args.hip_nvidia_include]),
    ]


def load_headers(mapdir):
    """{CUDA header: its entry} of headers.yaml."""
    with open(os.path.join(mapdir, "headers.yaml")) as f:
        return {e["cuda"]: e for e in yaml.safe_load(f).get("entries") or []}


def build_probes(entries, sigs, target, invalid=None, headers=None):
    """{file name: [Probe]} of the entries target translates, and
    {entry name: reason} of those that cannot be probed (invalid: {(entry,
    use): nvcc's error} of probes that are not valid CUDA; headers: the
    header entries, whose target HIP must translate a probe's include)."""
    invalid, headers = invalid or {}, headers or {}
    mapped_types = {e["cuda"] for _, e in entries if e["kind"] == "type"
                    and targets.mapped_for(e, target.version)}
    files, unprobed = collections.defaultdict(list), {}
    for fam, e in entries:
        if not targets.mapped_for(e, target.version) or not target.has_library(fam):
            continue
        found = probes_of(e, sigs, mapped_types)
        if isinstance(found, str):
            unprobed[e["cuda"]] = found
            continue
        for include, text, what in found:
            if (e["cuda"], what) in invalid:
                unprobed[e["cuda"] + what] = "nvcc rejects this use: " + invalid[e["cuda"], what]
                continue
            include = include or include_for(fam["cuda"][0])
            header = headers.get(include)
            if header and not targets.mapped_for(header, target.version):
                unprobed[e["cuda"] + what] = "%s has no HIP %s header" % (include, target.version)
                continue
            name = "%s__%s.cu" % (fam["family"], re.sub(r"\W", "_", include))
            files[name].append(Probe(e["cuda"], fam["family"], include, text, what))
    return files, unprobed


def write_probes(files, folder):
    for name, probes in files.items():
        includes = sorted({"cuda_runtime.h", probes[0].include} - {None})
        lines = ["#include <%s>" % h for h in includes] + [PROBE_PRELUDE]
        lines += [p.text.replace("{probe}", "cu2dcu_probe_%d" % i) for i, p in enumerate(probes)]
        with open(os.path.join(folder, name), "w") as f:
            f.write("\n".join(lines) + "\n")


def translate(args, target, src, out):
    """Translates the probes in src into out; returns {(file name, probe
    id): message} of the errors cu2dcu reports at a probe (a failure the
    user is told of, unlike a silent one)."""
    report = os.path.join(out, "report.json")
    cmd = [args.tool, src, "-o", out, "--json", report, "--fail-on=never", "--quiet",
           "--mappings", args.maps, "--no-map-cache", "--hip-version=" + target.version]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("cu2dcu failed (exit %d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr[-3000:]))
    with open(report) as f:
        diagnostics = json.load(f)["diagnostics"]
    reported, lines = {}, {}
    for d in diagnostics:
        if d["severity"] != "error":
            continue
        if d["file"] not in lines:
            with open(os.path.join(src, d["file"])) as f:
                lines[d["file"]] = f.read().split("\n")
        m = PROBE_ID.search(lines[d["file"]][d["line"] - 1])
        if m:
            reported.setdefault((d["file"], int(m.group(1))), d["id"] + ": " + d["message"])
    return reported


_ERROR_AT = re.compile(r"^(?P<file>[^\s:(]+)(?::(?P<line>\d+):\d+|\((?P<eline>\d+)\)): "
                       r"(?P<kind>error|fatal error|note|warning)")
_EDG_AT = re.compile(r'at line (\d+) of "?([^\s"]+)')


def error_blocks(stderr):
    """[[lines]]: each error with the notes that follow it."""
    blocks = []
    for line in stderr.splitlines():
        m = _ERROR_AT.match(line)
        if m and m.group("kind") in ("error", "fatal error"):
            blocks.append([line])
        elif blocks:
            blocks[-1].append(line)
    return blocks


def probe_of_block(block, path, lines):
    """The probe a compile error belongs to: the first place in the error and
    its notes that is a line of the probe file."""
    base = os.path.basename(path)
    for line in block:
        places = [(m.group("file"), m.group("line") or m.group("eline"))
                  for m in [_ERROR_AT.match(line)] if m]
        places += [(f, n) for n, f in _EDG_AT.findall(line)]
        for file, number in places:
            if os.path.basename(file) == base and 0 < int(number) <= len(lines):
                m = PROBE_ID.search(lines[int(number) - 1])
                if m:
                    return int(m.group(1))
    return None


def compile_until_clean(command, path):
    """{probe id: first error} of the translated file at path; None for a
    probe means an error no probe explains (the whole file fails)."""
    failed = {}
    for _ in range(50):
        with open(path) as f:
            lines = f.read().split("\n")
        p = subprocess.run(command(path), capture_output=True, text=True, errors="replace")
        if p.returncode == 0:
            return failed
        blocks = error_blocks(p.stderr) or [[p.stderr.strip()[-500:] or "exit %d" % p.returncode]]
        new = {}
        for block in blocks:
            pid = probe_of_block(block, path, lines)
            new.setdefault(pid, re.sub(r"^\S*/", "", block[0])[:400])  # no temporary folder
        if None in new or not new:
            failed[None] = new.get(None, "no error traced")
            return failed
        failed.update(new)
        with open(path, "w") as f:
            f.write("\n".join(l for l in lines if not (PROBE_ID.search(l) and
                                                         int(PROBE_ID.search(l).group(1)) in new)))
    failed[None] = "did not converge"
    return failed


def cached_compile(cache, command, path, headers_stamp=""):
    with open(path, "rb") as f:
        text = f.read()
    compiler = command("SRC")[0]
    real = os.path.realpath(shutil.which(compiler) or compiler)
    key = hashlib.sha256(json.dumps([command("SRC"), real, hdrscan._stamp(real), headers_stamp]
                                    ).encode() + text).hexdigest()
    entry = os.path.join(cache, "use-" + key + ".json") if cache else None
    if entry and os.path.exists(entry):
        with open(entry) as f:
            return {None if k == "" else int(k): v for k, v in json.load(f).items()}
    failed = compile_until_clean(command, path)
    if entry:
        os.makedirs(cache, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=cache, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump({"" if k is None else str(k): v for k, v in failed.items()}, f)
        os.replace(tmp, entry)
    return failed


def compile_all(args, target, folder, files):
    """{file name: {probe id: error}} of the files in folder."""
    stamp = folders_stamp(target.headers) if args.cache else ""
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        return dict(zip(files, pool.map(lambda name: cached_compile(
            args.cache, target.command, os.path.join(folder, name), stamp), files)))


def invalid_cuda_uses(args, entries, sigs):
    """{(entry, use): error} of the probes nvcc itself rejects as CUDA (a
    constrained template, a function sm_90 lacks): they prove nothing."""
    cuda = Target("cuda", "99.0", lambda src: [
        args.nvcc, "-x", "cu", "-arch=sm_90", "-std=c++17", "-w", "-cuda",
        "-fdevice-syntax-only", "-Xcudafe", "--error_limit=100000", "-o", os.devnull, src],
        lambda fam: True, [hdrscan.CUDA_INC])
    files, _ = build_probes(entries, sigs, cuda)
    with tempfile.TemporaryDirectory() as tmp:
        write_probes(files, tmp)
        verdicts = compile_all(args, cuda, tmp, files)
    return {(p.entry, p.what): verdicts[name].get(i, verdicts[name].get(None))
            for name, probes in files.items() for i, p in enumerate(probes)
            if i in verdicts[name] or None in verdicts[name]}


def run_target(args, target, entries, sigs, invalid):
    """The target's verdict: {"entries", "verified", "failed": [...],
    "unprobed": {...}, "file_errors": {...}}."""
    files, unprobed = build_probes(entries, sigs, target, invalid, load_headers(args.maps))
    with tempfile.TemporaryDirectory() as tmp:
        if args.keep:
            tmp = os.path.join(args.keep, target.name)
            shutil.rmtree(tmp, ignore_errors=True)
        src, out = os.path.join(tmp, "src"), os.path.join(tmp, "out")
        os.makedirs(src)
        write_probes(files, src)
        reported = translate(args, target, src, out)
        verdicts = compile_all(args, target, out, files)
    failed, file_errors, probed = [], {}, set()
    for name, probes in sorted(files.items()):
        verdict = verdicts[name]
        if None in verdict:
            file_errors[name] = verdict[None]
        for i, p in enumerate(probes):
            probed.add(p.entry)
            if i in verdict or None in verdict:
                failed.append({"entry": p.entry, "family": p.family, "use": p.what,
                               "error": verdict.get(i, verdict.get(None)),
                               "reported": reported.get((name, i))})
    bad = {f["entry"] for f in failed}
    silent = {f["entry"] for f in failed if not f["reported"]}
    return {"entries": len(probed), "verified": len(probed - bad), "failed_entries": len(bad),
            "verified_entries": sorted(probed - bad),
            "silent_entries": len(silent),
            "failed": failed, "unprobed": dict(sorted(unprobed.items())),
            "file_errors": file_errors}


def check_against(results, listed_path):
    """Failures not in the list, and listed failures that pass now."""
    with open(listed_path) as f:
        listed = {tuple(l.split()[:2]) for l in f if l.strip() and not l.startswith("#")}
    seen = {(t, f["entry"]) for t, r in results.items() for f in r["failed"]}
    verified = {(t, e) for t, r in results.items() for e in r["verified_entries"]}
    problems = ["new failure: %s %s" % k for k in sorted(seen - listed)]
    problems += ["listed failure passes now (remove it): %s %s" % k
                 for k in sorted(listed & verified)]
    return problems


def write_known(results, path):
    """The failures as --check reads them, one per target and entry, with the
    first compiler error and whether cu2dcu reports it."""
    seen = {}
    for t, r in sorted(results.items()):
        for f in r["failed"]:
            error = re.sub(r"^.*?(error|fatal error): ", "", f["error"]).strip()
            seen.setdefault((t, f["entry"]), "%s: %s" % (
                "reported" if f["reported"] else "silent", error[:160]))
    with open(path, "w") as out:
        out.write("# Known failures of mappings/tools/verify_use.py: TARGET ENTRY # why.\n"
                  "# Each is a map entry, shim or translation still to fix; the test\n"
                  "# maps.use_verifier fails on a failure not listed here and on a listed\n"
                  "# one that passes, so this list only shrinks.  Rewrite it with --update.\n")
        for (t, entry), why in sorted(seen.items()):
            out.write("%s %s  # %s\n" % (t, entry, why))


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True, help="the cu2dcu binary")
    ap.add_argument("--json", help="write the verdicts here")
    ap.add_argument("--check", help="the known failures (TARGET NAME reason); exit 1 on any other")
    ap.add_argument("--update", help="write the failures to this file, in --check's format")
    ap.add_argument("--check-summary", metavar="JSON",
                    help="exit 1 unless JSON (an earlier --json) has this run's counts")
    ap.add_argument("--targets", default="hip-5.2,hip-6.4,nvidia")
    ap.add_argument("--maps", default=MAPDIR, help="the maps to prove (default mappings/)")
    ap.add_argument("--families", help="only these map families (comma-separated)")
    ap.add_argument("--hipcc", default=shutil.which("hipcc") or "hipcc")
    ap.add_argument("--clang", default="clang++-22")
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--hip64-prefix", default=hdrscan.HIP64_PREFIX)
    ap.add_argument("--hip-nvidia-include",
                    default=os.path.join(hdrscan.REPO, "build", "testsuite", "golden",
                                         "hip-nvidia-include"))
    ap.add_argument("--cache", default=os.environ.get("CU2DCU_HDRSCAN_CACHE"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--keep", help="keep each target's probes and their translation here")
    return ap.parse_args()


def main():
    args = parse_args()
    missing = [what for what, ok in (
        ("hipcc", shutil.which(args.hipcc)), ("clang++-22", shutil.which(args.clang)),
        ("nvcc", shutil.which(args.nvcc)),
        ("the HIP 6.4 tree (scripts/fetch-hip64.sh)", os.path.isdir(args.hip64_prefix)),
        ("the NVIDIA compat headers (scripts/hip-nvidia/make-compat-headers.py)",
         os.path.isdir(os.path.join(args.hip_nvidia_include, "hip"))))if not ok]
    if missing:
        sys.exit("verify_use: missing %s" % ", ".join(missing))
    entries = load_entries(args.maps, args.families and args.families.split(","))
    sigs = signatures.cuda_signatures()
    invalid = invalid_cuda_uses(args, entries, sigs)
    wanted = args.targets.split(",")
    results = {t.name: run_target(args, t, entries, sigs, invalid)
               for t in make_targets(args) if t.name in wanted}
    for name, r in results.items():
        print("%-8s %5d entries probed, %5d verified by use, %4d failed (%4d without a "
              "cu2dcu error), %d files with untraced errors" % (
                  name, r["entries"], r["verified"], r["failed_entries"], r["silent_entries"],
                  len(r["file_errors"])))
    summary = {t: {k: r[k] for k in SUMMARY_KEYS} for t, r in results.items()}
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": summary, "targets": results}, f, indent=1, sort_keys=True)
            f.write("\n")
    if args.update:
        write_known(results, args.update)
    problems = check_against(results, args.check) if args.check else []
    if args.check_summary:
        with open(args.check_summary) as f:
            if json.load(f)["summary"] != summary:
                problems.append("%s is stale: rewrite it with --json" % args.check_summary)
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
