#!/usr/bin/env python3
"""Check the API maps against the installed CUDA and HIP headers.

    python3 mappings/tools/verify.py                      # check mappings/*.yaml
    python3 mappings/tools/verify.py --coverage docs/coverage.md
    python3 mappings/tools/verify.py --check-coverage docs/coverage.md
    python3 mappings/tools/verify.py --maps FILE_OR_DIR ... # check other map files
    python3 mappings/tools/verify.py --hip-prefix build/hip-6.4  # against HIP 6.4

For every entry: the schema (docs/mapping-schema.md); the CUDA name is declared
by the installed CUDA headers (or the entry is `status: removed` with
`cuda_removed`); the HIP name is declared by the installed HIP headers (HIP
5.2, hipSPARSE, hipRAND, rocRAND, rocPRIM) unless `hip_since` is newer than the
installed HIP.  Maps whose HIP headers are not installed here (hipBLAS, hipFFT,
hipSOLVER, MIOpen, RCCL, hipCUB, rocThrust) are counted "unverified here".
With --hip-prefix the HIP side is read from a HIP tree unpacked there instead
(scripts/fetch-hip64.sh puts HIP 6.4 and all these libraries in build/hip-6.4),
and every family is verified against it.
It also lists the CUDA names declared in covered headers that no entry
mentions.  Exit status 1 on any error (or a stale coverage document).
Nothing is cached: the headers are read with clang on every run.
"""
import argparse
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdrscan  # noqa: E402
import families as F  # noqa: E402

try:
    import yaml
except ImportError:  # pragma: no cover
    sys.exit("verify.py needs PyYAML (Debian: python3-yaml)")

MAPDIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KINDS = {"function", "type", "enumerator", "macro", "header", "namespace", "variable"}
STATUSES = {"supported", "unsupported", "removed"}
ENTRY_KEYS = {"cuda", "hip", "kind", "status", "reason", "hip_since", "cuda_since",
              "cuda_removed", "symbol_arg", "function_arg", "note", "hip_requires", "defined_only",
              "predefined", "shim", "hip_in_condition"}
FILE_KEYS = {"family", "cuda_headers", "hip_headers", "entries"}
VERSION = re.compile(r"^\d+\.\d+$")


def vkey(v):
    return tuple(int(x) for x in str(v).split("."))


def installed_hip_version():
    try:
        text = open(os.path.join(hdrscan.HIP_INC, "hip", "hip_version.h")).read()
        ma = re.search(r"#define HIP_VERSION_MAJOR (\d+)", text).group(1)
        mi = re.search(r"#define HIP_VERSION_MINOR (\d+)", text).group(1)
        return "%s.%s" % (ma, mi)
    except (OSError, AttributeError):
        return "0.0"


def cuda_header_exists(h):
    return any(os.path.isfile(os.path.join(d, h))
               for d in (hdrscan.CUDA_INC, os.path.join(hdrscan.CUDA_INC, "cccl")))


def hip_header_installed(h):
    return os.path.isfile(os.path.join(hdrscan.HIP_INC, h))


HIP_DIRS = F.HIP_INSTALLED_DIRS


def hip_dir_installed(h):
    """Whether the HIP library that owns header path h is installed here."""
    top = h.split("/", 1)[0] + "/" if "/" in h else h
    return top in HIP_DIRS and os.path.isdir(os.path.join(hdrscan.HIP_INC, top))


class Report:
    def __init__(self):
        self.errors = []

    def error(self, where, msg):
        self.errors.append("%s: %s" % (where, msg))


def load_maps(paths, rep):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(glob.glob(os.path.join(p, "*.yaml")))
        else:
            files.append(p)
    maps = []
    for f in files:
        try:
            with open(f) as fh:
                doc = yaml.safe_load(fh)
        except (OSError, yaml.YAMLError) as ex:
            rep.error(f, "cannot load: %s" % str(ex).replace("\n", " "))
            continue
        if not isinstance(doc, dict):
            rep.error(f, "not a mapping")
            continue
        for k in doc:
            if k not in FILE_KEYS:
                rep.error(f, "unknown top-level key '%s'" % k)
        if "family" not in doc:
            rep.error(f, "missing 'family'")
        if not isinstance(doc.get("entries"), list):
            rep.error(f, "missing or invalid 'entries' list")
            doc["entries"] = []
        for k in ("cuda_headers", "hip_headers"):
            if k in doc and not (isinstance(doc[k], list) and all(isinstance(x, str) for x in doc[k])):
                rep.error(f, "'%s' must be a list of header paths" % k)
                doc[k] = []
        doc["_file"] = f
        maps.append(doc)
    return maps


def check_schema(m, e, i, rep, seen):
    where = "%s: entry %d" % (os.path.basename(m["_file"]), i + 1)
    if not isinstance(e, dict):
        rep.error(where, "entry is not a mapping")
        return False
    if "cuda" in e:
        where = "%s: %s" % (os.path.basename(m["_file"]), e["cuda"])
    ok = True
    for k in e:
        if k not in ENTRY_KEYS:
            rep.error(where, "unknown key '%s'" % k)
            ok = False
    if not isinstance(e.get("cuda"), str) or not e.get("cuda"):
        rep.error(where, "missing 'cuda'")
        return False
    kind = e.get("kind")
    if kind not in KINDS:
        rep.error(where, "invalid or missing kind %r" % kind)
        ok = False
    status = e.get("status", "supported")
    if status not in STATUSES:
        rep.error(where, "invalid status %r" % status)
        ok = False
    hip = e.get("hip")
    if hip is not None and not isinstance(hip, str):
        rep.error(where, "'hip' must be a string")
        ok = False
    if status == "supported" and hip is None:
        rep.error(where, "supported entry without 'hip'")
        ok = False
    if status == "supported" and hip == "" and kind != "header":
        rep.error(where, "empty 'hip' is only allowed for headers")
        ok = False
    if "hip_requires" in e and (kind != "header" or not isinstance(e["hip_requires"], str)):
        rep.error(where, "'hip_requires' names a HIP header and is for header entries only")
        ok = False
    if "shim" in e and not os.path.isfile(os.path.join(MAPDIR, "shims", "%s.yaml" % e["shim"])):
        rep.error(where, "no shim '%s' in mappings/shims/" % e["shim"])
        ok = False
    if status == "unsupported":
        if not isinstance(e.get("reason"), str) or not e["reason"].strip():
            rep.error(where, "unsupported entry without a 'reason'")
            ok = False
        if hip:
            rep.error(where, "unsupported entry must not give 'hip'")
            ok = False
    if status == "removed" and "cuda_removed" not in e:
        rep.error(where, "removed entry without 'cuda_removed'")
        ok = False
    for k in ("hip_since", "cuda_since", "cuda_removed"):
        if k in e and not VERSION.match(str(e[k])):
            rep.error(where, "'%s' must be MAJOR.MINOR, got %r" % (k, e[k]))
            ok = False
    if "cuda_since" in e and "cuda_removed" in e and VERSION.match(str(e["cuda_since"])) \
            and VERSION.match(str(e["cuda_removed"])) and vkey(e["cuda_since"]) >= vkey(e["cuda_removed"]):
        rep.error(where, "cuda_since is not older than cuda_removed")
        ok = False
    if "defined_only" in e and (kind != "macro" or not isinstance(e["defined_only"], bool)):
        rep.error(where, "'defined_only' is true or false, for macro entries only")
        ok = False
    if "predefined" in e and (kind not in ("macro", "function") or
                              not isinstance(e["predefined"], bool)):
        rep.error(where, "'predefined' is true or false, for macro and function entries only")
        ok = False
    for k in ("symbol_arg", "function_arg"):
        if k in e and (not isinstance(e[k], int) or e[k] < 0):
            rep.error(where, "'%s' must be a non-negative integer" % k)
            ok = False
    key = e["cuda"]
    if key in seen:
        rep.error(where, "duplicate cuda name (also in %s)" % seen[key])
        ok = False
    else:
        seen[key] = os.path.basename(m["_file"])
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--maps", nargs="+", default=[MAPDIR],
                    help="map files or directories (default: mappings/)")
    ap.add_argument("--coverage", metavar="FILE", help="write the coverage document")
    ap.add_argument("--check-coverage", metavar="FILE",
                    help="fail if FILE differs from the coverage document")
    ap.add_argument("--list-unmapped", action="store_true",
                    help="print every unmapped CUDA name (default: counts and a few)")
    ap.add_argument("--fail-on-unmapped", action="store_true",
                    help="exit 1 if a covered CUDA name is not mentioned by any map")
    ap.add_argument("--hip-prefix", metavar="DIR",
                    help="read the HIP side from the HIP tree under DIR (DIR/usr/include), "
                         "libraries included, e.g. build/hip-6.4 (scripts/fetch-hip64.sh)")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args()
    global HIP_DIRS
    hip_tu = F.HIP_TU
    if args.hip_prefix:
        hdrscan.use_hip_prefix(args.hip_prefix)
        HIP_DIRS, hip_tu = F.HIP_PREFIX_DIRS, F.HIP_PREFIX_TU

    rep = Report()
    maps = load_maps(args.maps, rep)
    hip_ver = installed_hip_version()

    extra_cuda = sorted({h for m in maps for h in m.get("cuda_headers") or []})
    cuda = hdrscan.scan(F.cuda_tu(extra_cuda), "cuda")
    hip = hdrscan.scan(hip_tu, "hip")
    cuda_predefined = hdrscan.predefined_macros("cuda")
    hip_predefined = hdrscan.predefined_macros("hip")
    cuda_ns = {n for n in cuda if n.endswith("::")}
    hip_ns = {n for n in hip if n.endswith("::")}

    stats = {}      # family -> counters
    mentioned = set()
    seen = {}
    entries_by_family = {}
    for m in maps:
        fam = str(m.get("family", "?"))
        st = stats.setdefault(fam, dict(entries=0, supported=0, removed=0, unsupported=0,
                                        verified=0, unverified=0, newer=0,
                                        undeclared=0))
        hip_hdrs = m.get("hip_headers") or []
        map_verifiable = all(hip_header_installed(h) for h in hip_hdrs)
        for i, e in enumerate(m["entries"]):
            if not check_schema(m, e, i, rep, seen):
                continue
            where = "%s: %s" % (os.path.basename(m["_file"]), e["cuda"])
            name, kind = e["cuda"], e["kind"]
            status = e.get("status", "supported")
            hipname = e.get("hip")
            mentioned.add(name)
            entries_by_family.setdefault(fam, []).append(e)
            st["entries"] += 1
            st[status] += 1
            # ---- CUDA side
            if e.get("predefined") and kind == "function":
                declared = True  # a compiler built-in: no header or -dM shows it
                st["unverified"] += 1
            elif e.get("predefined"):
                declared = name in cuda_predefined
            elif kind == "header":
                declared = cuda_header_exists(name)
            elif kind == "namespace":
                declared = name in cuda_ns or any(n.startswith(name) for n in cuda) or \
                    os.path.isdir(os.path.join(hdrscan.CUDA_INC, "cccl", name.split("::")[0]))
            else:
                declared = name in cuda
            if not declared and status != "removed":
                rep.error(where, "CUDA name is not declared in the installed CUDA headers "
                                 "(and the entry is not marked removed)")
            if declared and status == "removed":
                rep.error(where, "marked removed but still declared by the installed CUDA headers")
            # ---- HIP side
            if not hipname or status == "unsupported":
                continue
            newer = "hip_since" in e and VERSION.match(str(e["hip_since"])) and \
                vkey(e["hip_since"]) > vkey(hip_ver)
            if kind == "header":
                if e.get("hip_requires") and hip_dir_installed(e["hip_requires"]) and \
                        not hip_header_installed(e["hip_requires"]):
                    rep.error(where, "hip_requires: HIP header %s is not installed" % e["hip_requires"])
                if not hip_dir_installed(hipname):
                    st["unverified"] += 1
                elif hip_header_installed(hipname):
                    st["verified"] += 1
                elif newer:
                    st["newer"] += 1
                else:
                    st["undeclared"] += 1
                    rep.error(where, "HIP header %s is not installed although its library is" % hipname)
                continue
            if not map_verifiable:
                st["unverified"] += 1
                continue
            if kind == "namespace":
                found = hipname in hip_ns or any(n.startswith(hipname) for n in hip)
            elif e.get("predefined"):
                found = hipname in hip_predefined or hipname in hip
            else:  # an enumerator may map to a compiler macro (__ATOMIC_RELAXED)
                found = hipname in hip or hipname in hip_predefined
            if found:
                st["verified"] += 1
            elif newer:
                st["newer"] += 1
            else:
                st["undeclared"] += 1
                rep.error(where, "HIP name %s is not declared in the installed HIP %s headers%s"
                          % (hipname, hip_ver, "" if "hip_since" not in e else
                             " (hip_since %s is not newer)" % e["hip_since"]))

    # ---- unmapped names per family
    declared_by_family = {}
    header_of = {}
    for name, (kind, hdrs) in cuda.items():
        if not F.interesting(name, kind):
            continue
        fam = F.family_of(hdrs, kind)
        if fam is None:
            continue
        declared_by_family.setdefault(fam, set()).add(name)
        fam_hdrs = next(f["cuda"] for f in F.FAMILIES if f["family"] == fam)
        header_of[name] = sorted(hdrs, key=lambda h: (h not in fam_hdrs, h))[0]
    unmapped = {fam: sorted(n for n in names if n not in mentioned)
                for fam, names in declared_by_family.items()}
    checked_families = {str(m.get("family")) for m in maps}

    # ---- report
    if not args.quiet:
        print("HIP %s in %s; CUDA headers in %s" % (hip_ver, hdrscan.HIP_INC, hdrscan.CUDA_INC))
        print("%-9s %7s %9s %7s %11s %8s %10s %9s %10s %8s" % (
            "family", "entries", "supported", "removed", "unsupported", "verified",
            "unverified", "hip>inst", "undeclared", "unmapped"))
        for fam in sorted(stats):
            s = stats[fam]
            print("%-9s %7d %9d %7d %11d %8d %10s %9d %10d %8d" % (
                fam, s["entries"], s["supported"], s["removed"], s["unsupported"],
                s["verified"], ("%d" % s["unverified"]) + (" (unverified here)" if s["unverified"] else ""),
                s["newer"], s["undeclared"], len(unmapped.get(fam, [])) if fam in checked_families else 0))
        for fam in sorted(unmapped):
            if fam not in checked_families or not unmapped[fam]:
                continue
            names = unmapped[fam]
            shown = names if args.list_unmapped else names[:10]
            print("unmapped in %s (%d): %s%s" % (fam, len(names), " ".join(shown),
                                                 "" if len(shown) == len(names) else " ..."))
    fail = bool(rep.errors)
    for err in rep.errors:
        print("ERROR " + err)
    if args.fail_on_unmapped and any(unmapped.get(f) for f in checked_families):
        print("ERROR unmapped CUDA names remain (--fail-on-unmapped)")
        fail = True

    if args.coverage or args.check_coverage:
        import coverage
        doc = coverage.render(stats, entries_by_family, declared_by_family, unmapped,
                              header_of, hip_ver)
        if args.coverage:
            with open(args.coverage, "w") as f:
                f.write(doc)
            print("wrote %s" % args.coverage)
        if args.check_coverage:
            try:
                old = open(args.check_coverage).read()
            except OSError:
                old = None
            if old != doc:
                print("ERROR %s is stale: regenerate it with "
                      "python3 mappings/tools/verify.py --coverage %s"
                      % (args.check_coverage, args.check_coverage))
                fail = True
            elif not args.quiet:
                print("%s is current" % args.check_coverage)
    print("%d errors" % len(rep.errors))
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
