#!/usr/bin/env python3
"""Validates cu2dcu's JSON report against docs/report.schema.json (--which
json) or its SARIF against the SARIF 2.1.0 schema vendored here (--which
sarif), for three runs: the test tree, the CUDA samples in the default mode
with the shipped maps, and the hand-built fixture (fixes, whole-file and
outside-the-inputs findings). Also checks what a schema cannot: counts add
up, rule indexes and help links are right, every CU2DCU id is documented.

Needs python3-jsonschema (Debian) or the jsonschema module; when this python
lacks it and /usr/bin/python3 has it, the script re-runs itself there.
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import reportlib

try:
    import jsonschema
except ImportError:
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3") and \
            subprocess.run(["/usr/bin/python3", "-c", "import jsonschema"]).returncode == 0:
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    print("FAIL: the jsonschema module is missing (apt-get install python3-jsonschema)")
    sys.exit(1)

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
    return cond


def validate(doc, schema, validator_class, label):
    v = validator_class(schema)
    errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
    for e in errors[:20]:
        failures.append("%s: %s at /%s" % (label, e.message[:300],
                                           "/".join(str(p) for p in e.absolute_path)))
    return not errors


def documented_ids():
    text = reportlib.read(os.path.join(REPO, "docs", "findings.md"))
    return set(re.findall(r"^## (CU2DCU-[A-Z0-9-]+)\s*$", text, re.M))


def check_help(uri, rule_id, label):
    if rule_id.startswith("W64-"):
        check(uri.endswith("/checks/%s.md" % rule_id), "%s: helpUri of %s is %s" % (label, rule_id, uri))
    else:
        check(uri.endswith("/findings.md#%s" % rule_id.lower()),
              "%s: helpUri of %s is %s" % (label, rule_id, uri))
    check(re.match(r"^[a-z][a-z0-9+.-]*:", uri) is not None,
          "%s: helpUri %s is not an absolute URI" % (label, uri))


def check_json(doc, label):
    stats = doc["statistics"]
    check(stats["files"]["total"] == len(doc["files"]), label + ": files.total != len(files)")
    sev = [d["severity"] for d in doc["diagnostics"]]
    for level in ("error", "warning", "note"):
        check(stats["findings"][level] == sev.count(level), "%s: findings.%s" % (label, level))
    check(sum(c["count"] for c in stats["findingsByCheck"].values()) == len(sev),
          label + ": findingsByCheck does not add up")
    check(sum(stats["apiRenamesByFamily"].values()) == stats["apiRenames"],
          label + ": apiRenamesByFamily does not add up")
    check(sum(stats["apiRenamesByName"].values()) == stats["apiRenames"],
          label + ": apiRenamesByName does not add up")
    fps = [d["fingerprint"] for d in doc["diagnostics"]]
    check(len(fps) == len(set(fps)), label + ": fingerprints are not unique")
    for d in doc["diagnostics"]:
        check_help(d["helpUri"], d["id"], label)


def check_sarif(doc, label):
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    check(len(ids) == len(set(ids)), label + ": duplicate rules")
    for r in rules:
        check_help(r["helpUri"], r["id"], label)
        check(r["shortDescription"]["text"].strip() != "", label + ": empty description of " + r["id"])
    for want in documented_ids():
        check(want in ids, "%s: no rule for documented %s" % (label, want))
    for res in run["results"]:
        check(ids[res["ruleIndex"]] == res["ruleId"], "%s: ruleIndex of %s" % (label, res["ruleId"]))
        loc = res["locations"][0]["physicalLocation"]["artifactLocation"]
        if "index" in loc:
            art = run["artifacts"][loc["index"]]["location"]
            check(art["uri"] == loc["uri"], "%s: artifact index of %s" % (label, loc["uri"]))
    root = run["originalUriBaseIds"]["SRCROOT"]["uri"]
    check(root.startswith("file:///") and root.endswith("/"), label + ": SRCROOT " + root)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--fixture", required=True)
    ap.add_argument("--which", choices=["json", "sarif"], required=True)
    a = ap.parse_args()
    if a.which == "json":
        schema = json.loads(reportlib.read(os.path.join(REPO, "docs", "report.schema.json")))
        validator = jsonschema.Draft7Validator
        validator.check_schema(schema)
    else:
        schema = json.loads(reportlib.read(os.path.join(HERE, "sarif-schema-2.1.0.json")))
        validator = jsonschema.Draft4Validator
        validator.check_schema(schema)
    ext = "json" if a.which == "json" else "sarif"

    with tempfile.TemporaryDirectory() as tmp:
        docs = []
        # 1. The test tree, with a baseline so baseline states appear.
        base = os.path.join(tmp, "base.json")
        p = reportlib.run_tool(a.tool, reportlib.TREE_ARGS + ["--fail-on=never",
                                                              "--write-baseline", base])
        check(p.returncode == 0, "baseline run failed: " + p.stderr[-2000:])
        out = os.path.join(tmp, "tree." + ext)
        p = reportlib.run_tool(a.tool, reportlib.TREE_ARGS + ["--baseline", base,
                                                              "--max-warnings=3",
                                                              "--" + a.which, out])
        check(p.returncode in (0, 1), "tree run failed (%d): %s" % (p.returncode, p.stderr[-2000:]))
        docs.append(("tree", out))
        # 2. The samples as a user runs them: default mode, shipped maps. If
        # the shipped maps do not load at the moment, the test map stands in.
        samples = os.path.join(REPO, "samples-cuda")
        out = os.path.join(tmp, "samples." + ext)
        p = reportlib.run_tool(a.tool, [samples, "-o", os.path.join(tmp, "out"), "--fail-on=never",
                                        "-j", "2", "--" + a.which, out], cwd=tmp)
        if p.returncode == 2 and "API maps have errors" in p.stderr:
            print("note: the shipped maps do not load; the samples use the test map")
            p = reportlib.run_tool(a.tool, [samples, "-o", os.path.join(tmp, "out"),
                                            "--mappings", os.path.join(HERE, "maps"),
                                            "--fail-on=never", "--" + a.which, out], cwd=tmp)
        check(p.returncode == 0, "samples run failed (%d): %s" % (p.returncode, p.stderr[-2000:]))
        docs.append(("samples", out))
        # 3. The fixture.
        p = subprocess.run([a.fixture, tmp], capture_output=True, text=True)
        check(p.returncode == 0, "fixture failed: " + p.stderr)
        docs.append(("fixture", os.path.join(tmp, "fixture." + ext)))

        for label, path in docs:
            if not os.path.exists(path):
                failures.append("%s: no report written" % label)
                continue
            doc = json.loads(reportlib.read(path))
            if validate(doc, schema, validator, label) :
                (check_json if a.which == "json" else check_sarif)(doc, label)
            if label == "fixture":
                if a.which == "json":
                    fixes = [f for d in doc["diagnostics"] for f in d["fixes"]]
                    check(len(fixes) == 2 and any(f["applied"] for f in fixes),
                          "fixture: expected two fixes, one applied")
                else:
                    fixes = [f for r in doc["runs"][0]["results"] for f in r.get("fixes", [])]
                    check(len(fixes) == 2, "fixture: expected two SARIF fixes")
            if label == "tree":
                states = ([d["baseline"] for d in doc["diagnostics"]] if a.which == "json" else
                          [r["baselineState"] for r in doc["runs"][0]["results"]])
                check(states and all(s == "unchanged" for s in states),
                      "tree: every finding should be accepted by its own baseline: %s" % states)
            print("validated %s report of %s" % (a.which, label))

    # Every translator finding id in the source is documented.
    src = reportlib.read(os.path.join(REPO, "tool", "core", "CheckIds.h"))
    for cid in re.findall(r'"(CU2DCU-[A-Z0-9-]+)"', src):
        check(cid in documented_ids(), "docs/findings.md has no section for " + cid)

    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("PASS %s schema" % a.which)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
