"""Helpers shared by the report tests: run cu2dcu on the test tree and
normalise what changes between machines and runs (paths, versions, times)."""
import json, os, re, subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ASSETS = os.path.join(HERE, "..", "..", "tool", "report", "html")
TREE_ARGS = ["tree", "--dry-run", "--mode=lexical", "--mappings", "maps", "--hip-version", "5.2",
             "--docs-url", "https://example.invalid/docs/"]


def run_tool(tool, args, cwd=HERE):
    """Runs cu2dcu in cwd (the tests use relative paths); returns the process."""
    return subprocess.run([os.path.abspath(tool)] + args, cwd=cwd, capture_output=True, text=True,
                          env=dict(os.environ, CI="1"))


def normalise_text(text, tmp, version=None):
    text = text.replace(tmp, "<TMP>")
    text = text.replace(os.path.join(HERE, "tree"), "<ROOT>")
    text = re.sub(r"files in \d+\.\d+ s", "files in <SECONDS> s", text)
    text = re.sub(r"\(LLVM [0-9][0-9.a-z-]*\)", "(LLVM <LLVM>)", text)
    if version:
        text = text.replace("cu2dcu " + version, "cu2dcu <VERSION>")
    return text


def normalise_json_report(doc, tmp):
    doc["tool"]["version"] = "<VERSION>"
    doc["tool"]["llvmVersion"] = "<LLVM>"
    doc["statistics"]["seconds"] = 0
    text = json.dumps(doc, indent=2, sort_keys=True)
    return normalise_text(text, tmp) + "\n"


def normalise_html(text, tmp):
    """The page with its embedded data (the JSON report and the per-finding
    views) normalised as the JSON report is, one key per line."""
    begin = '<script type="application/json" id="report-data">'
    head, rest = text.split(begin, 1)
    data, tail = rest.split("</script>", 1)
    doc = json.loads(data)
    doc["report"]["tool"]["version"] = "<VERSION>"
    doc["report"]["tool"]["llvmVersion"] = "<LLVM>"
    doc["report"]["statistics"]["seconds"] = 0
    data = json.dumps(doc, indent=1, sort_keys=True).replace("<", "\\u003c")
    page = head + begin + data + "</script>" + tail
    # The style and script embedded as written in tool/report/html/ stand as
    # their placeholders (anything else stays, so that the comparison shows it).
    for placeholder, name in (("@STYLE@", "report.css"), ("@SCRIPT@", "report.js")):
        page = page.replace(read(os.path.join(ASSETS, name)), placeholder, 1)
    return normalise_text(page, tmp)


def normalise_sarif(doc, tmp):
    driver = doc["runs"][0]["tool"]["driver"]
    driver["version"] = driver["semanticVersion"] = "<VERSION>"
    # Rules come from docs/: keep the translator's own, whose pages this test
    # controls; W64-* pages come and go with the wave64 checks. CU2DCU-* rules
    # come first, so the results' ruleIndex values stay valid.
    driver["rules"] = [r for r in driver["rules"] if r["id"].startswith("CU2DCU-")]
    text = json.dumps(doc, indent=2, sort_keys=True)
    text = text.replace("file://" + os.path.join(HERE, "tree"), "file://<ROOT>")
    return normalise_text(text, tmp) + "\n"


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()
