#!/usr/bin/env python3
"""The candidate finder: for every function the maps leave without a HIP 6.4
name (unsupported, or supported only by a shim), the HIP 6.4 functions closest
to it in name tokens, each reviewed against the two signatures.

    python3 mappings/tools/candidates.py --markdown docs/candidates.md [--check]

Names are compared by their tokens once the library prefixes are gone
(cudnnSetTensor4dDescriptorEx: set tensor 4 d descriptor ex), as a Jaccard
index; a HIP function of at least 0.75 that no entry maps already is a
candidate. Each candidate gets a verdict:

  named       the entry's reason, note or shim names it: reviewed by hand;
  arity       no overload pair has as many parameters on both sides;
  parameter   as many parameters, but one differs once CUDA's type names are
              translated by the maps' type entries (the first is quoted);
  UNREVIEWED  every parameter agrees: map it (and prove it by use) or give
              the entry a reason that names the candidate.

--check exits 1 while a candidate is UNREVIEWED. The verdicts come from the
headers and maps each run; nothing is kept by hand but the entries' reasons.
"""
import argparse
import collections
import glob
import os
import re
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import families as F  # noqa: E402
import hdrscan  # noqa: E402
import signatures  # noqa: E402

MAPDIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PREFIXES = re.compile(r"^(hipDrv|hipsparse|hipblasLt|hipblas|hipsolver|hipfft|hiprand|miopen|rccl|roctx|"
                      r"cusparse|cublasLt|cublas|cusolverDn|cusolverSp|cusolverRf|cusolver|cufft|curand|"
                      r"cudnn|nccl|nvtx|hip|cuda|cu)")
THRESHOLD = 0.75


def tokens(name):
    rest = PREFIXES.sub("", name)
    return {t.lower() for t in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", rest)}


def load_entries():
    """[(family, entry, its reason text)] of every map file."""
    found = []
    for path in sorted(glob.glob(os.path.join(MAPDIR, "*.yaml"))):
        with open(path) as f:
            doc = yaml.safe_load(f)
        reasons = doc.get("reasons") or {}
        for e in doc.get("entries") or []:
            text = " ".join(str(x) for x in (e.get("reason", ""), reasons.get(e.get("reason_id"), ""),
                                             e.get("note", ""), e.get("shim", "")))
            found.append((doc.get("family"), e, text))
    return found


def unmapped_at_64(e):
    return e.get("kind") == "function" and e.get("status") != "removed" and (
        not e.get("hip") or (e.get("status") == "unsupported" and not e.get("hip_since")))


def normalize(t, renames=None):
    t = re.sub(r"\bconst\b|\bstruct\b|\benum\b", "", t)
    if renames:
        t = re.sub(r"[A-Za-z_]\w*", lambda m: renames.get(m.group(0), m.group(0)), t)
    return re.sub(r"\s+", "", t)


def verdict(cuda_name, hip_name, text, cuda_sigs, hip_sigs, renames):
    if re.search(r"\b%s\b" % re.escape(hip_name), text):
        return "named", ""
    cuda_overloads = cuda_sigs["functions"].get(cuda_name, [])
    hip_overloads = hip_sigs["functions"].get(hip_name, [])
    pairs = [(c, h) for c in cuda_overloads for h in hip_overloads if len(c["params"]) == len(h["params"])]
    if not pairs:
        return "arity", "CUDA %s, HIP %s parameters" % (
            "/".join(str(len(c["params"])) for c in cuda_overloads) or "?",
            "/".join(str(len(h["params"])) for h in hip_overloads) or "?")
    for c, h in pairs:
        differ = [(i, a, b) for i, (a, b) in enumerate(zip(c["params"], h["params"]))
                  if normalize(a, renames) != normalize(b)]
        if not differ:
            return "UNREVIEWED", "every parameter agrees"
    i, a, b = differ[0]
    return "parameter", "parameter %d: CUDA '%s', HIP '%s'" % (i + 1, a, b)


def find(entries, hip_functions, cuda_sigs, hip_sigs):
    mapped = {e.get("hip") for _, e, _ in entries if e.get("hip")}
    renames = {e["cuda"]: e["hip"] for _, e, _ in entries
               if e.get("kind") in ("type", "enumerator") and e.get("hip")}
    pool = {h: tokens(h) for h in hip_functions if h not in mapped}
    by_token = collections.defaultdict(set)
    for h, ts in pool.items():
        for t in ts:
            by_token[t].add(h)
    rows = []
    for family, e, text in entries:
        if not unmapped_at_64(e):
            continue
        ts = tokens(e["cuda"])
        near = {h for t in ts for h in by_token[t]}
        for h in sorted(near):
            score = len(ts & pool[h]) / len(ts | pool[h])
            if score >= THRESHOLD:
                v, why = verdict(e["cuda"], h, text, cuda_sigs, hip_sigs, renames)
                rows.append({"family": family, "cuda": e["cuda"], "hip": h, "score": round(score, 2),
                             "verdict": v, "why": why})
    return rows


def markdown(rows):
    counts = collections.Counter(r["verdict"] for r in rows)
    lines = ["# Candidate HIP 6.4 equivalents of unmapped CUDA functions", "",
             "Written by `python3 mappings/tools/candidates.py --markdown docs/candidates.md`; the "
             "verdicts are explained in that script. %d candidates: %s." % (
                 len(rows), ", ".join("%d %s" % (n, v) for v, n in sorted(counts.items()))), "",
             "| family | CUDA | HIP 6.4 candidate | tokens | verdict | why |", "|---|---|---|---|---|---|"]
    lines += ["| %(family)s | `%(cuda)s` | `%(hip)s` | %(score).2f | %(verdict)s | %(why)s |" % r
              for r in rows]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--markdown", help="write the table here")
    ap.add_argument("--check", action="store_true", help="exit 1 while a candidate is unreviewed")
    a = ap.parse_args()
    tree = hdrscan.HipTree(hdrscan.HIP64_PREFIX)
    hip = hdrscan.scan(F.hip_tu(tree), "hip", tree=tree)
    rows = find(load_entries(), [n for n, (k, _) in hip.items() if k == "function"],
                signatures.cuda_signatures(), signatures.hip_signatures(tree))
    text = markdown(rows)
    if a.markdown:
        stale = not os.path.exists(a.markdown) or open(a.markdown).read() != text
        if a.check and stale:
            print("ERROR %s is stale: run python3 mappings/tools/candidates.py --markdown %s"
                  % (a.markdown, a.markdown))
        elif not a.check:
            open(a.markdown, "w").write(text)
    unreviewed = [r for r in rows if r["verdict"] == "UNREVIEWED"]
    for r in unreviewed:
        print("UNREVIEWED %(cuda)s -> %(hip)s (%(family)s): %(why)s" % r)
    print("%d candidates, %d unreviewed" % (len(rows), len(unreviewed)))
    return 1 if a.check and (unreviewed or (a.markdown and stale)) else 0


if __name__ == "__main__":
    sys.exit(main())
