"""Extract the names declared by installed CUDA and HIP headers.

Used by generate.py (to write the maps) and verify.py (to check them).
Each scan runs clang-22 on a small translation unit that includes the
requested headers and reads its textual AST dump (for functions, types,
enumerators, variables, namespaces) and its `-E -dD` output (for macros).
Each name is attributed to the header file that declares it.

With CU2DCU_HDRSCAN_CACHE set to a folder (the tests set it in the build
tree), a scan's result is kept there and reused while the compiler, the
command and every file the compile read (its -MD dependency list, by size and
modification time) are unchanged; without it nothing is cached.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile

CLANG = os.environ.get("CU2DCU_CLANG", "clang-22")
CUDA_ROOT = os.environ.get("CU2DCU_CUDA_PATH", "/usr/local/cuda")
CUDA_INC = os.path.join(CUDA_ROOT, "include")
HIP_INC = os.environ.get("CU2DCU_HIP_INCLUDE", "/usr/include")

# The CUDA headers are read the way nvcc's host pass sees them (C++ with
# __CUDACC__), not through clang's CUDA wrapper headers, which replace many of
# CUDA's device declarations by their own.  Errors are expected (clang is newer
# than CUDA 13 supports) and harmless: declarations are still recorded.
CUDA_FLAGS = ["-x", "c++", "-std=c++17", "-D__CUDACC__", "-D__NVCC__",
              "-D__NV_NO_HOST_COMPILER_CHECK=1", "-D__CUDACC_VER_MAJOR__=13",
              "-D__CUDACC_VER_MINOR__=0", "-D__CUDACC_VER_BUILD__=0",
              "-I" + CUDA_INC, "-I" + os.path.join(CUDA_INC, "cccl"),
              "-Wno-everything"]
# The HIP side is read as clang's HIP host pass sees it.
HIP_BASE_FLAGS = ["-x", "hip", "--cuda-host-only", "-nogpulib", "-std=c++17",
                  "-D__HIP_PLATFORM_AMD__", "-D__HIP_PLATFORM_HCC__",
                  "-D__AMDGCN_WAVEFRONT_SIZE=64", "-Wno-everything"]
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# where scripts/fetch-hip64.sh unpacks HIP 6.4 and its libraries
HIP64_PREFIX = os.environ.get("CU2DCU_HIP64_PREFIX", os.path.join(REPO, "build", "hip-6.4"))


class HipTree:
    """One set of HIP headers: the installed HIP (prefix None: HIP_INC, HIP
    5.2 here) or a HIP tree unpacked under `prefix` (build/hip-6.4 of
    scripts/fetch-hip64.sh, with usr/include/hip), and the clang flags that
    read it."""

    def __init__(self, prefix=None):
        if prefix is None:
            self.inc, self.hip_path = HIP_INC, []
            self.flags = HIP_BASE_FLAGS + ["-I" + HIP_INC]
        else:
            usr = os.path.join(prefix, "usr")
            if not os.path.isfile(os.path.join(usr, "include", "hip", "hip_version.h")):
                usr = prefix
            if not os.path.isfile(os.path.join(usr, "include", "hip", "hip_version.h")):
                raise SystemExit("no HIP headers under %s (expected usr/include/hip/hip_version.h): "
                                 "run scripts/fetch-hip64.sh" % prefix)
            usr = os.path.abspath(usr)
            self.inc, self.hip_path = os.path.join(usr, "include"), ["--hip-path=" + usr]
            # -isystem, not -I: clang drops a -I directory that duplicates the
            # system directory --hip-path adds (after /usr/include, where HIP
            # 5.2 may be).  HIP 6.x declares the *_sync warp functions only
            # with HIP_ENABLE_WARP_SYNC_BUILTINS (cu2dcu tells users to define it).
            self.flags = HIP_BASE_FLAGS + self.hip_path + \
                ["-isystem", self.inc, "-DHIP_ENABLE_WARP_SYNC_BUILTINS"]
        self.version = hip_version(self.inc)

    def has(self, header):
        return os.path.isfile(os.path.join(self.inc, header))


def hip_version(inc):
    """MAJOR.MINOR from hip/hip_version.h under inc ("0.0" without one)."""
    try:
        text = open(os.path.join(inc, "hip", "hip_version.h")).read()
        return "%s.%s" % (re.search(r"#define HIP_VERSION_MAJOR (\d+)", text).group(1),
                          re.search(r"#define HIP_VERSION_MINOR (\d+)", text).group(1))
    except (OSError, AttributeError):
        return "0.0"


KIND_OF_NODE = {
    "FunctionDecl": "function", "FunctionTemplateDecl": "function",
    "CXXMethodDecl": None,
    "TypedefDecl": "type", "TypeAliasDecl": "type", "CXXRecordDecl": "type",
    "RecordDecl": "type", "EnumDecl": "type", "ClassTemplateDecl": "type",
    "TypeAliasTemplateDecl": "type",
    "EnumConstantDecl": "enumerator", "VarDecl": "variable",
    "NamespaceDecl": "namespace",
}

_LOC = re.compile(r"(?:(/[^\s:<>,]+|<built-in>|<scratch space>|<command line>):(\d+):\d+)")
_NODE = re.compile(r"^([| `]*)[|`]-(\w+) 0x[0-9a-f]+ (.*)$")
_AFTER = re.compile(
    r"(?:<[^>]*(?:<[^>]*>[^>]*)*>|<invalid sloc>) "      # source range
    r"(?:<invalid sloc>|col:\d+|line:\d+:\d+|<scratch space>:\d+:\d+|<built-in>:\d+:\d+|\S+:\d+:\d+)(?: <Spelling=[^>]*>)? "  # location
    r"(?:(?:implicit|used|referenced|invalid|constexpr|imported|hidden|"
    r"private_extern|module_private|inline|nested|__module_private__|"
    r"implicit_instantiation|instantiated_from \S+) )*"
    r"(?:(?:struct|class|union|enum) )?(?:(?:class|struct) )?"
    r"([A-Za-z_]\w*)")


def _run(args, src, deps=False):
    """clang's output on src; with deps, also the files the compile read."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "tu.cpp")
        with open(path, "w") as f:
            f.write(src)
        depfile = os.path.join(d, "tu.d")
        extra = ["-MD", "-MF", depfile] if deps else []
        p = subprocess.run([CLANG] + args + extra + [path], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, errors="replace")
        if not deps:
            return p.stdout
        with open(depfile) as f:
            words = f.read().replace("\\\n", " ").split()
        return p.stdout, [w for w in words[1:] if w != path]


def _stamp(path):
    try:
        st = os.stat(path)
        return [st.st_size, st.st_mtime_ns]
    except OSError:
        return None


def _cached_scan(tag, args, src, roots, parse):
    """parse(clang's output on src), through the cache of CU2DCU_HDRSCAN_CACHE
    when it is set (JSON-able results only)."""
    cache = os.environ.get("CU2DCU_HDRSCAN_CACHE")
    if not cache:
        return parse(_run(args, src))
    compiler = os.path.realpath(shutil.which(CLANG) or CLANG)
    key = hashlib.sha256(json.dumps([tag, compiler, _stamp(compiler), args, src, roots],
                                    sort_keys=True).encode()).hexdigest()
    path = os.path.join(cache, key + ".json")
    try:
        with open(path) as f:
            entry = json.load(f)
        if all(_stamp(dep) == stamp for dep, stamp in entry["inputs"]):
            return entry["result"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    out, deps = _run(args, src, deps=True)
    result = parse(out)
    os.makedirs(cache, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=cache, suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump({"inputs": [[d, _stamp(d)] for d in deps], "result": result}, f)
    os.replace(tmp, path)  # concurrent tests: the last complete write wins
    return result


def predefined_macros(side, tree=None):
    """Macros the compiler itself defines, host and device passes together:
    nvcc's for CUDA (it defines __NVCC__, which clang does not), clang's HIP
    mode for HIP."""
    if side == "cuda":
        compilers = [[os.path.join(CUDA_ROOT, "bin", "nvcc"), "-x", "cu", "-E", "-Xcompiler", "-dM"]]
    else:
        base = [CLANG, "-x", "hip", "-nogpulib", "-E", "-dM"] + (tree or HipTree()).hip_path
        compilers = [base + ["--cuda-host-only"],
                     base + ["--cuda-device-only", "--offload-arch=gfx906"]]
    names = set()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "empty.cu")
        open(path, "w").close()
        for cmd in compilers:
            p = subprocess.run(cmd + [path], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, errors="replace")
            if p.returncode != 0:
                raise RuntimeError("cannot list predefined macros: %s" % " ".join(cmd))
            names |= set(re.findall(r"^#define ([A-Za-z_]\w*)", p.stdout, re.M))
    return names


def cuda_builtins(names):
    """The names nvcc's device pass knows as built-in functions
    (__nv_atomic_load_n): no header or -dM shows them, but naming one in
    device code compiles, and an unknown name is "undefined"."""
    if not names:
        return set()
    src = "".join("__device__ void cu2dcu_f%d() { (void)%s; }\n" % (i, n)
                  for i, n in enumerate(sorted(names)))
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "builtins.cu")
        with open(path, "w") as f:
            f.write(src)
        p = subprocess.run([os.path.join(CUDA_ROOT, "bin", "nvcc"), "-x", "cu", "-arch=sm_90",
                            "-c", "-o", os.devnull, path], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace")
    return set(names) - set(re.findall(r'identifier "(\w+)" is undefined', p.stdout))


# the HIP libraries' include directories (those of hipBLAS, hipCUB, ... are
# only in the HIP 6.4 tree, see HipTree)
HIP_DIRS = ("hip", "hipsparse", "hiprand", "rocrand", "rocprim", "hipblas", "hipblas-common", "hipblaslt",
            "hipcub", "thrust", "hipfft", "hipsolver", "miopen", "rccl", "roctracer")


def _clang_resource_dir():
    try:
        return subprocess.run([CLANG, "-print-resource-dir"], stdout=subprocess.PIPE,
                              text=True).stdout.strip()
    except OSError:
        return ""


def _roots(side, tree):
    if side == "cuda":
        return [(os.path.join(CUDA_INC, "cccl"), ""), (CUDA_INC, "")]
    # HIP device math (sinf, __expf, ...) comes from the compiler's HIP
    # wrapper headers (__clang_hip_math.h), as with every HIP >= 4 toolchain.
    return [(os.path.join(tree.inc, d), d + "/") for d in HIP_DIRS] + \
           [(os.path.join(_clang_resource_dir(), "include"), "<clang>/")]


def _rel(path, roots):
    path = os.path.normpath(path)
    for r, prefix in roots:
        r = os.path.normpath(r) + "/"
        if path.startswith(r):
            rel = path[len(r):]
            if prefix == "<clang>/" and not rel.startswith(("__clang_hip", "cuda_wrappers")):
                return None
            if prefix == "" and "/" not in rel or prefix != "<clang>/":
                return prefix + rel
            return prefix + rel
    return None


def _side(side, tree):
    """The clang flags and header roots of a side (the HIP side: of tree,
    by default the installed HIP)."""
    if side == "cuda":
        return CUDA_FLAGS, _roots(side, None)
    tree = tree or HipTree()
    return tree.flags, _roots(side, tree)


def scan_decls(headers, side, extra_src="", tree=None):
    """Return {name: (kind, {headers})} for declarations in the given headers.

    `headers` are include paths relative to the side's include root.  Names in
    namespaces are reported qualified (`cooperative_groups::thread_block`) and
    the namespace itself as `ns::` with kind namespace.
    """
    flags, roots = _side(side, tree)
    src = extra_src + "".join('#include <%s>\n' % h for h in headers)
    args = flags + ["-ferror-limit=0", "-fsyntax-only", "-fno-color-diagnostics",
                    "-Xclang", "-ast-dump"]
    found = _cached_scan("decls", args, src, roots, lambda out: {
        name: [kind, sorted(hdrs)] for name, (kind, hdrs) in _parse_decls(out, roots).items()})
    return {name: (kind, set(hdrs)) for name, (kind, hdrs) in found.items()}


def _parse_decls(out, roots):
    """{name: (kind, {headers})} of a textual AST dump."""
    result = {}
    last_file = None
    stack = []   # (depth, namespace name or None, is_enum)
    for line in out.splitlines():
        for m in _LOC.finditer(line):
            if not m.group(1).startswith("<"):
                # token-pasted names are spelled in <scratch space>: keep the
                # file of the macro expansion
                last_file = m.group(1)
        m = _NODE.match(line)
        if not m:
            continue
        depth = (len(m.group(1)) + 2) // 2
        node = m.group(2)
        while stack and stack[-1][0] >= depth:
            stack.pop()
        # only top level, namespace members, extern "C" blocks and enumerators
        parent_ok = all(s[1] is not None for s in stack)
        if not parent_ok:
            stack.append((depth, None))
            continue
        if node == "LinkageSpecDecl":
            stack.append((depth, ""))
            continue
        kind = KIND_OF_NODE.get(node)
        nm = _AFTER.search(m.group(3))
        name = nm.group(1) if nm else None
        if node == "EnumDecl":
            # enumerators live in the enclosing scope (unscoped enums)
            scoped = " class " in m.group(3) or " struct " in m.group(3)
            stack.append((depth, "" if not scoped else None))
        elif node == "NamespaceDecl":
            transparent = m.group(3).endswith(" inline") or re.match(r"__v\d+$", name or "")
            # anonymous namespaces are transparent too (HIP's fp16 API lives in one)
            stack.append((depth, "" if transparent or not name else name + "::"))
            if transparent or not name:
                continue
        else:
            stack.append((depth, None))
        if kind is None or name is None or last_file is None:
            continue
        rel = _rel(last_file, roots)
        if rel is None:
            continue
        prefix = "".join(s[1] for s in stack[:-1] if s[1])
        if kind == "namespace":
            full = prefix + name + "::"
        else:
            full = prefix + name
        if name in ("definition",):
            continue
        if full in result:
            result[full][1].add(rel)
        else:
            result[full] = (kind, {rel})
    return result


_LINEMARK = re.compile(r'^# \d+ "([^"]+)"')
_DEFINE = re.compile(r"^#define ([A-Za-z_]\w*)")


def scan_macros(headers, side, extra_src="", tree=None):
    """Return {macro: {headers}} for object- and function-like macros."""
    flags, roots = _side(side, tree)
    src = extra_src + "".join('#include <%s>\n' % h for h in headers)
    found = _cached_scan("macros", flags + ["-E", "-dD", "-ferror-limit=0"], src, roots,
                         lambda out: {m: sorted(h) for m, h in _parse_macros(out, roots).items()})
    return {m: set(h) for m, h in found.items()}


def _parse_macros(out, roots):
    """{macro: {headers}} of `-E -dD` output."""
    result = {}
    cur = None
    for line in out.splitlines():
        if line.startswith("# "):
            m = _LINEMARK.match(line)
            if m:
                cur = m.group(1)
            continue
        if line.startswith("#define"):
            m = _DEFINE.match(line)
            if m and cur:
                rel = _rel(cur, roots)
                if rel is not None:
                    result.setdefault(m.group(1), set()).add(rel)
    return result


def scan(headers, side, extra_src="", tree=None):
    """Declarations and macros together: {name: (kind, {headers})}."""
    r = scan_decls(headers, side, extra_src, tree)
    for name, hdrs in scan_macros(headers, side, extra_src, tree).items():
        if name in r:
            r[name][1].update(hdrs)
        else:
            r[name] = ("macro", set(hdrs))
    return r


if __name__ == "__main__":
    import sys
    side = sys.argv[1]
    res = scan(sys.argv[2:], side)
    for n in sorted(res):
        print("%-10s %-50s %s" % (res[n][0], n, " ".join(sorted(res[n][1]))))
