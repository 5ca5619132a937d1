#!/usr/bin/env python3
"""Regenerate mappings/*.yaml from the CUDA 13 headers and two sets of HIP
headers: the installed HIP 5.2 and HIP 6.4 with its libraries
(scripts/fetch-hip64.sh, build/hip-6.4 or $CU2DCU_HIP64_PREFIX).

    python3 mappings/tools/generate.py            # rewrite the map files
    python3 mappings/tools/generate.py --dry-run  # only print statistics

Every CUDA name declared in a covered header becomes one entry.  The HIP name
is found mechanically (prefix rules per family, see the *_candidates
functions) among the names HIP 5.2 declares (the libraries HIP 5.2 lacks
here, hipBLAS, hipFFT, hipSOLVER, MIOpen, RCCL, hipCUB, rocThrust, roctx:
among those of their 6.4 headers), then adjusted by the hand-reviewed tables
in manual.py (irregular names, symbol arguments, notes, documented HIP
versions, removed CUDA names).  An entry left without a HIP name takes the
one HIP 6.4 declares, if any, from version 6.4 on (`status: unsupported` with
`hip_since: "6.4"`: unsupported for older targets).
"""
import argparse
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdrscan  # noqa: E402
import families as F  # noqa: E402
import manual  # noqa: E402
import legacy  # noqa: E402
import members  # noqa: E402
import api_shims  # noqa: E402
import arities  # noqa: E402
import signatures  # noqa: E402
import math_shims  # noqa: E402
import yamlio  # noqa: E402

MAPDIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def norm(s):
    return re.sub(r"[^a-z0-9]", "", s.lower())


def strip_ver(name):
    """cuMemAlloc_v2 -> cuMemAlloc; cublasSaxpy_v2_64 -> cublasSaxpy_64."""
    return re.sub(r"_v[0-9]+(_64)?$", r"\1", name)


# ---------------------------------------------------------------- candidates
def runtime_candidates(n, kind):
    c = []
    if n.startswith("cuda"):
        c += ["hip" + n[4:]]
        c += ["hip" + n[4:] + "_t", "hip" + strip_ver(n[4:])]
        if n.endswith("_t"):
            c += ["hip" + n[4:-2]]
        if n.endswith("_st"):
            c += ["hip" + n[4:-3]]
    if n.startswith("cudaDevAttr"):
        c += ["hipDeviceAttribute" + n[11:]]
    if n.startswith("cudaJit"):
        c += ["hipJitOption" + n[7:]]   # cudaJitMaxRegisters -> hipJitOptionMaxRegisters
    if n.startswith("CUDA_"):
        c += ["HIP_" + n[5:], "hip" + n[5:]]
    if n.startswith("CUDART_"):
        c += ["HIP_" + n[7:]]
    if n.startswith("cu") and not n.startswith("cuda"):
        c += ["hip" + n[2:]]
    if n.startswith("make_cuda"):
        c += ["make_hip" + n[9:]]
    c += [n]          # vector types, dim3, ...
    return c


def driver_candidates(n, kind):
    b = strip_ver(n)
    c = []
    if b.startswith("cu") and not b.startswith("cuda"):
        rest = b[2:]
        # the driver-flavoured HIP spellings first: hipDrvMemcpy3D takes the
        # driver's struct, hipModuleLaunchKernel a hipFunction_t
        c += ["hipDrv" + rest, "hipModule" + rest, "hip" + rest]
    if b.startswith("CU") and not b.startswith(("CU_", "CUDA_")):
        rest = b[2:]
        # the handle typedef first: CUgraphNode is a pointer, as hipGraphNode_t
        # is, where hipGraphNode is the struct it points to
        c += ["hip" + rest[:1].upper() + rest[1:] + "_t", "hip" + rest[:1].upper() + rest[1:],
              "HIP" + rest]
    if b.startswith("CU_"):
        c += ["HIP_" + b[3:], "hip" + b[3:]]
    if b.startswith("CUDA_"):
        c += ["HIP_" + b[5:], "hip_" + b[5:]]
    return c


def prefix_candidates(pairs):
    def cand(n, kind):
        b = strip_ver(n)
        out = []
        for cu, hp in pairs:
            if b.startswith(cu):
                out.append(hp + b[len(cu):])
        return out
    return cand


CANDIDATES = {
    "runtime": runtime_candidates,
    "types": runtime_candidates,
    "device": lambda n, k: [n],
    "fp16": lambda n, k: [n],
    "coop": lambda n, k: [n],
    "driver": driver_candidates,
    "complex": prefix_candidates([("make_cu", "make_hip"), ("cu", "hip")]),
    "cublas": prefix_candidates([("cublas", "hipblas"), ("CUBLAS_", "HIPBLAS_")]),
    "cublaslt": prefix_candidates([("cublasLt", "hipblasLt"), ("CUBLASLT_", "HIPBLASLT_")]),
    "cufft": prefix_candidates([("cufft", "hipfft"), ("CUFFT_", "HIPFFT_")]),
    "curand": lambda n, k: prefix_candidates([("curand", "hiprand"), ("CURAND_", "HIPRAND_")])(n, k) + [n],
    "cusparse": prefix_candidates([("cusparse", "hipsparse"), ("CUSPARSE_", "HIPSPARSE_")]),
    "cusolver": prefix_candidates([("cusolver", "hipsolver"), ("CUSOLVERRF_", "HIPSOLVERRF_"),
                                   ("CUSOLVERDN_", "HIPSOLVERDN_"), ("CUSOLVER_", "HIPSOLVER_")]),
    "cudnn": lambda n, k: [],
    "nccl": lambda n, k: [n],
    "nvtx": lambda n, k: [manual.ROCTX[n]] if n in manual.ROCTX else [],
}

KIND_CLASS = {"function": "f", "type": "t", "enumerator": "v", "macro": "v", "variable": "x",
              "namespace": "n"}


def same_role(cuda_kind, hip_kind):
    """Whether a HIP declaration can stand where the CUDA one is used: a type
    for a type, not a type for a value (cudaJitCacheMode, an enumerator, is
    not HIP's enum type hipJitCacheMode). A macro may stand for either."""
    return "macro" in (cuda_kind, hip_kind) or (cuda_kind == "type") == (hip_kind == "type")


def unique_lower(hip):
    """lower-cased name -> the HIP name, where only one has that spelling."""
    lower = collections.Counter(h.lower() for h in hip)
    return {h.lower(): h for h in hip if lower[h.lower()] == 1}


def pair(fid, name, kind, hip, hip_by_lower):
    """The HIP name the family's rules give that hip declares; else the same
    name but for case (cudaDevAttrMultiProcessorCount ->
    hipDeviceAttributeMultiprocessorCount) when only one HIP name fits."""
    cands = CANDIDATES.get(fid, lambda n, k: [])(name, kind)
    found = next((c for c in cands if c in hip and same_role(kind, hip[c][0])), None)
    return found or next((hip_by_lower[c.lower()] for c in cands if c.lower() in hip_by_lower
                          and hip[hip_by_lower[c.lower()]][0] == kind), None)


def from_64(e, hipname, hip52):
    """An entry without a HIP name takes the one HIP 6.4 declares (and 5.2
    does not): unsupported before 6.4, translated from it."""
    if hipname is None or hipname in hip52:
        return
    e.update(hip=hipname, hip_since="6.4",
             reason="not declared in the HIP 5.2 headers; HIP 6.4 declares the HIP name "
                    "(translated for --hip-version 6.4 and later).")


def paired_entries(fam, names, headers, fidx, review):
    """{cuda name: entry} for the family's CUDA names: the name the family's
    rules give that its HIP headers declare (HIP 5.2's; for the libraries 5.2
    lacks here, their 6.4 headers'), fuzzy for the runtime families, then
    manual.refine, then the name HIP 6.4 declares for an entry left without."""
    fid = fam["family"]
    (hip, hip_lower), (hip64, hip64_lower) = headers
    own, own_lower = (hip, hip_lower) if "hip_lib" not in fam else (hip64, hip64_lower)
    entries = {}
    for name, kind in sorted(names.items()):
        e = {"cuda": name, "kind": kind}
        hipname = pair(fid, name, kind, own, own_lower)
        if hipname is None and "hip_lib" not in fam and fid in ("driver", "types", "runtime"):
            hipname = fuzzy(name, kind, fidx)
            if hipname and review:
                print("fuzzy %-8s %-50s -> %s" % (fid, name, hipname))
        if hipname is not None:
            e["hip"] = hipname
        else:
            e["status"] = "unsupported"
            e["reason"] = manual.default_reason(fid, name, kind)
        manual.refine(fid, e, hip, hip64)
        if e.get("status") == "unsupported" and not e.get("hip"):
            from_64(e, pair(fid, name, kind, hip64, hip64_lower), hip)
        entries[name] = e
    return entries


def enum_types_follow_enumerators(entries, cuda, hips):
    """An enum type takes the HIP enum its mapped enumerators all belong to
    (cudaDeviceAttr -> hipDeviceAttribute_t, CUmem_advise -> hipMemoryAdvise,
    CUresourceViewFormat -> HIPresourceViewFormat where the naming rule gave
    the runtime's hipResourceViewFormat): `cudaX v = hipY;` must name Y's type. cuda and hips:
    signatures of CUDA and of HIP 5.2 and 6.4; the HIP enum's typedef is
    preferred, with hip_since 6.4 where only HIP 6.4 declares it."""
    enum_of_typedef = {t: enum for enum, ts in cuda["enum_typedefs"].items() for t in ts}
    members = collections.defaultdict(list)
    for name, decl in cuda["enumerators"].items():
        members[decl["enum"]].append(name)
    for name, e in entries.items():
        if e["kind"] != "type" or e.get("shim"):
            continue
        hip_names = [entries[m]["hip"] for m in members.get(enum_of_typedef.get(name, name), [])
                     if m in entries and entries[m].get("hip")]
        for since, hip in zip((None, "6.4"), hips):
            enums = {hip["enumerators"][h]["enum"] for h in hip_names if h in hip["enumerators"]}
            if len(enums) == 1 and not enums & {"", None} and not next(iter(enums)).startswith("("):
                enum = enums.pop()
                names = hip["enum_typedefs"].get(enum, []) + [enum]
                if e.get("hip") in names:
                    break   # already the enumerators' type
                e["hip"] = names[0]
                if since:
                    from_64(e, e["hip"], ())
                else:
                    e.pop("status", None), e.pop("reason", None)
                break


def fuzzy_index(hip):
    """normalized name (hip prefix removed) -> [hip names]."""
    idx = {}
    for h, (k, _) in hip.items():
        key = norm(re.sub(r"^(hipDrv|hip_|HIP_|hip|HIP)", "", h))
        idx.setdefault((KIND_CLASS.get(k), key), []).append(h)
    return idx


def fuzzy(n, kind, idx):
    key = norm(re.sub(r"^(CUDA_|CU_|CU|cuda|cu)", "", strip_ver(n)))
    hits = idx.get((KIND_CLASS.get(kind), key), [])
    return hits[0] if len(hits) == 1 else None


def library_extras():
    """Header and namespace entries of CUB and Thrust (header-only libraries)."""
    cccl = os.path.join(hdrscan.CUDA_INC, "cccl")
    cub, thrust = {}, {}
    cub["cub::"] = {"kind": "namespace", "hip": "hipcub::"}
    for root, _, files in os.walk(os.path.join(cccl, "cub")):
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), cccl)
            if f.endswith(".cuh") and "/detail" not in rel and rel != "cub/cub.cuh":
                cub[rel] = {"kind": "header", "hip": "hipcub/hipcub.hpp",
                            "note": "hipcub.hpp includes all of hipCUB"}
    thrust["thrust::"] = {"kind": "namespace", "hip": "thrust::",
                          "note": "rocThrust keeps the thrust namespace"}
    thrust["thrust::cuda::"] = {"kind": "namespace", "hip": "thrust::hip::",
                                "note": "e.g. thrust::cuda::par -> thrust::hip::par"}
    thrust["thrust::system::cuda::"] = {"kind": "namespace", "hip": "thrust::system::hip::"}
    for root, _, files in os.walk(os.path.join(cccl, "thrust")):
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), cccl)
            if not f.endswith(".h") or "/detail" in rel:
                continue
            if rel.startswith("thrust/system/") and not rel.startswith("thrust/system/cuda/"):
                if rel.count("/") > 2:
                    continue
            if rel.startswith("thrust/system/cuda/"):
                thrust[rel] = {"kind": "header", "hip": rel.replace("/cuda/", "/hip/")}
            else:
                thrust[rel] = {"kind": "header", "hip": rel,
                               "note": "rocThrust provides the same header"}
    return {"cub": cub, "thrust": thrust}


def legacy_rules(trees, cuda):
    """{family: {cuda name: rule}} of the names earlier CUDA declared and
    HIP still does (legacy.py), from each HIP tree's library header."""
    def header_text(tree, header):
        path = os.path.join(tree.inc, header)
        return open(path).read() if os.path.isfile(path) else ""
    hip52, hip64 = trees
    return {lib["family"]: legacy.rules(lib, header_text(hip64, lib["header"]),
                                        header_text(hip52, lib["header"]), set(cuda))
            for lib in legacy.LIBRARIES}


def add_missing_members(built, cuda_sigs, hip_sigs, trees):
    """missing_members of every family's type entries (members.py): the HIP
    names of all families resolved in one probe unit per HIP tree."""
    hip_types = {e["hip"] for entries in built.values() for e in entries.values()
                 if e["kind"] == "type" and e.get("hip")}
    sides = [(tree.version, sigs, members.hip_records(tree, sigs, hip_types, F.hip_tu(tree)))
             for tree, sigs in zip(trees, hip_sigs)]
    for entries in built.values():
        members.add_missing_members(entries, cuda_sigs, sides)


def add_call_forms(built, cuda_sigs, hip_sigs):
    """default_args and hip_by_arity's counts no HIP function takes
    (arities.py); a default is spelled as HIP spells it: a literal as it is,
    a CUDA name by its entry."""
    hip_names = {e["cuda"]: e["hip"] for entries in built.values() for e in entries.values()
                 if e.get("hip") and e.get("status", "supported") != "unsupported"}

    def hip_spelling(text):
        if text is None or text in ("nullptr", "true", "false") or text[0].isdigit():
            return text
        return hip_names.get(text)

    for entries in built.values():
        arities.add_call_forms(entries, cuda_sigs, hip_sigs, hip_spelling)


def generated_shims(args):
    """Writes (or with --check compares) the shims made from CUDA's headers;
    the names of those that differ."""
    stale = []
    for name, want in {**math_shims.shim_files(), **api_shims.shim_files()}.items():
        path = os.path.join(MAPDIR, "shims", name)
        have = open(path).read() if os.path.exists(path) else None
        if have == want:
            continue
        if args.check:
            print("ERROR mappings/shims/%s differs from the generator's output: run "
                  "python3 mappings/tools/generate.py" % name)
            stale.append(name)
        elif not args.dry_run:
            with open(path, "w") as f:
                f.write(want)
    return stale


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--review", action="store_true", help="print fuzzy pairings for review")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if a map file differs from what would be generated")
    args = ap.parse_args()

    cuda = hdrscan.scan(F.cuda_tu(), "cuda")
    trees = [hdrscan.HipTree(), hdrscan.HipTree(hdrscan.HIP64_PREFIX)]
    headers = [(names, unique_lower(names)) for names in
               (hdrscan.scan(F.hip_tu(t), "hip", tree=t) for t in trees)]
    fidx = fuzzy_index(headers[0][0])
    cuda_sigs = signatures.cuda_signatures()
    hip_sigs = [signatures.hip_signatures(t) for t in trees]

    per_family = {f["family"]: {} for f in F.FAMILIES}
    for name, (kind, hdrs) in cuda.items():
        if not F.interesting(name, kind):
            continue
        fam = F.family_of(hdrs, kind)
        if fam is None:
            continue
        per_family[fam][name] = kind

    extra = library_extras()
    removed = legacy_rules(trees, cuda)
    stale, built = [], {}
    for fam in F.FAMILIES:
        fid = fam["family"]
        rules = {**removed.get(fid, {}), **manual.RULES.get(fid, {})}
        entries = paired_entries(fam, per_family[fid], headers, fidx, args.review)
        for name, over in extra.get(fid, {}).items():
            entries.setdefault(name, dict(over, cuda=name))
        for name, over in rules.items():
            if name not in entries and "kind" not in over:
                print("warning: %s rule for undeclared %s ignored" % (fid, name), file=sys.stderr)
                continue
            if over is None:
                entries.pop(name, None)
                continue
            e = dict(entries.get(name, {"cuda": name}))
            e.update(over)
            if e.get("status", "supported") != "unsupported":
                e.pop("reason", None) if "reason" not in over else None
                if e.get("status") == "supported":
                    e.pop("status")
            for k in [k for k, v in e.items() if v is None]:
                e.pop(k)
            entries[name] = e
        enum_types_follow_enumerators(entries, cuda_sigs, hip_sigs)
        for name, e in entries.items():
            if e.get("hip") and e.get("status", "supported") != "unsupported":
                e.pop("reason", None)
            if "cuda_since" not in e and fid in ("runtime",):
                v = manual.CUPTI_SINCE.get(name)
                if v:
                    e["cuda_since"] = v
        built[fid] = entries
    add_missing_members(built, cuda_sigs, hip_sigs, trees)
    add_call_forms(built, cuda_sigs, hip_sigs)
    for fam in F.FAMILIES:
        fid = fam["family"]
        entries = built[fid]
        n_sup = sum(1 for e in entries.values() if e.get("status", "supported") != "unsupported")
        print("%-9s %5d entries, %5d supported/removed, %5d unsupported" %
              (fid, len(entries), n_sup, len(entries) - n_sup))
        if args.check:
            import tempfile
            with tempfile.TemporaryDirectory() as d:
                tmp = os.path.join(d, fam["file"])
                yamlio.write_map(tmp, fid, list(entries.values()),
                                 cuda_headers=fam["cuda"] or None,
                                 hip_headers=fam["hip"] or None,
                                 comment=manual.COMMENTS.get(fid),
                                 api_names=fam.get("api_names"))
                want = open(tmp).read()
            try:
                have = open(os.path.join(MAPDIR, fam["file"])).read()
            except OSError:
                have = None
            if have != want:
                print("ERROR mappings/%s differs from the generator's output: run "
                      "python3 mappings/tools/generate.py (and put hand edits in manual.py)"
                      % fam["file"])
                stale.append(fam["file"])
        elif not args.dry_run:
            yamlio.write_map(os.path.join(MAPDIR, fam["file"]), fid, list(entries.values()),
                             cuda_headers=fam["cuda"] or None,
                             hip_headers=fam["hip"] or None,
                             comment=manual.COMMENTS.get(fid),
                             api_names=fam.get("api_names"))


    stale += generated_shims(args)
    if args.check:
        print("%d stale map files" % len(stale))
        return 1 if stale else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
