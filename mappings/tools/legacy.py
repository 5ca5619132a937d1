"""Legacy entries: library APIs that an earlier CUDA declared, that CUDA 13's
headers no longer declare, and that HIP still declares. Code written for CUDA
10 or 11 calls them (cusparseScsrmv, cusparseSgthr, cusparseScsr2dense), and
the port compiles against HIP as it is.

The source is the HIP library's own header: hipSPARSE declares each such
function inside `#if(!defined(CUDART_VERSION) || CUDART_VERSION < N)` (its
CUDA backend has no function to forward to from CUDA N/1000 on), or marks it
`DEPRECATED_CUDA_X("The routine will be removed in CUDA M")`. That gives the
CUDA version that removed the name. A type or enum only the legacy functions
take goes with the last of them; an enum's enumerators go with their enum.

Each entry is `status: removed` with `cuda_removed`: translated, with a
CU2DCU-REMOVED note. CUDA 13's headers lack the name, so a unit that uses one
parses with errors, and the lexical rules translate it where clang recovered.
"""
import re

from versions import vkey

# hipSPARSE's HIP names -> CUDA's: hipsparseX -> cusparseX, HIPSPARSE_X ->
# CUSPARSE_X; info types (csrsv2Info_t) are spelled alike.
LIBRARIES = [
    {"family": "cusparse", "header": "hipsparse/hipsparse.h",
     "to_cuda": [(r"^hipsparse", "cusparse"), (r"^HIPSPARSE_", "CUSPARSE_")],
     "function": r"hipsparseStatus_t\s+(hipsparse\w+)\s*\(",
     "type": r"\b(hipsparse\w+_t|\w+Info_t)\b"},
]

GUARD = re.compile(r"#\s*if\s*\(\s*!defined\(CUDART_VERSION\)\s*\|\|\s*CUDART_VERSION\s*<\s*(\d+)\s*\)")
DEPRECATED = re.compile(r'DEPRECATED_CUDA_\d+\(".*removed in CUDA (\d+)')


def cuda_name(lib, hip):
    for pattern, repl in lib["to_cuda"]:
        if re.match(pattern, hip):
            return re.sub(pattern, repl, hip)
    return hip


def removal_version(cuda_version):
    """'12.0' from CUDART_VERSION 12000 or from the text 'CUDA 12'."""
    n = int(cuda_version)
    return "%d.0" % (n // 1000 if n >= 1000 else n)


def legacy_functions(lib, text):
    """{hip function: (removal version, declaration text)} of the functions
    text declares under a CUDART_VERSION < N guard or a DEPRECATED_CUDA
    removal notice."""
    found, guards, deprecated = {}, [], None
    lines = text.split("\n")
    for i, line in enumerate(lines):
        s = line.strip()
        if s.startswith("#if"):
            m = GUARD.match(s)
            guards.append(removal_version(m.group(1)) if m else None)
            continue
        if s.startswith("#endif"):
            guards.pop()
            continue
        if s.startswith(("#else", "#elif")):
            guards[-1] = None
            continue
        m = DEPRECATED.search(s)
        if m:
            deprecated = removal_version(m.group(1))
        m = re.search(lib["function"], s)
        if m and not s.startswith("*"):
            limits = [g for g in guards if g]
            version = min(limits, key=vkey) if limits else deprecated
            if version:
                declaration = " ".join(lines[i:i + 40]).split(";")[0]
                found[m.group(1)] = (version, declaration)
            deprecated = None
    return found


def enum_members(text, type_name):
    """The enumerators of `typedef enum ... {...} type_name;` in text."""
    m = re.search(r"typedef\s+enum\s*\w*\s*\{([^}]*)\}\s*" + re.escape(type_name) + r"\s*;", text)
    if not m:
        return []
    body = re.sub(r"/\*.*?\*/|//[^\n]*", "", m.group(1), flags=re.S)
    return re.findall(r"\b([A-Z][A-Z0-9_]+)\s*(?:=|,|$)", body)




def rules(lib, text64, text52, cuda_declared):
    """{cuda name: rule} of the legacy entries of one library: functions,
    the types only they take, and those enums' enumerators. text64/text52:
    the HIP header of HIP 6.4 and of HIP 5.2 ('' if missing); cuda_declared:
    the names CUDA 13's headers declare."""
    out, type_removal = {}, {}

    def add(hip, kind, version):
        cuda = cuda_name(lib, hip)
        if cuda in cuda_declared or cuda in out:
            return
        e = {"kind": kind, "hip": hip, "status": "removed", "cuda_removed": version, "reason": None}
        if not re.search(r"\b%s\b" % re.escape(hip), text52):
            e["hip_since"] = "6.4"
        out[cuda] = e

    for hip, (version, declaration) in sorted(legacy_functions(lib, text64).items()):
        if cuda_name(lib, hip) in cuda_declared:
            continue
        add(hip, "function", version)
        for t in re.findall(lib["type"], declaration):
            if cuda_name(lib, t) not in cuda_declared:
                type_removal[t] = max(version, type_removal.get(t, version), key=vkey)
    for t, version in sorted(type_removal.items()):
        add(t, "type", version)
        for member in enum_members(text64, t):
            add(member, "enumerator", version)
    return out
