#!/usr/bin/env python3
"""Check the API maps against the installed CUDA and HIP headers.

    python3 mappings/tools/verify.py                      # check mappings/*.yaml
    python3 mappings/tools/verify.py --coverage docs/coverage.md
    python3 mappings/tools/verify.py --check-coverage docs/coverage.md
    python3 mappings/tools/verify.py --maps FILE_OR_DIR ... # check other map files
    python3 mappings/tools/verify.py --json testsuite/results/hip-targets.json

For every entry: the schema (mappings/schema/maps.schema.json, with
mappings/tools/schema.py; described in docs/mapping-schema.md); the CUDA name is declared
by the installed CUDA headers (or the entry is `status: removed` with
`cuda_removed`; an nvcc built-in is looked up by nvcc); the HIP name against
both HIP header sets, the installed HIP 5.2 (with hipSPARSE, hipRAND, rocRAND,
rocPRIM) and HIP 6.4 with every library (--hip-prefix, default build/hip-6.4
of scripts/fetch-hip64.sh): each set that has the entry's HIP library must
declare the name from `hip_since` on, and not before it.  An entry no set can
check is "unverified" (an error with --fail-on-unverified).
It also lists the CUDA names declared in covered headers that no entry
mentions, and counts per target HIP what is mapped and which HIP names of the
naming rules stay unmapped (--json), and for the CUDA runtime and driver
functions which ones each target HIP declares an equivalent for and whether
it is mapped (equivalents.py; --fail-on-missing-equivalent).  Exit status 1 on any error (or a stale
coverage document).  Nothing is cached: the headers are read with clang on
every run.
"""
import argparse
import collections
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hdrscan  # noqa: E402
import families as F  # noqa: E402
import targets  # noqa: E402
import equivalents  # noqa: E402
import schema  # noqa: E402
from versions import vkey  # noqa: E402

try:
    import yaml
except ImportError:  # pragma: no cover
    sys.exit("verify.py needs PyYAML (Debian: python3-yaml)")

MAPDIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA = schema.Validator(schema.load_schema())
ENTRY_SCHEMA = {"$ref": "#/$defs/entry"}
# The file's keys; its entries are checked one by one (check_schema).
FILE_SCHEMA = dict(SCHEMA.root, properties=dict(SCHEMA.root["properties"],
                                                entries={"type": "array"}))


def cuda_header_exists(h):
    return any(os.path.isfile(os.path.join(d, h))
               for d in (hdrscan.CUDA_INC, os.path.join(hdrscan.CUDA_INC, "cccl")))


class Side:
    """One HIP header set: the tree, the names it declares, its compiler macros."""

    def __init__(self, tree):
        self.tree, self.version = tree, tree.version
        self.names = hdrscan.scan(F.hip_tu(tree), "hip", tree=tree)
        self.predefined = hdrscan.predefined_macros("hip", tree)
        self.ns = {n for n in self.names if n.endswith("::")}

    def has_library(self, e, hip_hdrs):
        """Whether this set has the HIP library of entry e (a header entry:
        the folder of its HIP header; else the map's hip_headers)."""
        if e["kind"] == "header":
            return os.path.isdir(os.path.join(self.tree.inc, e["hip"].split("/", 1)[0])) \
                if "/" in e["hip"] else True
        return all(self.tree.has(h) for h in hip_hdrs)

    def declares(self, e):
        hipname, kind = e["hip"], e["kind"]
        if kind == "header":
            return self.tree.has(hipname)
        if kind == "namespace":
            return hipname in self.ns or any(n.startswith(hipname) for n in self.names)
        # an enumerator may map to a compiler macro (__ATOMIC_RELAXED)
        return hipname in self.names or hipname in self.predefined


def hip_sides(prefix):
    """The installed HIP and the HIP tree under prefix, oldest first."""
    trees = [hdrscan.HipTree(), hdrscan.HipTree(prefix)]
    return [Side(t) for t in sorted(trees, key=lambda t: vkey(t.version))]


def namespace_renames(maps):
    """{CUDA namespace: HIP namespace} of the namespace entries that rename."""
    return {e["cuda"]: e["hip"] for m in maps for e in m["entries"]
            if isinstance(e, dict) and e.get("kind") == "namespace" and e.get("hip")
            and e["hip"] != e["cuda"]}


def as_translated(e, renames):
    """The entry with the HIP name a use gets: the translator renames a
    qualified name's qualifier by its namespace entry (cub::Debug is written
    hipcub::Debug)."""
    hip = e["hip"]
    if e.get("kind") == "namespace":
        return e
    for ns in sorted(renames, key=len, reverse=True):
        if hip.startswith(ns):
            return dict(e, hip=renames[ns] + hip[len(ns):])
    return e


def check_hip(e, where, hip_hdrs, sides, rep):
    """Checks the HIP name against every set that has its library: declared
    from hip_since on, and not before (so hip_since is the first version that
    has it).  Returns "verified", "newer" (hip_since is newer than every set),
    "wrong" (an error was reported) or "unverified" (no set has the library)."""
    since = e.get("hip_since")
    checked, errors = False, len(rep.errors)
    for s in sides:
        if not s.has_library(e, hip_hdrs):
            continue
        checked = True
        wanted = since is None or vkey(since) <= vkey(s.version)
        declared = s.declares(e)
        if wanted and not declared:
            rep.error(where, "HIP name %s is not declared in the HIP %s headers%s" % (
                e["hip"], s.version, "" if since is None else " (hip_since %s)" % since))
        elif declared and not wanted:
            rep.error(where, "HIP %s already declares %s: hip_since %s is not its first version"
                      % (s.version, e["hip"], since))
    if not checked:
        return "unverified"
    if len(rep.errors) > errors:
        return "wrong"
    return "newer" if since and vkey(since) > vkey(sides[-1].version) else "verified"


def check_hip_defines(e, where, sides, rep):
    """A header entry's hip_defines must each be tested by the HIP header of
    the newest set that has it (#ifdef M, #if defined(M), ...)."""
    side = next((s for s in reversed(sides) if s.tree.has(e["hip"])), None)
    if side is None:
        return
    text = open(os.path.join(side.tree.inc, e["hip"]), errors="replace").read()
    for macro in e["hip_defines"]:
        if not re.search(r"#\s*(ifn?def\s+%s\b|(el)?if\b.*\bdefined\s*\(?\s*%s\b)"
                         % (macro, macro), text):
            rep.error(where, "hip_defines: HIP %s's %s does not test %s"
                      % (side.version, e["hip"], macro))


class Report:
    def __init__(self):
        self.errors = []

    def error(self, where, msg):
        self.errors.append("%s: %s" % (where, msg))


def load_maps(paths, rep):
    """The map files, each checked against the schema (file level; entries in
    check_schema) and its entries given their reason texts."""
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
        file_level = {k: v for k, v in doc.items() if k != "entries"}
        file_level["entries"] = doc["entries"] if isinstance(doc.get("entries"), list) else None
        for path, msg in SCHEMA.errors(file_level, FILE_SCHEMA):
            rep.error(f, "%s%s" % ("'%s' " % path if path else "", msg))
        for path, msg in schema.reason_id_errors(doc):
            rep.error(f, "%s: %s" % (path, msg))
        schema.resolve_reasons(doc)
        if not isinstance(doc.get("entries"), list):
            doc["entries"] = []
        doc["_file"] = f
        maps.append(doc)
    return maps


def check_schema(m, e, i, rep, seen):
    """The entry against the schema, then what it cannot say: a shim that
    exists, cuda_since before cuda_removed, one entry per CUDA name."""
    where = "%s: entry %d" % (os.path.basename(m["_file"]), i + 1)
    if isinstance(e, dict) and isinstance(e.get("cuda"), str):
        where = "%s: %s" % (os.path.basename(m["_file"]), e["cuda"])
    errors = SCHEMA.errors(e, ENTRY_SCHEMA)
    for path, msg in errors:
        rep.error(where, "%s%s" % ("'%s' " % path if path else "", msg))
    if errors:
        return False
    ok = True
    for key in ("shim", "mask_shim"):
        if key in e and not os.path.isfile(os.path.join(MAPDIR, "shims", "%s.yaml" % e[key])):
            rep.error(where, "no shim '%s' in mappings/shims/" % e[key])
            ok = False
    if "cuda_since" in e and "cuda_removed" in e and vkey(e["cuda_since"]) >= vkey(e["cuda_removed"]):
        rep.error(where, "cuda_since is not older than cuda_removed")
        ok = False
    key = e["cuda"]
    if key in seen:
        rep.error(where, "duplicate cuda name (also in %s)" % seen[key])
        ok = False
    else:
        seen[key] = os.path.basename(m["_file"])
    return ok


def check_cuda(e, where, cuda, builtins, rep):
    """Whether the CUDA name is declared (or gone, when marked removed)."""
    name, kind = e["cuda"], e["kind"]
    if e.get("predefined") and kind == "function":
        declared = name in builtins
    elif e.get("predefined"):
        declared = name in cuda.predefined
    elif kind == "header":
        declared = cuda_header_exists(name)
    elif kind == "namespace":
        declared = name in cuda.ns or any(n.startswith(name) for n in cuda.names) or \
            os.path.isdir(os.path.join(hdrscan.CUDA_INC, "cccl", name.split("::")[0]))
    else:
        declared = name in cuda.names
    removed = e.get("status") == "removed"
    if not declared and not removed:
        rep.error(where, "CUDA name is not declared in the installed CUDA headers "
                         "(and the entry is not marked removed)")
    if declared and removed:
        rep.error(where, "marked removed but still declared by the installed CUDA headers")


class CudaSide:
    def __init__(self, maps):
        extra = sorted({h for m in maps for h in m.get("cuda_headers") or []})
        self.names = hdrscan.scan(F.cuda_tu(extra), "cuda")
        self.predefined = hdrscan.predefined_macros("cuda")
        self.ns = {n for n in self.names if n.endswith("::")}


def check_entries(maps, cuda, sides, rep):
    """Checks every entry; returns {family: counters} and {family: [entries]}."""
    builtins = hdrscan.cuda_builtins({e["cuda"] for m in maps for e in m["entries"]
                                      if isinstance(e, dict) and e.get("predefined")
                                      and e.get("kind") == "function"})
    stats, entries_by_family, seen = {}, {}, {}
    renames = namespace_renames(maps)
    for m in maps:
        fam = str(m.get("family", "?"))
        st = stats.setdefault(fam, collections.Counter())
        for i, e in enumerate(m["entries"]):
            if not check_schema(m, e, i, rep, seen):
                continue
            where = "%s: %s" % (os.path.basename(m["_file"]), e["cuda"])
            entries_by_family.setdefault(fam, []).append(e)
            st["entries"] += 1
            st[e.get("status", "supported")] += 1
            check_cuda(e, where, cuda, builtins, rep)
            if e.get("hip"):
                st[check_hip(as_translated(e, renames), where, m.get("hip_headers") or [],
                             sides, rep)] += 1
            if e.get("hip_defines"):
                check_hip_defines(e, where, sides, rep)
    return stats, entries_by_family


def unmapped_names(cuda, mentioned):
    """{family: declared CUDA names}, {family: those no entry mentions},
    {name: its header}."""
    declared, header_of = {}, {}
    for name, (kind, hdrs) in cuda.names.items():
        if not F.interesting(name, kind):
            continue
        fam = F.family_of(hdrs, kind)
        if fam is None:
            continue
        declared.setdefault(fam, set()).add(name)
        fam_hdrs = next(f["cuda"] for f in F.FAMILIES if f["family"] == fam)
        header_of[name] = sorted(hdrs, key=lambda h: (h not in fam_hdrs, h))[0]
    unmapped = {fam: sorted(n for n in names if n not in mentioned)
                for fam, names in declared.items()}
    return declared, unmapped, header_of


def print_summary(stats, unmapped, sides, args):
    print("HIP %s; CUDA headers in %s" % (
        " and ".join("%s in %s" % (s.version, s.tree.inc) for s in sides), hdrscan.CUDA_INC))
    print("%-9s %7s %9s %7s %11s %8s %10s %9s %5s %8s" % (
        "family", "entries", "supported", "removed", "unsupported", "verified",
        "unverified", "hip>%s" % sides[-1].version, "wrong", "unmapped"))
    for fam in sorted(stats):
        s = stats[fam]
        print("%-9s %7d %9d %7d %11d %8d %10d %9d %5d %8d" % (
            fam, s["entries"], s["supported"], s["removed"], s["unsupported"],
            s["verified"], s["unverified"], s["newer"], s["wrong"], len(unmapped.get(fam, []))))
    for fam in sorted(unmapped):
        names = unmapped[fam]
        if not names:
            continue
        shown = names if args.list_unmapped else names[:10]
        print("unmapped in %s (%d): %s%s" % (fam, len(names), " ".join(shown),
                                             "" if len(shown) == len(names) else " ..."))


def write_coverage(args, results):
    """Writes or checks the coverage document; returns False when it is stale."""
    import coverage
    doc = coverage.render(results)
    if args.coverage:
        with open(args.coverage, "w") as f:
            f.write(doc)
        print("wrote %s" % args.coverage)
    if not args.check_coverage:
        return True
    try:
        old = open(args.check_coverage).read()
    except OSError:
        old = None
    if old != doc:
        print("ERROR %s is stale: regenerate it with python3 mappings/tools/verify.py "
              "--coverage %s" % (args.check_coverage, args.check_coverage))
        return False
    if not args.quiet:
        print("%s is current" % args.check_coverage)
    return True


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--maps", nargs="+", default=[MAPDIR],
                    help="map files or directories (default: mappings/)")
    ap.add_argument("--coverage", metavar="FILE", help="write the coverage document")
    ap.add_argument("--check-coverage", metavar="FILE",
                    help="fail if FILE differs from the coverage document")
    ap.add_argument("--json", metavar="FILE",
                    help="write the per-target counts (testsuite/results/hip-targets.json)")
    ap.add_argument("--list-unmapped", action="store_true",
                    help="print every unmapped CUDA name (default: counts and a few)")
    ap.add_argument("--fail-on-unmapped", action="store_true",
                    help="exit 1 if a covered CUDA name is not mentioned by any map")
    ap.add_argument("--fail-on-unverified", action="store_true",
                    help="exit 1 if an entry's HIP name could not be checked against any HIP")
    ap.add_argument("--fail-on-missing-equivalent", action="store_true",
                    help="exit 1 if a target HIP declares an equivalent of a CUDA runtime or "
                         "driver function that the maps leave unmapped for it without a reason "
                         "naming it")
    ap.add_argument("--hip-prefix", metavar="DIR", default=hdrscan.HIP64_PREFIX,
                    help="the HIP 6.4 tree of scripts/fetch-hip64.sh (default %(default)s, "
                         "or $CU2DCU_HIP64_PREFIX)")
    ap.add_argument("-q", "--quiet", action="store_true")
    return ap.parse_args()


def main():
    args = parse_args()
    rep = Report()
    maps = load_maps(args.maps, rep)
    sides = hip_sides(args.hip_prefix)
    cuda = CudaSide(maps)
    stats, entries_by_family = check_entries(maps, cuda, sides, rep)
    mentioned = {e["cuda"] for es in entries_by_family.values() for e in es}
    declared, unmapped, header_of = unmapped_names(cuda, mentioned)
    checked = {str(m.get("family")) for m in maps}
    unmapped = {f: n for f, n in unmapped.items() if f in checked}
    if not args.quiet:
        print_summary(stats, unmapped, sides, args)
    fail = bool(rep.errors)
    for err in rep.errors:
        print("ERROR " + err)
    if args.fail_on_unmapped and any(unmapped.values()):
        print("ERROR unmapped CUDA names remain (--fail-on-unmapped)")
        fail = True
    if args.fail_on_unverified and any(s["unverified"] for s in stats.values()):
        print("ERROR entries remain unverified (--fail-on-unverified)")
        fail = True
    results = targets.Results(stats, entries_by_family, declared, unmapped, header_of, sides)
    functions = {f: {n for n in names if cuda.names[n][0] == "function"}
                 for f, names in declared.items()}
    results.equivalents = equivalents.count(entries_by_family, functions, sides)
    if args.fail_on_missing_equivalent and equivalents.missing(results.equivalents):
        for m in equivalents.missing(results.equivalents):
            print("ERROR %s: HIP declares an equivalent the map leaves unmapped" % m)
        fail = True
    if args.coverage or args.check_coverage:
        fail |= not write_coverage(args, results)
    if args.json:
        targets.write_json(args.json, results)
        print("wrote %s" % args.json)
    print("%d errors" % len(rep.errors))
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
