"""The struct members CUDA code reads that the HIP struct a type maps to
lacks: `missing_members` of a type entry, {member: the first HIP version
checked that has it, or None}. cu2dcu reports a use of one at the member
access (CU2DCU-MEMBER), where the port would not compile.

Fields come from each side's AST dump (signatures.py). A HIP type name may be
a macro over a versioned struct (HIP 6.4's hipDeviceProp_t is
hipDeviceProp_tR0600), so the HIP names are resolved by declaring a variable
of each in one probe unit and reading its canonical type.
"""
import re

import hdrscan

_PROBE = "__cu2dcu_member_probe_"
_VAR = re.compile(r"VarDecl 0x[0-9a-f]+ <[^>]*> (?:col|line):\S+ " + _PROBE + r"(\d+) '[^']*'(?::'([^']*)')?")


def record_of(name, sigs):
    """The struct a type name denotes through typedefs, or None."""
    for _ in range(6):
        name = re.sub(r"^(const |struct |union |class )+", "", name or "").strip()
        if name in sigs["records"]:
            return name
        name = sigs["typedefs"].get(name)
    return None


def hip_records(tree, sigs, hip_names, headers):
    """{HIP type name: the struct it denotes} in tree, macros included."""
    names = sorted(hip_names)
    src = "".join("#include <%s>\n" % h for h in headers)
    src += "".join("%s %s%d;\n" % (n, _PROBE, i) for i, n in enumerate(names))
    flags, roots = hdrscan._side("hip", tree)
    args = flags + ["-ferror-limit=0", "-fsyntax-only", "-fno-color-diagnostics", "-Xclang", "-ast-dump"]

    def parse(out):
        found = {}
        for m in _VAR.finditer(out):
            n = names[int(m.group(1))]
            found[n] = record_of(n, sigs) or record_of(m.group(2) or "", sigs)
        return found
    return hdrscan._cached_scan("member-records", args, src, roots, parse)


def fields(name, sigs, depth=0):
    """The named fields of the struct a type denotes, its bases' included."""
    record = record_of(name, sigs)
    if not record or depth > 8:
        return None
    found = set(sigs["records"][record])
    for base in sigs["bases"].get(record, []):
        found |= fields(base, sigs, depth + 1) or set()
    return found


def add_missing_members(entries, cuda_sigs, hip_sides):
    """Sets missing_members on the type entries of one family whose CUDA
    struct has members the HIP struct lacks. hip_sides: [(version, sigs,
    {hip name: struct})] of HIP 5.2 and 6.4; a HIP library whose headers only
    6.4 has is checked there alone."""
    for e in entries.values():
        if e["kind"] != "type" or not e.get("hip") or e.get("shim"):
            continue
        cuda_fields = fields(e["cuda"], cuda_sigs)
        if not cuda_fields:
            continue
        have = [(v, fields(rec[e["hip"]], sigs)) for v, sigs, rec in hip_sides if rec.get(e["hip"])]
        if not have:
            continue
        if len(have) == 1:
            have = [("5.2", have[0][1])]
        missing = {}
        for f in sorted(cuda_fields - have[0][1]):
            missing[f] = next((v for v, hip_fields in have[1:] if f in hip_fields), None)
        if missing:
            e["missing_members"] = missing
