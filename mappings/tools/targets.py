"""What the maps translate for each target HIP the verifier read (HIP 5.2 and
HIP 6.4): mapped, unsupported, and the HIP names the naming rules of
generate.py find in that HIP's headers for entries that stay unmapped there.
Feeds docs/coverage.md (coverage.py) and testsuite/results/hip-targets.json.
"""
import json
import os
import re
import sys

import families as F
import generate
from versions import vkey

# the reasons that said no HIP after 5.2 was checked for the name
NO_LATER_VERSION = re.compile(r"no later HIP version|(later|no later) version (not )?recorded|"
                              r"version not recorded")


def mapped_for(e, version):
    """Whether a target of this HIP version gets the entry's HIP name."""
    return e.get("hip") is not None and (
        "hip_since" not in e or vkey(e["hip_since"]) <= vkey(version))


def rule_equivalent(fam, e, side):
    """The first HIP name the naming rules give for e that side declares, if
    side has the family's HIP library."""
    hip_hdrs = next((f["hip"] for f in F.FAMILIES if f["family"] == fam), [])
    if e["kind"] in ("header", "namespace") or not all(side.tree.has(h) for h in hip_hdrs):
        return None
    rule = generate.CANDIDATES.get(fam, lambda n, k: [])
    return next((c for c in rule(e["cuda"], e["kind"]) if c in side.names), None)


class Results:
    """The verifier's counts, per family and per target HIP version."""

    def __init__(self, stats, entries_by_family, declared, unmapped, header_of, sides):
        self.stats, self.entries_by_family = stats, entries_by_family
        self.declared, self.unmapped, self.header_of = declared, unmapped, header_of
        self.versions = [s.version for s in sides]
        self.trees = {s.version: s.tree.inc for s in sides}
        self.targets = {}       # family -> version -> counts
        self.rule_unmapped = {}  # version -> family -> {cuda: hip}
        for fam, es in entries_by_family.items():
            for s in sides:
                self._count(fam, es, s)

    def _count(self, fam, es, side):
        mapped = [e for e in es if mapped_for(e, side.version)]
        rest = {e["cuda"]: rule_equivalent(fam, e, side) for e in es
                if not mapped_for(e, side.version)}
        rest = {n: h for n, h in rest.items() if h}
        self.targets.setdefault(fam, {})[side.version] = dict(
            mapped=len(mapped), unsupported=len(es) - len(mapped), rule_unmapped=len(rest))
        if rest:
            self.rule_unmapped.setdefault(side.version, {})[fam] = rest

    def no_later_version(self, fam):
        """Entries whose reason still says no HIP after 5.2 has the name."""
        return sum(1 for e in self.entries_by_family.get(fam, ())
                   if NO_LATER_VERSION.search(str(e.get("reason", ""))))


def write_json(path, r):
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    fams = {}
    for fam in sorted(r.stats):
        s = r.stats[fam]
        fams[fam] = dict(entries=s["entries"], declared=len(r.declared.get(fam, ())),
                         verified=s["verified"], unverified=s["unverified"],
                         wrong_hip_name=s["wrong"],
                         newer_than_all=s["newer"],
                         no_later_hip_version_recorded=r.no_later_version(fam),
                         targets=r.targets.get(fam, {}))
    command = " ".join(os.path.relpath(a, repo) if os.path.exists(a) and
                       os.path.abspath(a).startswith(repo) else a for a in sys.argv[1:])
    doc = {
        "generated_by": "python3 mappings/tools/verify.py " + command,
        "hip_headers": {v: os.path.relpath(inc, repo) if inc.startswith(repo) else inc
                        for v, inc in r.trees.items()},
        "totals": dict(entries=sum(s["entries"] for s in r.stats.values()),
                       unverified=sum(s["unverified"] for s in r.stats.values()),
                       wrong_hip_name=sum(s["wrong"] for s in r.stats.values()),
                       no_later_hip_version_recorded=sum(r.no_later_version(f) for f in r.stats)),
        "families": fams,
        "rule_equivalent_unmapped": r.rule_unmapped,
        "api_function_equivalents": r.equivalents,
    }
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
