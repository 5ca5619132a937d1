"""The CUDA runtime and driver API functions against each target HIP: which
ones that HIP declares an equivalent for, and whether the maps translate
them for that target (`--hip-version X`).

A function's HIP equivalent is its entry's HIP name, else the name the
family's naming rule of generate.py gives (cudaX -> hipX, cuX -> hipDrvX /
hipModuleX / hipX), when that HIP declares it as a function (or as a macro:
HIP 6 spells hipGetDeviceProperties as one over a versioned function).  An
equivalent the maps leave unmapped for X is "reviewed" when the entry's
reason names it (it says why that HIP function does not fit: other argument
lists or semantics); else it is "missing", which the verifier reports as an
error with --fail-on-missing-equivalent.  Used by verify.py (--json,
--coverage).
"""
import generate
import targets

API_FAMILIES = ("runtime", "driver")
FUNCTION_KINDS = ("function", "macro")


def hip_functions(side):
    """{name: (kind, headers)} of the functions (and macros) side declares."""
    return {n: v for n, v in side.names.items() if v[0] in FUNCTION_KINDS}


def equivalent(fam, e, functions, by_lower):
    """The HIP function of functions equivalent to entry e, or None."""
    if e.get("hip") in functions:
        return e["hip"]
    return generate.pair(fam, e["cuda"], "function", functions, by_lower)


def count_family(fam, entries, side):
    """Counts of one family's CUDA functions for the target HIP of side."""
    functions = hip_functions(side)
    by_lower = generate.unique_lower(functions)
    counts = dict(functions=len(entries), equivalent=0, mapped=0, reviewed=0, missing=[])
    for e in entries:
        hip = equivalent(fam, e, functions, by_lower)
        counts["mapped"] += targets.mapped_for(e, side.version)
        if hip is None:
            continue
        counts["equivalent"] += 1
        if not targets.mapped_for(e, side.version):
            if hip in str(e.get("reason", "")):
                counts["reviewed"] += 1
            else:
                counts["missing"].append("%s (%s)" % (e["cuda"], hip))
    return counts


def count(entries_by_family, cuda_functions, sides):
    """{version: {family: counts}} for the API families; cuda_functions is
    {family: the CUDA function names the CUDA headers declare}."""
    result = {}
    for side in sides:
        for fam in API_FAMILIES:
            entries = [e for e in entries_by_family.get(fam, ())
                       if e["cuda"] in cuda_functions.get(fam, ())]
            if entries:
                result.setdefault(side.version, {})[fam] = count_family(fam, entries, side)
    return result


def missing(result):
    """"HIP X: family: name (hip name)" for each equivalent left unmapped."""
    return ["HIP %s: %s: %s" % (v, fam, m) for v, fams in sorted(result.items())
            for fam, c in sorted(fams.items()) for m in c["missing"]]


def render(result, w):
    """The per-target table of docs/coverage.md."""
    w("")
    w("## CUDA runtime and driver functions per target HIP")
    w("")
    w("Of the CUDA API functions the CUDA headers declare (*functions*): those for which")
    w("HIP X declares an equivalent (*HIP has one*: the entry's HIP name, else the naming")
    w("rule's, as a function or macro), those `--hip-version` X translates (*mapped*), those")
    w("HIP X has an equivalent for that stay CUDA with a reason naming that HIP function")
    w("(*reviewed*: other argument lists or semantics) and those left unmapped without one")
    w("(*missing*; `--fail-on-missing-equivalent` makes them errors). `equivalents.py`.")
    w("")
    versions = sorted(result, key=targets.vkey)
    head = " | ".join("HIP has one %s | mapped %s | reviewed %s | missing %s" % ((v,) * 4)
                      for v in versions)
    w("| family | functions | %s |" % head)
    w("|---|---:|" + "---:|" * (4 * len(versions)))
    for fam in API_FAMILIES:
        rows = [result[v].get(fam) for v in versions]
        if not all(rows):
            continue
        cells = " | ".join("%d | %d | %d | %d" % (c["equivalent"], c["mapped"], c["reviewed"],
                                                  len(c["missing"])) for c in rows)
        w("| %s | %d | %s |" % (fam, rows[0]["functions"], cells))
