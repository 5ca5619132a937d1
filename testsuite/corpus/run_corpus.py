#!/usr/bin/env python3
"""Corpus benchmark: translate each HeCBench CUDA benchmark with cu2dcu and
measure the result (docs/corpus.md).

For every benchmark NAME of the corpus (NAME-cuda/ and its hand-written port
NAME-hip/) it records, per file, the parse mode, fallback reason, parser
crash or timeout, CPU time and wave64 findings; then it syntax-checks every
translated translation unit and its hand-written twin with
`hipcc --offload-arch=gfx906 -fsyntax-only`, and counts CUDA identifiers left
in the output. With --nvidia it also compiles the same units through HIP's
NVIDIA path: nvcc for sm_90 with -D__HIP_PLATFORM_NVIDIA__ and the project's
HIP-on-NVIDIA compat headers (scripts/hip-nvidia/make-compat-headers.py),
running only the host and device front ends (NVCC_CHECK). With --hip64
PREFIX it translates every benchmark a second time with --hip-version 6.4
(into its own work folder) and syntax-checks those units and the twins with
clang++-22 against the HIP 6.4 tree of scripts/fetch-hip64.sh, with the
flags of the golden tests' hip64 step (testsuite/lib/golden.py). It writes
one JSON document and prints a Markdown summary.

This is a benchmark command, not a test: it exits 0 whatever it measured.
Exit codes: 0 done, 2 usage error or hipcc (nvcc with --nvidia, clang++-22
or the HIP 6.4 tree with --hip64) missing, 77 corpus absent.
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "testsuite", "lib"))
import golden  # noqa: E402  (the HIP 6.4 profile's compile command)
SKIP_CODE = 77
SOURCE_EXTS = (".cu", ".cpp", ".cc", ".cxx", ".c")
TWIN_EXTS = (".cu", ".hip", ".cpp", ".cc", ".cxx", ".c")
HEADER_EXTS = (".cuh", ".h", ".hpp", ".hh", ".inl", ".inc")
PARSED_MODES = ("ast", "ast-recovered", "lexical")
TOOL_CRASH_CODE = 3
COMPILE_TIMEOUT = 120
TOP = 20
DEFAULT_STD = "c++17"  # what nearly every HeCBench Makefile asks for
NVIDIA_ARCH = "sm_90"
# The cheapest nvcc run that still puts every line through a full C++ front
# end on both sides: -cuda stops the host side after cudafe++ (EDG, host
# code, templates instantiated) and -fdevice-syntax-only stops cicc after its
# front end (device code, __CUDA_ARCH__ branches). Left out: NVVM
# optimisation and ptxas on the device side, and gcc compiling the host code
# that cudafe++ emits (it only catches what the assembler or gcc's own
# builtins reject). Measured in docs/corpus.md: about 60% of `-c -o /dev/null`.
NVCC_CHECK = ["-cuda", "-fdevice-syntax-only", "-o", os.devnull]

# A map entry's CUDA name and the rest of its line (flow-style entries).
MAP_ENTRY = re.compile(r'^- \{cuda: *"?([^",}]+?)"?, *(.*)\}\s*$', re.M)
MAP_HIP = re.compile(r'(?:^|, *)hip: *"?([^",}]*)"?')
# Identifiers, qualified or not (cub::BlockReduce, thrust::cuda::par).
CODE_NAME = re.compile(r"\b[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*")
INCLUDE_PATH = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]', re.M)
QUOTED_NAME = re.compile(r"'([^'\s]+)'")
# A name the benchmark defines itself (a CUDA_CHECK macro, a cudaCheck
# function) is the user's, not a missed CUDA API.
USER_DEFINITION = re.compile(
    r"#\s*define\s+(\w+)"
    r"|\b(?:void|inline|static|bool|int|auto|struct|class|enum|union)\s+(\w+)(?=\s*[(;={\[,)])")
# The names of a declaration list, `Real ajj, all, ajl;`: locals named like a
# CUDA-internal helper (all, umin) are the program's own.
DECLARATOR_LIST = re.compile(r"\b\w+[ \t*&]+((?:\**\w+[ \t]*,[ \t]*)+\**\w+)[ \t]*;")
# A function the program defines (a type, the name, its parameters, a body),
# whatever its return type: `INLINE __hip_bfloat162 __floats2bfloat162_rn(...) {`.
FUNCTION_DEFINITION = re.compile(r"[\w*&>][ \t]+[*&]*(\w+)[ \t]*\([^;{}]*\)[ \t\n]*(?:const[ \t\n]*)?\{")
# Comments, string and character literals; #include paths are kept.
LITERAL_OR_COMMENT = re.compile(
    r'(?P<include>^[ \t]*#[ \t]*include[ \t]*[<"][^>"\n]*[>"])'
    r"|//[^\n]*|/\*.*?\*/"
    r'|"(?:\\.|[^"\\\n])*"'
    r"|'(?:\\.|[^'\\\n])*'",
    re.S | re.M)
MAKE_FLAG = re.compile(r"(?<!\S)(-I|-D|-std=)\s*(\S+)")
MAKE_CONDITIONAL = re.compile(r"(ifeq|ifneq|ifdef|ifndef)\b")
LOCATION = re.compile(r"^\S*?(?::\d+(?::\d+)?:|\(\d+\):)\s*")  # clang/gcc, nvcc
ABSOLUTE_PATH = re.compile(r"(?<![\w.])(?:/[\w.+-]+)+")
SOURCE_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
NUMBER = re.compile(r"\b\d+\b")
PP_DIRECTIVE = re.compile(r"^\s*#\s*(\w+)")


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default=os.path.join(REPO, "..", "shared", "corpus", "hecbench"))
    ap.add_argument("--tool", default=os.path.join(REPO, "build", "tool", "main", "cu2dcu"))
    ap.add_argument("--wave64-score", default=os.path.join(REPO, "testsuite", "results",
                                                           "wave64-dev-truth.json"),
                    help="the wave64 truth score to show the headline of "
                         "(testsuite/checks/truth/score.py writes it)")
    ap.add_argument("--gpu-results", default=os.path.join(REPO, "testsuite", "results", "corpus",
                                                          "gpu-dev.json"),
                    help="gpu_run.py's results, whose headline the summary shows")
    ap.add_argument("--mappings", help="the tool's --mappings (to pin the maps of a frozen tool)")
    ap.add_argument("--tool-arg", action="append", default=[], metavar="ARG",
                    help="an extra cu2dcu argument for every translation, e.g. "
                         "--tool-arg=--fix-wave64 (repeatable)")
    ap.add_argument("--hipcc", default="hipcc")
    ap.add_argument("--out", default=os.path.join(REPO, "testsuite", "results", "corpus", "dev.json"))
    ap.add_argument("--markdown", help="also write the summary table to this file")
    ap.add_argument("--only", help="comma-separated benchmark names")
    ap.add_argument("--limit", type=int, help="first N benchmarks only")
    ap.add_argument("--jobs", type=int, default=1, help="benchmarks (and compiles) run in parallel")
    ap.add_argument("--timeout", type=int, default=600, help="wall seconds per cu2dcu run")
    ap.add_argument("--no-compile", action="store_true",
                    help="skip the hipcc syntax checks (and nvcc's); --hip64 still compiles")
    ap.add_argument("--hip64", metavar="PREFIX",
                    help="the HIP 6.4 column: translate again with --hip-version 6.4 and compile "
                         "against this tree of scripts/fetch-hip64.sh (build/hip-6.4)")
    ap.add_argument("--clang", default="clang++-22", help="the HIP 6.4 column's compiler")
    ap.add_argument("--nvidia", action="store_true",
                    help="also compile every unit through HIP's NVIDIA path (nvcc, %s)" % NVIDIA_ARCH)
    ap.add_argument("--build", action="store_true",
                    help="the build column: make (and cmake) of the translated benchmark and of "
                         "its twin, as build_check.py does")
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--hip-nvidia-include", default=os.path.join(REPO, "build", "hip-nvidia-include"),
                    help="HIP-on-NVIDIA compat headers; generated there when absent")
    ap.add_argument("--work", help="keep translated output here (default: a temporary folder)")
    return ap.parse_args(argv)


def benchmark_names(corpus, only, limit):
    with open(os.path.join(corpus, "MANIFEST.json")) as f:
        names = json.load(f)["benchmarks"]
    if only:
        wanted = only.split(",")
        unknown = sorted(set(wanted) - set(names))
        if unknown:
            fail("not in the corpus manifest: " + ", ".join(unknown))
        names = [n for n in names if n in wanted]
    return names[:limit] if limit else names


# --- flags -------------------------------------------------------------------

def find_makefiles(bench_dir):
    """The benchmark's Makefiles, the top one first (it may only run make in src/)."""
    found = []
    for root, dirs, files in os.walk(bench_dir):
        dirs.sort()
        if "Makefile" in files:
            found.append(os.path.join(root, "Makefile"))
    return sorted(found, key=lambda p: p.count(os.sep))


def makefile_lines(path):
    """Logical lines outside ifeq/ifdef blocks, comments removed."""
    text = read_text(path).replace("\\\n", " ")
    depth = 0
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if MAKE_CONDITIONAL.match(line):
            depth += 1
        elif line.startswith("endif"):
            depth = max(0, depth - 1)
        elif depth == 0:
            yield line


def makefile_flags(bench_dir):
    """-I (absolute, existing), -D and -std flags of the benchmark's Makefiles."""
    defines, includes, stds = [], [], []
    for makefile in find_makefiles(bench_dir):
        base = os.path.dirname(makefile)
        for line in makefile_lines(makefile):
            for kind, value in MAKE_FLAG.findall(line):
                if "$" in value or '"' in value or "'" in value:
                    continue
                if kind == "-D":
                    defines.append(value)
                elif kind == "-std=":
                    stds.append(value)
                elif os.path.isdir(os.path.join(base, value)):
                    includes.append(os.path.normpath(os.path.join(base, value)))
    return {"defines": unique(defines), "includes": unique(includes),
            "std": stds[0] if stds else DEFAULT_STD}


def header_dirs(root):
    dirs = []
    for here, subdirs, files in os.walk(root):
        subdirs.sort()
        if any(f.endswith(HEADER_EXTS) for f in files):
            dirs.append(here)
    return dirs


def relocate(path, old_root, new_root):
    """path under old_root moved to new_root; other paths unchanged."""
    rel = os.path.relpath(path, old_root)
    return path if rel.startswith("..") else os.path.normpath(os.path.join(new_root, rel))


def compiler_flags(flags, include_dirs):
    out = ["-std=" + flags["std"]] + ["-D" + d for d in flags["defines"]]
    return out + ["-I" + d for d in unique(flags["includes"] + include_dirs)]


def read_text(path):
    with open(path, errors="replace") as f:
        return f.read()


def unique(items):
    return list(dict.fromkeys(items))


# --- translation -------------------------------------------------------------

def run_measured(cmd, timeout, log_path):
    """Runs cmd in its own process group; returns exit status, CPU and wall
    seconds of it and its children, and whether the wall timeout killed it."""
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    expired = threading.Event()

    def kill():
        expired.set()
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    timer = threading.Timer(timeout, kill)
    start = time.monotonic()
    timer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    return {"exitCode": proc.returncode,
            "cpuSeconds": round(usage.ru_utime + usage.ru_stime, 3),
            "wallSeconds": round(time.monotonic() - start, 3),
            "timeout": expired.is_set() and os.WIFSIGNALED(status)}


def translate(name, args, work, target=()):
    """Runs cu2dcu (with the target arguments, e.g. --hip-version) on
    NAME-cuda into work; returns the benchmark's record."""
    cuda_dir = os.path.join(args.corpus, name + "-cuda")
    out_dir = os.path.join(work, name + "-out")
    report_path = os.path.join(work, name + ".json")
    flags = makefile_flags(cuda_dir)
    shutil.rmtree(out_dir, ignore_errors=True)
    cmd = [args.tool, cuda_dir, "-o", out_dir, "-j", "1", "--fail-on=never",
           "--json", report_path] + list(target) + (["--mappings", args.mappings] if args.mappings else []) + list(args.tool_arg) + ["--"] + compiler_flags(flags, header_dirs(cuda_dir))
    tool = run_measured(cmd, args.timeout, os.path.join(work, name + ".log"))
    tool["crash"] = not tool["timeout"] and (tool["exitCode"] == TOOL_CRASH_CODE
                                             or tool["exitCode"] < 0)
    if tool["exitCode"] not in (0, 1):
        tool["log"] = tail(os.path.join(work, name + ".log"))
    report = load_report(report_path)
    record = {"name": name, "tool": tool, "makefileFlags": flags,
              "files": file_records(report, out_dir, args.cuda_names),
              "copiedFiles": sum(f["action"] == "copy" for f in report["files"])}
    record["residual"] = residual_summary(record["files"])
    return record


def tail(path, lines=5):
    return read_text(path).splitlines()[-lines:]


def load_report(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {"files": [], "diagnostics": []}


def file_records(report, out_dir, cuda_names):
    wave64 = collections.Counter(d["file"] for d in report["diagnostics"]
                                 if d["id"].startswith(("W64-", "CU2DCU-W64")))
    records = [file_record(f, wave64[f["path"]]) for f in report["files"]
               if f["action"] == "translate"]
    counts = residual_counts(records, out_dir, cuda_names, reported_names(report))
    for r in records:
        r["residual"] = counts.get(r["path"], {})
    return sorted(records, key=lambda r: r["path"])


def file_record(f, wave64_findings):
    mode, reason = f["parseMode"], f["reason"] or ""
    failure = f.get("parseFailure")
    checked = f.get("wave64Checked")
    if checked is None:
        checked = mode in ("ast", "ast-recovered") or wave64_findings > 0
    return {"path": f["path"], "header": f["header"], "status": f["status"],
            "parseMode": mode, "reason": f["reason"], "parseFailure": failure,
            "parseCrash": failure == "crash" or "crashed" in reason,
            "parseTimeout": failure == "timeout" or "timed out" in reason,
            "cpuSeconds": f.get("cpuSeconds"),
            "wave64Checked": checked, "wave64Findings": wave64_findings}


# --- residual CUDA identifiers -----------------------------------------------

def code_text(text):
    """text without comments, literals and shim blocks; #include paths stay."""
    def keep(m):
        return m.group("include") or ('""' if m.group(0)[0] in "\"'" else " ")
    return without_shim_blocks(LITERAL_OR_COMMENT.sub(keep, text))


def without_shim_blocks(text):
    """text without the shims cu2dcu writes (#ifndef CU2DCU_SHIM_x ... #endif):
    their NVIDIA branch calls CUDA on purpose, under __HIP_PLATFORM_NVIDIA__."""
    kept, depth = [], 0
    for line in text.splitlines(keepends=True):
        directive = PP_DIRECTIVE.match(line)
        if depth == 0 and directive and line.split()[-1].startswith("CU2DCU_SHIM_") \
                and directive.group(1) == "ifndef":
            depth = 1
            continue
        if depth:
            if directive and directive.group(1).startswith("if"):
                depth += 1
            elif directive and directive.group(1) == "endif":
                depth -= 1
            continue
        kept.append(line)
    return "".join(kept)


def map_cuda_names(mappings_dir):
    """The CUDA names the maps translate, shim or report: every entry except
    those HIP spells the same (__ldg, thrust::), which stay as they are."""
    names = set()
    for path in sorted(glob.glob(os.path.join(mappings_dir, "*.yaml"))):
        for cuda, rest in MAP_ENTRY.findall(read_text(path)):
            hip = MAP_HIP.search(rest)
            if not hip or hip.group(1) != cuda:
                names.add(cuda)
    return names


def names_in(code):
    """Each identifier of code, and each namespace prefix of a qualified name
    (thrust::cuda::par gives thrust::, thrust::cuda:: and par), as the maps
    spell them."""
    names = []
    for qualified in CODE_NAME.findall(code):
        parts = [p.strip() for p in qualified.split("::")]
        names += ["::".join(parts[:i]) + "::" for i in range(1, len(parts))] + [parts[-1]]
    return names


def reported_names(report):
    """Per file, the names its findings quote: a name left in the output on
    purpose (unsupported on the target, a kept __CUDA_ARCH__ comparison) is
    reported, not missed."""
    names = collections.defaultdict(set)
    for d in report["diagnostics"]:
        names[d["file"]].update(QUOTED_NAME.findall(d.get("message", "")))
    return names


def residual_counts(records, out_dir, cuda_names, reported):
    """Per translated file: CUDA names (of the maps) left in its output code
    or #include lines that no finding of the file reports, except names the
    benchmark defines itself."""
    texts = {}
    for r in records:
        path = os.path.join(out_dir, r["path"])
        if os.path.isfile(path):
            texts[r["path"]] = code_text(read_text(path))
    user = {a or b for t in texts.values() for a, b in USER_DEFINITION.findall(t)}
    user |= {name.strip(" \t*") for t in texts.values() for names in DECLARATOR_LIST.findall(t)
             for name in names.split(",")}
    user |= {name for t in texts.values() for name in FUNCTION_DEFINITION.findall(t)}
    counts = {}
    for path, text in texts.items():
        used = names_in(INCLUDE_PATH.sub("", text)) + INCLUDE_PATH.findall(text)
        left = (n for n in used if n in cuda_names and n not in user
                and n not in reported.get(path, ()))
        counts[path] = dict(collections.Counter(left))
    return counts


def residual_summary(files):
    total = collections.Counter()
    for f in files:
        total.update(f["residual"])
    return {"count": sum(total.values()), "top": top(total, 10)}


def top(counter, n):
    return [[k, v] for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]


# --- compile -----------------------------------------------------------------

def compile_units(record, cuda_dir):
    """Translated translation units: sources with CUDA in them that no other
    file of the benchmark #includes."""
    included = included_sources(cuda_dir)
    return [f for f in record["files"]
            if not f["header"] and f["path"].endswith(SOURCE_EXTS)
            and f["parseMode"] in PARSED_MODES and os.path.basename(f["path"]) not in included]


def included_sources(bench_dir):
    """Base names of source files that some file of the benchmark #includes."""
    names = set()
    for root, _, files in os.walk(bench_dir):
        for f in files:
            if f.endswith(SOURCE_EXTS + HEADER_EXTS):
                includes = SOURCE_INCLUDE.findall(read_text(os.path.join(root, f)))
                names.update(os.path.basename(i) for i in includes if i.endswith(SOURCE_EXTS))
    return names


def find_twin(hip_dir, cuda_dir, rel):
    """The hand-written file for rel, relative to hip_dir: the same path, else
    the same stem in the same folder, else the only file with that stem
    anywhere in the twin, else the CUDA file itself where the twin's Makefile
    builds it from there (a port that reuses host-only code)."""
    if os.path.isfile(os.path.join(hip_dir, rel)):
        return rel
    stem = os.path.splitext(rel)[0]
    for ext in TWIN_EXTS:
        if os.path.isfile(os.path.join(hip_dir, stem + ext)):
            return stem + ext
    base = os.path.basename(stem)
    found = [os.path.relpath(os.path.join(root, f), hip_dir)
             for root, _, files in os.walk(hip_dir) for f in files
             if os.path.splitext(f)[0] == base and f.endswith(TWIN_EXTS)]
    if len(found) == 1:
        return found[0]
    shared = os.path.join(cuda_dir, rel)
    for makefile in find_makefiles(hip_dir):
        if os.path.relpath(shared, os.path.dirname(makefile)) in read_text(makefile):
            return os.path.relpath(shared, hip_dir)
    return None


def compile_tasks(record, args, work):
    """(platform, unit, side, source, flags, root) for the translated TUs and
    their twins, per compile column; errors name files relative to root. The
    HIP 6.4 column compiles the --hip-version 6.4 translation."""
    name = record["name"]
    cuda_dir = os.path.join(args.corpus, name + "-cuda")
    hip_dir = os.path.join(args.corpus, name + "-hip")
    hip_flags = compiler_flags(makefile_flags(hip_dir), header_dirs(hip_dir))
    units = [{"path": f["path"], "twin": find_twin(hip_dir, cuda_dir, f["path"])}
             for f in compile_units(record, cuda_dir)]
    record["compile"] = {"units": units}
    tasks = []
    for platform in args.platforms:
        prefix = PLATFORMS[platform][0]
        out_dir = os.path.join(hip64_work(work) if platform == "hip64" else work, name + "-out")
        cuda_flags = record["makefileFlags"]
        moved = dict(cuda_flags, includes=[relocate(p, cuda_dir, out_dir) for p in cuda_flags["includes"]])
        out_flags = compiler_flags(moved, header_dirs(out_dir))
        for u in units:
            tasks.append((platform, u, "translated", os.path.join(out_dir, u["path"]), out_flags, out_dir))
            if u["twin"]:
                tasks.append((platform, u, "twin", os.path.join(hip_dir, u["twin"]), hip_flags,
                              args.corpus))
            else:
                u.update({side_key(prefix, "twin", "Ok"): False,
                          side_key(prefix, "twin", "Error"): "no hand-written twin found"})
    return tasks


def hipcc_command(args, flags, source):
    return [args.hipcc, "--offload-arch=gfx906", "-fsyntax-only", "-x", "hip", "-w"] + flags + [source]


def nvcc_command(args, flags, source):
    """HIP's NVIDIA path as hipcc would run it (nvcc -x cu, the HIP headers as
    -isystem), the compat headers instead of /usr/include/hip."""
    return ([args.nvcc, "-x", "cu", "-arch=" + NVIDIA_ARCH, "-D__HIP_PLATFORM_NVIDIA__",
             "-isystem", args.hip_nvidia_include, "-w"] + NVCC_CHECK + flags + [source])


def compile_check(cmd, source, root):
    """(ok, first error line) of the compile cmd of source; paths in the
    error are relative to root."""
    if not os.path.isfile(source):
        return False, "no output file"
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, errors="replace",
                            cwd=os.path.dirname(source), start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=COMPILE_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return False, "%s timed out (%d s)" % (os.path.basename(cmd[0]), COMPILE_TIMEOUT)
    if proc.returncode == 0:
        return True, None
    errors = [l.strip().replace(root + os.sep, "") for l in output.splitlines() if "error:" in l]
    return False, (errors[0] if errors
                   else "%s exit %d" % (os.path.basename(cmd[0]), proc.returncode))[:300]


def hip64_command(args, flags, source):
    return golden.hip64_command(args.clang, args.hip64, flags, source)


# Per unit, the AMD results are translatedOk/Error and twinOk/Error; the
# NVIDIA ones the same names prefixed with "nvidia" (nvidiaTranslatedOk, ...),
# the HIP 6.4 ones prefixed with "hip64".
PLATFORMS = {"amd": ("", hipcc_command), "nvidia": ("nvidia", nvcc_command),
             "hip64": ("hip64", hip64_command)}


def side_key(prefix, side, what):
    """translatedOk, nvidiaTwinError, ..."""
    key = side + what
    return prefix + key[0].upper() + key[1:] if prefix else key


def run_compiles(records, args, work):
    jobs = [t for r in records for t in compile_tasks(r, args, work)]

    def check(job):
        platform, unit, side, source, flags, root = job
        prefix, command = PLATFORMS[platform]
        start = time.monotonic()
        ok, error = compile_check(command(args, flags, source), source, root)
        unit.update({side_key(prefix, side, "Ok"): ok, side_key(prefix, side, "Error"): error})
        if prefix:
            unit[side_key(prefix, side, "Seconds")] = round(time.monotonic() - start, 2)

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(check, jobs))
    for r in records:
        units = r["compile"]["units"]
        for platform in args.platforms:
            prefix = PLATFORMS[platform][0]
            r["compile"][side_key(prefix, "translated", "Ok")] = bool(units) and all(
                u[side_key(prefix, "translated", "Ok")] for u in units)
            r["compile"][side_key(prefix, "comparable", "")] = bool(units) and all(
                u[side_key(prefix, "twin", "Ok")] for u in units)


# --- summary -----------------------------------------------------------------

def normalize(message):
    """A reason or error without locations, paths and numbers, to group them."""
    message = LOCATION.sub("", message.strip())
    return NUMBER.sub("N", ABSOLUTE_PATH.sub("PATH", message))


def percent(part, whole):
    return round(100.0 * part / whole, 1) if whole else None


def mode_table(files):
    counts = collections.Counter(f["parseMode"] for f in files)
    parsed = sum(counts[m] for m in PARSED_MODES)
    return {"counts": dict(counts), "parsed": parsed,
            "percent": {m: percent(counts[m], parsed) for m in PARSED_MODES}}


def summarize(records, platforms):
    files = [f for r in records for f in r["files"]]
    parsed = [f for f in files if f["parseMode"] in PARSED_MODES]
    cpu = sum(r["tool"]["cpuSeconds"] for r in records)
    ast_like = sum(f["parseMode"] in ("ast", "ast-recovered") for f in parsed)
    reasons = collections.Counter(
        "%s: %s" % (f["parseMode"], normalize(f["reason"] or "no reason"))
        for f in parsed if f["parseMode"] != "ast")
    residual = collections.Counter()
    for f in files:
        residual.update(f["residual"])
    return {
        "benchmarks": len(records),
        "files": {"sources": sum(not f["header"] for f in files),
                  "headers": sum(f["header"] for f in files),
                  "copied": sum(r["copiedFiles"] for r in records)},
        "parseModes": {"sources": mode_table([f for f in files if not f["header"]]),
                       "headers": mode_table([f for f in files if f["header"]]),
                       "all": mode_table(files)},
        "astSharePercent": percent(ast_like, len(parsed)),
        "toolCrashes": sum(r["tool"]["crash"] for r in records),
        "toolErrors": sum(r["tool"]["exitCode"] not in (0, 1) and not r["tool"]["crash"]
                          and not r["tool"]["timeout"] for r in records),
        "toolTimeouts": sum(r["tool"]["timeout"] for r in records),
        "parseCrashes": sum(f["parseCrash"] for f in files),
        "parseTimeouts": sum(f["parseTimeout"] for f in files),
        "toolJobs": 1,
        "cpuSeconds": round(cpu, 2),
        "cpuSecondsPerFile": round(cpu / len(parsed), 3) if parsed else None,
        "wallSeconds": round(sum(r["tool"]["wallSeconds"] for r in records), 2),
        "wave64CheckedPercent": percent(sum(f["wave64Checked"] for f in parsed), len(parsed)),
        "wave64Findings": sum(f["wave64Findings"] for f in files),
        "residualIdentifiers": {"count": sum(residual.values()),
                                "files": sum(bool(f["residual"]) for f in files),
                                "top": top(residual, TOP)},
        "topFallbackReasons": top(reasons, TOP),
        "compile": compile_summary(records) if "amd" in platforms else None,
        "compileNvidia": compile_summary(records, "nvidia") if "nvidia" in platforms else None,
        "compileHip64": compile_summary(records, "hip64") if "hip64" in platforms else None,
        "hip64Translation": hip64_translation_summary(records) if "hip64" in platforms else None,
    }


def hip64_translation_summary(records):
    """How the --hip-version 6.4 translations went: tool failures and the
    CUDA names left in their output."""
    return {"toolFailures": sum(r["hip64"]["tool"]["exitCode"] not in (0, 1) for r in records),
            "residualIdentifiers": sum(r["hip64"]["residual"]["count"] for r in records)}


# The compile command of each prefixed column, as the summary shows it.
COLUMN_COMMANDS = {
    "nvidia": ["nvcc", "-x", "cu", "-arch=" + NVIDIA_ARCH, "-D__HIP_PLATFORM_NVIDIA__", "-isystem",
               "HIP_NVIDIA_INCLUDE", "-w"] + NVCC_CHECK + ["FLAGS", "SOURCE"],
    "hip64": golden.hip64_command("clang++-22", "HIP64_PREFIX", ["FLAGS"], "SOURCE"),
}


def compile_summary(records, prefix=""):
    """Compile counts of one platform: AMD (no prefix) or NVIDIA ("nvidia")."""
    def key(side, what):
        return side_key(prefix, side, what)
    units = [u for r in records for u in r["compile"]["units"]]
    comparable = [r for r in records if r["compile"][key("comparable", "")]]
    ok = sum(r["compile"][key("translated", "Ok")] for r in comparable)
    errors = collections.Counter(normalize(u[key("translated", "Error")])
                                 for u in units if u[key("translated", "Error")])
    summary = {"translatedUnits": len(units),
               "translatedUnitsOk": sum(u[key("translated", "Ok")] for u in units),
               "twinUnitsOk": sum(u[key("twin", "Ok")] for u in units),
               "comparablePairs": len(comparable),
               "translatedPairsOk": ok,
               "translatedPairsOkPercent": percent(ok, len(comparable)),
               "topCompileErrors": top(errors, TOP)}
    if prefix:
        seconds = [u[key(s, "Seconds")] for u in units for s in ("translated", "twin")
                   if key(s, "Seconds") in u]
        summary.update({
            "command": " ".join(COLUMN_COMMANDS[prefix]),
            "compiles": len(seconds),
            "wallSecondsPerCompile": round(sum(seconds) / len(seconds), 2) if seconds else None})
    if prefix and all("comparable" in r["compile"] for r in records):
        # comparable in this column and hipcc's: where the two can be set side by side
        both = [r["compile"] for r in records
                if r["compile"]["comparable"] and r["compile"][key("comparable", "")]]
        summary.update({"comparableBothPairs": len(both),
                        "translatedPairsOkBoth": sum(c["translatedOk"] and c[key("translated", "Ok")]
                                                     for c in both)})
    return summary


def wave64_truth_headline(path):
    """Recall and precision of the W64 checks against the truth mined from the
    hand-written ports (testsuite/checks/truth), when that score exists."""
    score = optional_json(path)
    if score is None:
        return None
    return {"coreRecall": score["recall"]["core"]["recall"],
            "allRecall": score["recall"]["all"]["recall"],
            "precision": score["precision"]["precision"],
            "truthLines": score["recall"]["all"]["truth"]}


def run_builds(records, args):
    """The build column: each benchmark's translated Makefile / CMakeLists.txt
    built beside its twin's (build_check.py), per column the share that
    builds where the twin does."""
    import build_check
    maps = args.mappings or ""

    def one(record):
        record["build"] = build_check.check_benchmark(record["name"], args.corpus, args.tool,
                                                      maps=maps)

    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            list(pool.map(one, records))
    finally:
        build_check.remove_cmake_places()
    results = [r["build"] for r in records]
    return {col: build_check.column_summary(results, col) for col in ("make", "cmake")}


def gpu_headline(path):
    """The summary of gpu_run.py (originals and translations run on an NVIDIA
    GPU, outputs compared), when that run exists."""
    run = optional_json(path)
    return run["summary"] if run else None


def optional_json(path):
    """A results file another command writes, or None where it was not run."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError:
        return None


def markdown(summary):
    """The summary table, then the most common fallback reasons and errors."""
    text = table(["metric", "value"], summary_rows(summary))
    text += "\nTop fallback reasons:\n\n" + table(["files", "reason"], swap(summary["topFallbackReasons"]))
    if summary["compile"]:
        text += "\nTop first compile errors of translated units:\n\n" + table(
            ["units", "error"], swap(summary["compile"]["topCompileErrors"]))
    for key, column in (("compileNvidia", "NVIDIA path"), ("compileHip64", "HIP 6.4")):
        if summary.get(key):
            text += "\nTop first compile errors of translated units, %s:\n\n" % column + table(
                ["units", "error"], swap(summary[key]["topCompileErrors"]))
    return text


def summary_rows(summary):
    rows = [("benchmarks", summary["benchmarks"]),
            ("translatable files (sources / headers)", "%d / %d" % (
                summary["files"]["sources"], summary["files"]["headers"]))]
    for group in ("sources", "headers", "all"):
        modes = summary["parseModes"][group]
        shares = [fmt_share(modes["counts"].get(m, 0), modes["percent"][m]) for m in PARSED_MODES]
        rows.append(("%s: AST / AST-recovered / lexical / no CUDA" % group,
                     " / ".join(shares + [str(modes["counts"].get("none", 0))])))
    rows += [("AST share (AST + AST-recovered) of parsed files", fmt_pct(summary["astSharePercent"])),
             ("tool crashes / hangs / other errors", "%d / %d / %d" % (
                 summary["toolCrashes"], summary["toolTimeouts"], summary["toolErrors"])),
             ("parser crashes / timeouts (fell back)", "%d / %d" % (
                 summary["parseCrashes"], summary["parseTimeouts"])),
             ("CPU s per file with CUDA (-j1)", summary["cpuSecondsPerFile"]),
             ("CPU s total / wall s total", "%s / %s" % (summary["cpuSeconds"], summary["wallSeconds"])),
             ("wave64 checked (of parsed files)", fmt_pct(summary["wave64CheckedPercent"])),
             ("wave64 findings", summary["wave64Findings"]),
             ("residual CUDA identifiers (files)", "%d (%d)" % (
                 summary["residualIdentifiers"]["count"], summary["residualIdentifiers"]["files"]))]
    truth = summary.get("wave64Truth")
    if truth:
        rows.append(("wave64 vs mined truth (%d lines): recall core / all, precision" %
                     truth["truthLines"], "%.1f%% / %.1f%%, %.1f%%" % (
                         100 * truth["coreRecall"], 100 * truth["allRecall"], 100 * truth["precision"])))
    for col, b in (summary.get("build") or {}).items():
        if b["sampled"]:
            rows.append(("build column, %s: translated builds where the twin builds" % col,
                         "%d / %d" % (b["translated_builds_where_twin_builds"], b["twin_builds"])))
    gpu = summary.get("gpuRun")
    if gpu:
        rows.append(("GPU run (sm_%s): translations whose output matches the CUDA original, of "
                     "originals that run" % gpu.get("sm", "90"),
                     "%d / %d (%s)" % (gpu["same"], gpu["cudaRuns"],
                                       fmt_pct(100 * gpu["sameShare"] if gpu["sameShare"] is not None
                                               else None))))
    c = summary["compile"]
    if c:
        rows += [("translated TUs compiling", "%d / %d" % (c["translatedUnitsOk"], c["translatedUnits"])),
                 ("comparable pairs (all twin TUs compile)", c["comparablePairs"]),
                 ("translated pairs compiling", "%d (%s)" % (
                     c["translatedPairsOk"], fmt_pct(c["translatedPairsOkPercent"])))]
    n = summary.get("compileNvidia")
    if n:
        rows += [("NVIDIA path (nvcc %s): translated TUs compiling" % NVIDIA_ARCH,
                  "%d / %d" % (n["translatedUnitsOk"], n["translatedUnits"])),
                 ("NVIDIA path: comparable pairs (all twin TUs compile)", n["comparablePairs"]),
                 ("NVIDIA path: translated pairs compiling", "%d (%s)" % (
                     n["translatedPairsOk"], fmt_pct(n["translatedPairsOkPercent"]))),
                 ("both platforms: comparable pairs / translated pairs compiling on both",
                  "%d / %d" % (n["comparableBothPairs"], n["translatedPairsOkBoth"])),
                 ("NVIDIA path: wall s per compile (front ends only)", n["wallSecondsPerCompile"])]
    return rows + hip64_rows(summary)


def hip64_rows(summary):
    h, t = summary.get("compileHip64"), summary.get("hip64Translation")
    if not h:
        return []
    rows = [("HIP 6.4 (--hip-version 6.4, clang++-22): translated TUs compiling",
             "%d / %d" % (h["translatedUnitsOk"], h["translatedUnits"])),
            ("HIP 6.4: comparable pairs (all twin TUs compile)", h["comparablePairs"]),
            ("HIP 6.4: translated pairs compiling", "%d (%s)" % (
                h["translatedPairsOk"], fmt_pct(h["translatedPairsOkPercent"]))),
            ("HIP 6.4: tool failures / residual CUDA identifiers", "%d / %d" % (
                t["toolFailures"], t["residualIdentifiers"])),
            ("HIP 6.4: wall s per compile (syntax only)", h["wallSecondsPerCompile"])]
    if "comparableBothPairs" in h:
        rows.append(("HIP 5.2 and 6.4: comparable pairs / translated pairs compiling on both",
                     "%d / %d" % (h["comparableBothPairs"], h["translatedPairsOkBoth"])))
    return rows


def table(header, rows):
    lines = ["| %s |" % " | ".join(header), "|%s" % ("---|" * len(header))]
    for row in rows:
        cells = ("n/a" if v is None else str(v).replace("|", "\\|") for v in row)
        lines.append("| %s |" % " | ".join(cells))
    return "\n".join(lines) + "\n"


def swap(pairs):
    return [(count, text) for text, count in pairs]


def fmt_pct(value):
    return "n/a" if value is None else "%.1f%%" % value


def fmt_share(count, pct):
    return "%d (%s)" % (count, fmt_pct(pct))


# --- main --------------------------------------------------------------------

def check_inputs(args):
    if not os.path.isfile(os.path.join(args.corpus, "MANIFEST.json")):
        print("corpus absent: not run (%s)" % args.corpus)
        sys.exit(SKIP_CODE)
    if not os.access(args.tool, os.X_OK):
        fail("cu2dcu not found at %s (build it, or pass --tool)" % args.tool)
    if not args.no_compile and not shutil.which(args.hipcc):
        fail("hipcc not found (%s); install HIP (scripts/install-deps.sh) "
             "or pass --no-compile" % args.hipcc)
    args.hipcc = shutil.which(args.hipcc) or args.hipcc
    if args.hip64:
        args.hip64 = os.path.abspath(args.hip64)
        if not shutil.which(args.clang):
            fail("%s not found; the HIP 6.4 column needs it (or leave out --hip64)" % args.clang)
        if not os.path.isfile(os.path.join(args.hip64, "usr", "include", "hip", "hip_version.h")):
            fail("no HIP 6.4 tree in %s: run scripts/fetch-hip64.sh" % args.hip64)
        args.clang = shutil.which(args.clang)
    args.platforms = compile_platforms(args)
    if args.nvidia and not args.no_compile:
        if not shutil.which(args.nvcc):
            fail("nvcc not found (%s); pass --nvcc, or leave out --nvidia" % args.nvcc)
        args.nvcc = shutil.which(args.nvcc)
        args.hip_nvidia_include = os.path.abspath(args.hip_nvidia_include)
        ensure_compat_headers(args.hip_nvidia_include)
    args.corpus = os.path.abspath(args.corpus)
    args.tool = os.path.abspath(args.tool)


def compile_platforms(args):
    """The compile columns asked for: hipcc for HIP 5.2 ("amd") unless
    --no-compile, nvcc with it, clang++-22 for HIP 6.4 with --hip64."""
    columns = [] if args.no_compile else ["amd"] + (["nvidia"] if args.nvidia else [])
    return columns + (["hip64"] if args.hip64 else [])


def ensure_compat_headers(out):
    """Generates the HIP-on-NVIDIA compat headers into out unless they are there."""
    if os.path.isfile(os.path.join(out, "hip", "hip_runtime.h")):
        return
    script = os.path.join(REPO, "scripts", "hip-nvidia", "make-compat-headers.py")
    proc = subprocess.run([sys.executable, script, "--out", out], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        fail("make-compat-headers.py failed:\n" + proc.stdout)
    print(proc.stdout.strip(), file=sys.stderr)


def fail(message):
    print("error: " + message, file=sys.stderr)
    sys.exit(2)


def hip64_work(work):
    """The HIP 6.4 column's translations: beside the others, never over them."""
    return os.path.join(work, "hip64")


def translate_all(names, args, work):
    done = []

    def one(name):
        record = translate(name, args, work)
        if args.hip64:
            again = translate(name, args, hip64_work(work), golden.hip64_args([]))
            record["hip64"] = {"tool": again["tool"], "residual": again["residual"]}
        done.append(name)
        print("[%d/%d] %s: exit %d, %.1f s CPU" % (len(done), len(names), name,
              record["tool"]["exitCode"], record["tool"]["cpuSeconds"]), file=sys.stderr)
        return record

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        return list(pool.map(one, names))


def write_outputs(document, table, args):
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(document, f, indent=1, sort_keys=True)
        f.write("\n")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table)
    print(table, end="")


def main(argv=None):
    args = parse_args(argv)
    check_inputs(args)
    args.cuda_names = map_cuda_names(args.mappings or os.path.join(REPO, "mappings"))
    names = benchmark_names(args.corpus, args.only, args.limit)
    with tempfile.TemporaryDirectory(prefix="cu2dcu-corpus-") as tmp:
        work = os.path.abspath(args.work) if args.work else tmp
        os.makedirs(work, exist_ok=True)
        os.makedirs(hip64_work(work), exist_ok=True)
        records = translate_all(names, args, work)
        if args.platforms:
            run_compiles(records, args, work)
    builds = run_builds(records, args) if args.build else None
    summary = summarize(records, args.platforms)
    summary["build"] = builds
    summary["wave64Truth"] = wave64_truth_headline(args.wave64_score)
    summary["gpuRun"] = gpu_headline(args.gpu_results)
    write_outputs({"summary": summary, "benchmarks": records}, markdown(summary), args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
