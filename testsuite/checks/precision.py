#!/usr/bin/env python3
"""Precision and recall of the W64-* checks over the labelled corpus.

  precision.py --tool build/tool/main/cu2dcu --corpus testsuite/checks/corpus \
               --json testsuite/results/wave64-precision.json --min-recall 0.95 --max-fp-rate 0.05

Labels (see corpus/README.md): a trailing `// expect: W64-A, W64-B` marks the
findings a line must get; `// note: W64-A` a finding that must be a note (code that
is right at 64 lanes as written, such as consistent 32-lane groups: a warning there
counts as a false positive and the note as missed); `// quiet: W64-A` marks a hard
negative. Findings and
labels are compared as (file, line, check id) sets, read from the JSON report; a
use folded into the finding at its definition (#define WARP_SIZE 32) counts at
its own line, as the related location it is listed as:
  TP  labelled and reported        FN  labelled, not reported
  FP  reported, not labelled       (a hard negative that fires is also an FP)
precision = TP / (TP + FP), recall = TP / (TP + FN),
false-positive rate = FP / (TP + FP), the share of reported findings that are
false (1 - precision). W64-WARP-SYNC is left out: it reports calls the
translator could not rewrite, not a 32-lane pattern.
Exit 0 when recall >= --min-recall and the false-positive rate <= --max-fp-rate.
"""
import argparse, collections, glob, json, os, re, subprocess, sys, tempfile

LABEL = re.compile(r"//\s*(expect|note|quiet):\s*(W64-[A-Z0-9-]+(?:\s*,\s*W64-[A-Z0-9-]+)*)")
EXCLUDED = {"W64-WARP-SYNC"}


def labels_of(path):
    """The expected findings, those of them that must be notes, the hard negatives."""
    expect, notes, quiet = set(), set(), set()
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            for kind, ids in LABEL.findall(text):
                for i in re.split(r"\s*,\s*", ids.strip()):
                    (quiet if kind == "quiet" else expect).add((number, i))
                    if kind == "note":
                        notes.add((number, i))
    return expect, notes, quiet


def reported_lines(diagnostic):
    """(file, line, id, severity, message) of a finding and of the uses folded into it."""
    d = diagnostic
    yield d["file"], d["line"], d["id"], d["severity"], d["message"]
    for r in d.get("related", []):
        if r["id"]:
            yield r["file"], r["line"], r["id"], d["severity"], r["message"]


def findings_of(tool, path, extra):
    with tempfile.TemporaryDirectory(prefix="wave64-precision-") as tmp:
        report = os.path.join(tmp, "report.json")
        p = subprocess.run([tool, path, "--dry-run", "--fail-on=never", "--quiet",
                            "--json", report] + extra, capture_output=True, text=True)
        if p.returncode not in (0, 1) or not os.path.exists(report):
            raise SystemExit("cu2dcu failed on %s (%d):\n%s" % (path, p.returncode, p.stderr))
        with open(report, encoding="utf-8") as f:
            diagnostics = json.load(f)["diagnostics"]
    base = os.path.basename(path)
    found = {}
    for d in diagnostics:
        if d["id"] == "CU2DCU-PARSE-FALLBACK":
            # The checks need the AST: a corpus file that does not parse is a
            # broken test, not a set of false negatives.
            raise SystemExit("corpus file %s does not parse: %s" % (path, d["message"]))
        for file, line, cid, sev, msg in reported_lines(d):
            if os.path.basename(file) == base and cid.startswith("W64-") and cid not in EXCLUDED:
                found.setdefault((line, cid), (sev, msg))
    return found


def ratio(a, b):
    return round(a / b, 4) if b else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--json")
    ap.add_argument("--min-recall", type=float, default=0.95)
    ap.add_argument("--max-fp-rate", type=float, default=0.05)
    ap.add_argument("--tool-arg", action="append", default=[],
                    help="extra cu2dcu argument (repeatable)")
    a = ap.parse_args()

    files = sorted(glob.glob(os.path.join(a.corpus, "*.cu")))
    if not files:
        raise SystemExit("no corpus files under " + a.corpus)
    per_check = collections.defaultdict(lambda: collections.Counter())
    per_file = {}
    details = {"false_positives": [], "false_negatives": []}
    for path in files:
        expect, notes, quiet = labels_of(path)
        found = findings_of(a.tool, path, a.tool_arg)
        # A note label answered by a warning: a false alarm, and the note missed.
        wrong_severity = {k for k in notes if k in found and found[k][0] != "note"}
        name = os.path.basename(path)
        fc = collections.Counter()
        for key in sorted(set(found) | expect):
            line, cid = key
            if key in wrong_severity:
                per_check[cid]["fp"] += 1
                per_check[cid]["fn"] += 1
                fc["fp"] += 1
                fc["fn"] += 1
                details["false_positives"].append(
                    {"file": name, "line": line, "check": cid, "hard_negative": False,
                     "message": "%s instead of a note: %s" % found[key]})
                details["false_negatives"].append({"file": name, "line": line, "check": cid})
            elif key in found and key in expect:
                per_check[cid]["tp"] += 1
                fc["tp"] += 1
            elif key in found:
                per_check[cid]["fp"] += 1
                fc["fp"] += 1
                sev, msg = found[key]
                details["false_positives"].append(
                    {"file": name, "line": line, "check": cid, "hard_negative": key in quiet,
                     "message": msg})
            else:
                per_check[cid]["fn"] += 1
                fc["fn"] += 1
                details["false_negatives"].append({"file": name, "line": line, "check": cid})
        for key in quiet:
            per_check[key[1]]["hard_negatives"] += 1
            if key in found:
                per_check[key[1]]["hard_negatives_fired"] += 1
        per_file[name] = {"tp": fc["tp"], "fp": fc["fp"], "fn": fc["fn"],
                          "labels": len(expect), "hard_negatives": len(quiet)}

    total = collections.Counter()
    checks = {}
    for cid in sorted(per_check):
        c = per_check[cid]
        total.update(c)
        checks[cid] = {"tp": c["tp"], "fp": c["fp"], "fn": c["fn"],
                       "precision": ratio(c["tp"], c["tp"] + c["fp"]),
                       "recall": ratio(c["tp"], c["tp"] + c["fn"]),
                       "false_positive_rate": ratio(c["fp"], c["tp"] + c["fp"]),
                       "hard_negatives": c["hard_negatives"],
                       "hard_negatives_fired": c["hard_negatives_fired"]}
    tp, fp, fn = total["tp"], total["fp"], total["fn"]
    summary = {"files": len(files), "labels": tp + fn, "findings": tp + fp,
               "tp": tp, "fp": fp, "fn": fn,
               "precision": ratio(tp, tp + fp), "recall": ratio(tp, tp + fn),
               "false_positive_rate": ratio(fp, tp + fp),
               "hard_negatives": total["hard_negatives"],
               "hard_negatives_fired": total["hard_negatives_fired"]}
    recall = summary["recall"] or 0.0
    fp_rate = summary["false_positive_rate"] or 0.0
    passed = recall >= a.min_recall and fp_rate <= a.max_fp_rate
    result = {"summary": summary, "thresholds": {"min_recall": a.min_recall,
                                                 "max_false_positive_rate": a.max_fp_rate},
              "passed": passed, "tool_args": a.tool_arg, "checks": checks, "files": per_file,
              **details}

    print("%-20s %4s %4s %4s %9s %7s" % ("check", "TP", "FP", "FN", "precision", "recall"))
    for cid, c in checks.items():
        print("%-20s %4d %4d %4d %9s %7s" % (cid, c["tp"], c["fp"], c["fn"], c["precision"],
                                             c["recall"]))
    print("%-20s %4d %4d %4d %9s %7s" % ("all", tp, fp, fn, summary["precision"],
                                         summary["recall"]))
    print("files %d, labels %d, hard negatives %d (%d fired), false-positive rate %s" % (
        len(files), tp + fn, summary["hard_negatives"], summary["hard_negatives_fired"],
        summary["false_positive_rate"]))
    for d in details["false_positives"]:
        print("FP %s:%d %s%s: %s" % (d["file"], d["line"], d["check"],
                                      " (hard negative)" if d["hard_negative"] else "",
                                      d["message"][:100]))
    for d in details["false_negatives"]:
        print("FN %s:%d %s" % (d["file"], d["line"], d["check"]))
    if a.json:
        os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
        with open(a.json, "w") as f:
            json.dump(result, f, indent=2, sort_keys=False)
            f.write("\n")
    if not passed:
        print("FAIL: recall %.4f (min %.2f), false-positive rate %.4f (max %.2f)" % (
            recall, a.min_recall, fp_rate, a.max_fp_rate))
        return 1
    print("PASS: recall %.4f, false-positive rate %.4f" % (recall, fp_rate))
    return 0


if __name__ == "__main__":
    sys.exit(main())
