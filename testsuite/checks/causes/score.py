#!/usr/bin/env python3
"""Scores the W64 checks on the cases written for issue 30's six causes.

  score.py --tool cu2dcu [--tool-arg ARG ...] --name NAME --json FILE

Runs precision.py on causes/tuning (the cases tuned against), causes/heldout
(the first held-out round, scored once and tuned against since),
causes/heldout2 (the second round, scored once, partly tuned against since)
and causes/heldout3 (the third, scored only once a piece of work is
finished), and records under NAME in FILE (kept, other names left as they
are): each set's summary, a table per cause (file N_*.cu is cause N) and
whether the goal holds (precision and recall >= 0.95 on the newest held-out
round).
"""
import argparse, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PRECISION = os.path.join(os.path.dirname(HERE), "precision.py")
CAUSES = {"1": "lane strides and per-lane splits", "2": "recognition by value, not name",
          "3": "host code", "4": "thread index used as data",
          "5": "consistent 32-lane groups", "6": "projects with their own AMD path"}
GOAL = 0.95
HALVES = ("tuning", "tuning9", "tuning10", "tuning11", "tuning12", "tuning13", "tuning14", "heldout", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6",
          "heldout7", "heldout8", "heldout9", "heldout10", "heldout11",
          "heldout12")  # the last is the unseen round


def score(tool, extra, half):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = [sys.executable, PRECISION, "--tool", tool, "--corpus", os.path.join(HERE, half),
               "--json", out, "--min-recall", "0", "--max-fp-rate", "1"]
        cmd += ["--tool-arg=" + a for a in extra]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if not os.path.exists(out):
            sys.exit("score: precision.py failed on %s:\n%s" % (half, p.stdout + p.stderr))
        with open(out) as f:
            return json.load(f)


def per_cause(result):
    table = {}
    for name, c in sorted(result["files"].items()):
        cause = name[1]
        row = table.setdefault(cause, {"cause": CAUSES.get(cause, "?"), "tp": 0, "fp": 0, "fn": 0})
        for k in ("tp", "fp", "fn"):
            row[k] += c[k]
    for row in table.values():
        row["precision"] = round(row["tp"] / (row["tp"] + row["fp"]), 3) if row["tp"] + row["fp"] else None
        row["recall"] = round(row["tp"] / (row["tp"] + row["fn"]), 3) if row["tp"] + row["fn"] else None
    return table


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--tool-arg", action="append", default=[])
    ap.add_argument("--name", required=True)
    ap.add_argument("--json", required=True)
    a = ap.parse_args()
    entry = {}
    for half in HALVES:
        r = score(a.tool, a.tool_arg, half)
        entry[half] = {"summary": r["summary"], "per_cause": per_cause(r),
                       "false_positives": r["false_positives"],
                       "false_negatives": r["false_negatives"]}
    held = entry[HALVES[-1]]["summary"]
    entry["goal"] = {"heldout_precision_and_recall_at_least": GOAL,
                     "met": (held["precision"] or 0) >= GOAL and (held["recall"] or 0) >= GOAL}
    data = {}
    if os.path.exists(a.json):
        with open(a.json) as f:
            data = json.load(f)
    data[a.name] = entry
    with open(a.json, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    for half in HALVES:
        s = entry[half]["summary"]
        print("%s %s: precision %s recall %s" % (a.name, half, s["precision"], s["recall"]))


if __name__ == "__main__":
    main()
