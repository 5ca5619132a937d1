#!/usr/bin/env python3
"""Score cu2dcu's W64-* findings against the wave64 truth set mined from the dev corpus.

  score.py [--truth dev-truth.json] [--tool build/tool/main/cu2dcu] [--all]
           [--only NAME ...] [--jobs 2] [--out testsuite/results/wave64-dev-truth.json]

Runs `cu2dcu NAME-cuda --dry-run --fail-on=never --json REPORT -j 1` per
benchmark that has truth lines (every benchmark with --all) and compares the
W64-* findings with the truth lines (see README.md):
  recall     truth lines with a W64 finding on the same line (also within +-1),
             for the core tier and for core + extended;
  precision  W64 findings on a truth line (any tier) / all W64 findings; a
             finding is counted once per (file, line, check id).
Writes the JSON to --out and prints a Markdown summary.
"""
import argparse, collections, concurrent.futures, json, os, re, subprocess, sys, tempfile

from mine_truth import CLASSES, DEFAULT_CORPUS, benchmark_names, write_json

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
DEFAULT_TRUTH = os.path.join(HERE, "dev-truth.json")
DEFAULT_TOOL = os.path.join(REPO, "build", "tool", "main", "cu2dcu")
DEFAULT_OUT = os.path.join(REPO, "testsuite", "results", "wave64-dev-truth.json")
TIERS = {"core": ("core",), "all": ("core", "extended")}
SNIPPET_CHARS = 120
KEEP_WORD = re.compile(r"^(__\w+|warpSize|threadIdx|blockDim|blockIdx|asm|volatile|unsigned|int|"
                       r"long|for|if|return|const|constexpr|define|auto|float|uint\d+_t)$")
KEEP_NUMBERS = {"32", "31", "16", "5", "64", "63", "0xffffffff"}
TOKEN = re.compile(r"0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|[A-Za-z_]\w*|\S")


# ---------------------------------------------------------------- running cu2dcu

def run_tool(tool, corpus, name, workdir):
    """The JSON report of cu2dcu on NAME-cuda, or {"error": ...}."""
    report = os.path.join(workdir, name + ".json")
    command = [tool, os.path.join(corpus, name + "-cuda"), "--dry-run", "--fail-on=never",
               "--json", report, "-j", "1", "--quiet"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode not in (0, 1) or not os.path.exists(report):
        return {"error": "exit %d: %s" % (done.returncode, done.stderr.strip()[-500:])}
    with open(report, encoding="utf-8") as f:
        return json.load(f)


def run_all(tool, corpus, names, jobs):
    with tempfile.TemporaryDirectory(prefix="wave64-truth-") as workdir, \
            concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {name: pool.submit(run_tool, tool, corpus, name, workdir) for name in names}
        return {name: future.result() for name, future in futures.items()}


def findings_of(name, report):
    """W64 findings of one report, once per (file, line, id), each with the
    [file, line] of the uses folded into it (its related locations)."""
    found = {}
    for d in report.get("diagnostics", []):
        if d["id"].startswith("W64-"):
            key = (name, d["file"], d["line"], d["id"])
            f = found.setdefault(key, {"benchmark": name, "file": d["file"], "line": d["line"],
                                       "id": d["id"], "severity": d["severity"],
                                       "confidence": d.get("confidence"), "related": []})
            f["related"] += [[r["file"], r["line"]] for r in d.get("related", []) if r["id"]]
    return list(found.values())


def parse_modes_of(name, report):
    return {(name, f["path"]): f.get("parseMode") for f in report.get("files", [])}


# ---------------------------------------------------------------- scoring

def ratio(hit, total):
    return round(hit / total, 4) if total else None


def related_lines(findings):
    return {(f["benchmark"], file, line) for f in findings for file, line in f["related"]}


def finding_lines(findings):
    """Lines a reviewer is shown: the findings and the uses folded into them."""
    return {(f["benchmark"], f["file"], f["line"]) for f in findings} | related_lines(findings)


def true_lines(findings, truth_lines):
    """Truth lines, and the related locations of findings on them: a finding
    there is part of a true site, not a false positive."""
    hits = [f for f in findings if (f["benchmark"], f["file"], f["line"]) in truth_lines]
    return truth_lines | related_lines(hits)


def is_hit(entry, lines, tolerance):
    return any((entry["benchmark"], entry["file"], entry["line"] + d) in lines
               for d in range(-tolerance, tolerance + 1))


def recall_row(entries, lines):
    row = {}
    for tier, accepted in TIERS.items():
        chosen = [e for e in entries if e["tier"] in accepted]
        hits = [e for e in chosen if is_hit(e, lines, 0)]
        near = [e for e in chosen if is_hit(e, lines, 1)]
        row[tier] = {"truth": len(chosen),
                     "hit": len(hits), "recall": ratio(len(hits), len(chosen)),
                     "hit_pm1": len(near), "recall_pm1": ratio(len(near), len(chosen))}
    return row


def grouped_recall(entries, lines, key, order=None):
    groups = collections.defaultdict(list)
    for e in entries:
        groups[key(e)].append(e)
    names = order or sorted(groups)
    return {name: recall_row(groups.get(name, []), lines) for name in names}


def truth_keys(entries):
    return {(e["benchmark"], e["file"], e["line"]) for e in entries}


def precision_row(findings, truth_lines):
    true = [f for f in findings if (f["benchmark"], f["file"], f["line"]) in truth_lines]
    return {"findings": len(findings), "true": len(true),
            "precision": ratio(len(true), len(findings))}


def per_check(findings, truth_lines):
    ids = sorted({f["id"] for f in findings})
    return {i: precision_row([f for f in findings if f["id"] == i], truth_lines) for i in ids}


def per_benchmark(names, entries, findings, truth_lines):
    table = {}
    for name in names:
        own = [e for e in entries if e["benchmark"] == name]
        found = [f for f in findings if f["benchmark"] == name]
        table[name] = {"recall": recall_row(own, finding_lines(found)),
                       "precision": precision_row(found, truth_lines)}
    return table


# ---------------------------------------------------------------- patterns

def source_line(corpus, benchmark, rel, line, cache):
    path = os.path.join(corpus, benchmark + "-cuda", rel)
    if path not in cache:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                cache[path] = f.read().split("\n")
        except OSError:
            cache[path] = []
    lines = cache[path]
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= SNIPPET_CHARS else text[:SNIPPET_CHARS - 3] + "..."


def pattern_of(text):
    """TEXT with project names -> _ and unrelated numbers -> N, to group similar lines."""
    out = []
    for tok in TOKEN.findall(text.split("//")[0]):
        if re.match(r"^[A-Za-z_]", tok) and not KEEP_WORD.match(tok):
            tok = "_"
        elif re.match(r"^\d", tok):
            tok = tok.lower() if tok.rstrip("uUlL").lower() in KEEP_NUMBERS else "N"
        out.append(tok)
    return re.sub(r"(_ ?(\. ?|-> ?|:: ?)?)+_", "_", " ".join(out))


def top_patterns(items, label, limit):
    groups = collections.defaultdict(list)
    for item in items:
        groups[(label(item), pattern_of(item["snippet"]))].append(item)
    ranked = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:limit]
    return [{"label": lab, "pattern": pat, "count": len(group),
             "benchmarks": len({g["benchmark"] for g in group}),
             "example": "%s/%s:%d  %s" % (group[0]["benchmark"], group[0]["file"],
                                          group[0]["line"], group[0]["snippet"])}
            for (lab, pat), group in ranked]


def missed_patterns(entries, lines, limit):
    missed = [dict(e, snippet=e["cuda"]) for e in entries if not is_hit(e, lines, 0)]
    return top_patterns(missed, lambda e: "%s/%s" % (e["class"], e["tier"]), limit)


def false_positive_patterns(findings, truth_lines, corpus, limit):
    cache = {}
    wrong = [dict(f, snippet=source_line(corpus, f["benchmark"], f["file"], f["line"], cache))
             for f in findings if (f["benchmark"], f["file"], f["line"]) not in truth_lines]
    return top_patterns(wrong, lambda f: f["id"], limit)


# ---------------------------------------------------------------- report

def score(truth, reports, corpus):
    entries = [e for e in truth["lines"] if e["benchmark"] in reports]
    findings, modes = [], {}
    for name, report in sorted(reports.items()):
        findings += findings_of(name, report)
        modes.update(parse_modes_of(name, report))
    lines = finding_lines(findings)
    truth_lines = true_lines(findings, truth_keys(entries))
    paired = {(b, f) for b, files in truth.get("paired_files", {}).items() for f in files}
    in_paired = [f for f in findings if (f["benchmark"], f["file"]) in paired]
    return {
        "benchmarks": sorted(reports),
        "errors": {n: r["error"] for n, r in reports.items() if "error" in r},
        "recall": recall_row(entries, lines),
        "precision": precision_row(findings, truth_lines),
        "precision_paired_files": precision_row(in_paired, truth_lines),
        "per_class": grouped_recall(entries, lines, lambda e: e["class"], CLASSES),
        "per_check": per_check(findings, truth_lines),
        "per_parse_mode": grouped_recall(
            entries, lines, lambda e: modes.get((e["benchmark"], e["file"])) or "missing"),
        "per_benchmark": per_benchmark(sorted(reports), entries, findings, truth_lines),
        "missed_patterns": missed_patterns(entries, lines, 15),
        "false_positive_patterns": false_positive_patterns(findings, truth_lines, corpus, 10),
        "findings": sorted(findings, key=lambda f: (f["benchmark"], f["file"], f["line"], f["id"])),
    }


def percent(value):
    return "-" if value is None else "%.1f%%" % (100 * value)


def markdown_table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def recall_table(first, table):
    header = [first, "core", "hit", "recall", "core+ext", "hit", "recall", "recall +-1"]
    return markdown_table(header, [
        [name, r["core"]["truth"], r["core"]["hit"], percent(r["core"]["recall"]),
         r["all"]["truth"], r["all"]["hit"], percent(r["all"]["recall"]),
         percent(r["all"]["recall_pm1"])] for name, r in table.items()])


def pattern_table(first, patterns):
    return markdown_table([first, "count", "benchmarks", "example"], [
        [p["label"], p["count"], p["benchmarks"], "`%s`" % p["example"]] for p in patterns])


def benchmark_table(table):
    return markdown_table(["benchmark", "core", "hit", "core+ext", "hit", "findings", "true"], [
        [name, r["recall"]["core"]["truth"], r["recall"]["core"]["hit"],
         r["recall"]["all"]["truth"], r["recall"]["all"]["hit"],
         r["precision"]["findings"], r["precision"]["true"]] for name, r in table.items()])


def headline(result):
    def recall_line(title, r):
        return "- recall %s: %s (%d/%d), +-1 line: %s" % (
            title, percent(r["recall"]), r["hit"], r["truth"], percent(r["recall_pm1"]))

    def precision_text(p):
        return "%s (%d/%d)" % (percent(p["precision"]), p["true"], p["findings"])

    return "\n".join([
        recall_line("core", result["recall"]["core"]),
        recall_line("core+extended", result["recall"]["all"]),
        "- precision: %s findings on truth lines; in files with a HIP twin: %s" % (
            precision_text(result["precision"]), precision_text(result["precision_paired_files"]))])


def markdown(result):
    parts = [
        "## Wave64 checks against the dev truth set (%d benchmarks)" % len(result["benchmarks"]),
        headline(result),
        "### Per class", recall_table("class", result["per_class"]),
        "### Per parse mode", recall_table("mode", result["per_parse_mode"]),
        "### Per check", markdown_table(["check", "findings", "true", "precision"], [
            [i, r["findings"], r["true"], percent(r["precision"])]
            for i, r in result["per_check"].items()]),
        "### Per benchmark", benchmark_table(result["per_benchmark"]),
        "### Most common misses", pattern_table("class/tier", result["missed_patterns"]),
        "### Most common false positives", pattern_table("check",
                                                         result["false_positive_patterns"]),
    ]
    if result["errors"]:
        parts.append("### cu2dcu failures\n" + "\n".join(
            "- %s: %s" % (n, e) for n, e in sorted(result["errors"].items())))
    return "\n\n".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--truth", default=DEFAULT_TRUTH)
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--tool", default=DEFAULT_TOOL)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", nargs="+", metavar="NAME", help="score only these benchmarks")
    ap.add_argument("--all", action="store_true", help="run every benchmark of the corpus")
    ap.add_argument("--exclude", nargs="+", default=[], metavar="NAME",
                    help="leave these benchmarks out")
    ap.add_argument("--jobs", type=int, default=2, help="benchmarks run in parallel")
    args = ap.parse_args()
    with open(args.truth, encoding="utf-8") as f:
        truth = json.load(f)
    names = args.only or (benchmark_names(args.corpus) if args.all else truth["benchmarks"])
    names = [n for n in names if n not in args.exclude]
    reports = run_all(args.tool, args.corpus, names, args.jobs)
    result = score(truth, reports, args.corpus)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    write_json(args.out, result)
    print(markdown(result))
    return 1 if result["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
