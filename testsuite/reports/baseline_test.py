#!/usr/bin/env python3
"""--baseline / --write-baseline: a baseline accepts the findings it recorded
even after unrelated edits move them (lines inserted above, re-indentation),
but not a new finding, including a second copy of a known line.
"""
import argparse, json, os, shutil, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reportlib

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def shown(stderr):
    """The findings printed on stderr, as (file, line, id)."""
    out = []
    for line in stderr.splitlines():
        if line.endswith("]") and " [" in line and ": " in line and not line.startswith(" "):
            loc = line.split(": ")[0].split(":")
            out.append((loc[0], int(loc[1]) if len(loc) > 1 else 0, line.rsplit(" [", 1)[1][:-1]))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tree = os.path.join(tmp, "tree")
        shutil.copytree(os.path.join(reportlib.HERE, "tree"), tree)
        maps = os.path.join(reportlib.HERE, "maps")
        common = ["tree", "--dry-run", "--mode=lexical", "--mappings", maps]
        base = os.path.join(tmp, "baseline.json")

        p = reportlib.run_tool(a.tool, common + ["--write-baseline", base, "--fail-on=never"], cwd=tmp)
        check(p.returncode == 0, "--write-baseline run: exit %d\n%s" % (p.returncode, p.stderr))
        recorded = json.load(open(base))
        check(recorded.get("format") == "cu2dcu-baseline" and len(recorded["findings"]) == 4,
              "baseline should record the tree's 4 findings: %s" % recorded)

        # Unchanged tree: everything is known, nothing is shown, the gate passes.
        p = reportlib.run_tool(a.tool, common + ["--baseline", base, "--fail-on=note"], cwd=tmp)
        check(p.returncode == 0, "known findings must not fail: exit %d\n%s" % (p.returncode, p.stderr))
        check(shown(p.stderr) == [], "known findings must not be shown: %s" % shown(p.stderr))
        check("baseline: 4 known findings accepted" in p.stderr, "summary lacks the baseline line:\n" + p.stderr)
        # Without the baseline the same run fails.
        p = reportlib.run_tool(a.tool, common + ["--fail-on=note"], cwd=tmp)
        check(p.returncode == 1, "without --baseline the findings fail: exit %d" % p.returncode)

        # Unrelated edits: 3 lines above everything, re-indentation of a known line.
        main_cu = os.path.join(tree, "src", "main.cu")
        text = open(main_cu).read()
        text = "// Copyright header\n// added after the baseline\n\n" + text
        text = text.replace("  cudaThreadSynchronize();", "\t\tcudaThreadSynchronize();  ")
        # A new finding: a second call of the unsupported API, on a line of its own...
        text = text.replace("  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);",
                            "  cudaArrayGetInfo(nullptr, nullptr, nullptr, nullptr);\n"
                            "  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);")
        # ...and a second copy of a known line (same text: told apart by its index).
        text = text.replace("  cudaArrayGetInfo(nullptr, nullptr, nullptr, array);\n",
                            "  cudaArrayGetInfo(nullptr, nullptr, nullptr, array);\n" * 2)
        open(main_cu, "w").write(text)
        graph = os.path.join(tree, "src", "graph.cu")
        graph_text = open(graph).read()
        open(graph, "w").write("\n\n" + graph_text)

        report = os.path.join(tmp, "r.json")
        p = reportlib.run_tool(a.tool, common + ["--baseline", base, "--json", report], cwd=tmp)
        check(p.returncode == 1, "new errors must fail the default gate: exit %d\n%s" % (p.returncode, p.stderr))
        got = shown(p.stderr)
        check(sorted(got) == [("src/main.cu", 20, "CU2DCU-UNSUPPORTED"),
                              ("src/main.cu", 21, "CU2DCU-UNSUPPORTED")],
              "only the two new findings should be shown, got %s\n%s" % (got, p.stderr))
        doc = json.load(open(report))
        states = sorted((d["line"], d["id"], d["baseline"]) for d in doc["diagnostics"])
        check(states == [(8, "CU2DCU-HIP-VERSION", "unchanged"), (9, "CU2DCU-UNMAPPED", "unchanged"),
                         (17, "CU2DCU-REMOVED", "unchanged"), (19, "CU2DCU-UNSUPPORTED", "unchanged"),
                         (20, "CU2DCU-UNSUPPORTED", "new"), (21, "CU2DCU-UNSUPPORTED", "new")],
              "baseline states: %s" % states)
        check(doc["gate"]["failed"] and doc["gate"]["baseline"], "gate in the JSON report: %s" % doc["gate"])
        # The warnings are all known: --max-warnings=0 passes where errors are not gated.
        p = reportlib.run_tool(a.tool, common + ["--baseline", base, "--fail-on=never",
                                                 "--max-warnings=0"], cwd=tmp)
        check(p.returncode == 0, "known warnings must not count for --max-warnings: exit %d" % p.returncode)

        # Editing the finding's own line makes it new again.
        text = text.replace("cudaThreadSynchronize();", "cudaThreadSynchronize(); // still needed")
        open(main_cu, "w").write(text)
        p = reportlib.run_tool(a.tool, common + ["--baseline", base, "--fail-on=note"], cwd=tmp)
        check(("src/main.cu", 17, "CU2DCU-REMOVED") in shown(p.stderr),
              "an edited line is a new finding: %s" % shown(p.stderr))

        # A baseline that is not one is a usage error.
        bad = os.path.join(tmp, "bad.json")
        open(bad, "w").write('{"findings": []}')
        for path in (bad, os.path.join(tmp, "missing.json")):
            p = reportlib.run_tool(a.tool, common + ["--baseline", path], cwd=tmp)
            check(p.returncode == 2 and "baseline" in p.stderr,
                  "bad baseline %s: exit %d\n%s" % (path, p.returncode, p.stderr))

    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("PASS baseline")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
