#!/usr/bin/env python3
"""The HTML report in a real headless Chromium: it renders, loads nothing from
outside the file, logs no console error, and its filters and details work.

  browser_test.py --tool cu2dcu --fixture cu2dcu-report-fixture
  browser_test.py --tool cu2dcu --screenshot docs/images/html-report.png [--input samples-cuda]

--corpus-benchmark DIR checks the report of a real benchmark (the dev corpus's
bh-cuda in CTest; skipped, exit 77, when the corpus is absent). A missing
chromium fails: scripts/install-deps.sh installs it. --screenshot only
writes a picture of the whole report of --input (default: samples-cuda,
translated with the shipped maps) with its first definition that has uses
folded under it (else its first finding) opened.
"""
import argparse, collections, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "testsuite", "lib"))
import cdp
import reportlib
from verdict import SKIP

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
    return cond


def visible_rows(page):
    return page.evaluate("document.querySelectorAll('tbody.finding:not([hidden])').length")


def set_filter(page, element, value):
    event = "input" if element == "f-text" else "change"
    page.evaluate("(function(){var e=document.getElementById(%s); e.value=%s;"
                  "e.dispatchEvent(new Event(%s));})()" % (
                      json.dumps(element), json.dumps(value), json.dumps(event)))


def reset(page):
    for element in ("f-check", "f-severity", "f-file", "f-text"):
        set_filter(page, element, "")


def check_page_health(page, url, label):
    check(page.errors == [], "%s: console errors: %s" % (label, page.errors))
    outside = [u for u in page.requests if u != url and not u.startswith("data:")]
    check(outside == [], "%s: the page loads other resources: %s" % (label, outside))
    check(page.evaluate("document.title") == "cu2dcu report", label + ": title")
    height = page.evaluate("document.getElementById('findings').getBoundingClientRect().height")
    check(height > 50, "%s: the findings section does not render (height %s)" % (label, height))
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    check(overflow <= 0, "%s: the page is %spx wider than the window" % (label, overflow))


def test_tree(browser, tool, tmp):
    html, js = os.path.join(tmp, "tree.html"), os.path.join(tmp, "tree.json")
    p = reportlib.run_tool(tool, reportlib.TREE_ARGS + ["--fail-on=never", "--html", html,
                                                        "--json", js])
    if not check(p.returncode == 0, "cu2dcu failed: " + p.stderr):
        return
    doc = json.load(open(js))
    diags = doc["diagnostics"]
    url = "file://" + html
    page = browser.open(url)
    check_page_health(page, url, "tree")

    total = len(diags)
    check(visible_rows(page) == total, "all %d findings shown at first, got %d" % (
        total, visible_rows(page)))
    check(page.evaluate("document.getElementById('f-count').textContent") ==
          "Showing %d of %d findings" % (total, total), "the counter")
    # Each filter alone, against the JSON report of the same run.
    for element, value, key in (("f-severity", "error", "severity"), ("f-severity", "note", "severity"),
                                ("f-check", "CU2DCU-UNMAPPED", "id"), ("f-file", "src/main.cu", "file")):
        reset(page)
        set_filter(page, element, value)
        want = sum(1 for d in diags if d[key] == value)
        got = visible_rows(page)
        check(got == want, "filter %s=%s shows %d rows, want %d" % (element, value, got, want))
    reset(page)
    set_filter(page, "f-text", "cudaArrayGetInfo")
    check(visible_rows(page) == 1, "text search shows %d rows" % visible_rows(page))
    # Filters combine; nothing left shows the "no match" line.
    reset(page)
    set_filter(page, "f-check", "CU2DCU-REMOVED")
    set_filter(page, "f-severity", "error")
    check(visible_rows(page) == 0, "combined filters should leave nothing")
    check(page.evaluate("!document.getElementById('no-match').hidden"), "no 'no match' line")
    reset(page)
    check(visible_rows(page) == total, "reset filters")
    check(page.evaluate("document.getElementById('no-match').hidden"), "'no match' line stays")

    # Details open on click: source with the finding's line and token marked,
    # and the HIP output with the changes marked.
    page.evaluate("document.querySelector('#finding-4 tr.row').click()")
    check(page.evaluate("!document.querySelector('#finding-4 tr.detail').hidden"),
          "clicking a finding opens its details")
    mark = page.evaluate("(document.querySelector('#finding-4 .src .hl .mark')||{}).textContent")
    check(mark == "cudaArrayGetInfo", "the finding's token is marked in the source: %r" % mark)
    ins = page.evaluate("Array.from(document.querySelectorAll('#finding-4 .out .ins'))"
                        ".map(e => e.textContent)")
    check("hipMemcpy" in ins, "the output pane marks the translated names: %s" % ins)
    page.evaluate("document.querySelector('#finding-4 tr.row').click()")
    check(page.evaluate("document.querySelector('#finding-4 tr.detail').hidden"),
          "a second click closes the details")
    page.evaluate("document.getElementById('expand-all').click()")
    check(page.evaluate("document.querySelectorAll('tr.detail:not([hidden])').length") == total,
          "expand all")
    page.evaluate("document.getElementById('collapse-all').click()")
    check(page.evaluate("document.querySelectorAll('tr.detail:not([hidden])').length") == 0,
          "collapse all")
    # The per-check table filters the findings.
    page.evaluate("document.querySelector('[data-filter-check=\"CU2DCU-UNSUPPORTED\"]').click()")
    check(page.evaluate("document.getElementById('f-check').value") == "CU2DCU-UNSUPPORTED" and
          visible_rows(page) == 1, "the per-check link filters the table")
    # Summary numbers are the JSON report's.
    st = doc["statistics"]
    for card, want in (("translated", st["files"]["translated"]), ("api", st["apiRenames"]),
                       ("launches", st["launchesRewritten"]), ("lines", st["linesChanged"]),
                       ("errors", st["findings"]["error"]), ("warnings", st["findings"]["warning"]),
                       ("unsupported", st["unsupportedUses"])):
        got = page.evaluate("document.querySelector('#sum-%s .n').textContent" % card)
        check(got == str(want), "summary card %s shows %s, want %s" % (card, got, want))
    links = page.evaluate("Array.from(document.querySelectorAll('tbody.finding a')).map(a => a.href)")
    check(all(l.startswith("https://example.invalid/docs/findings.md#cu2dcu-") for l in links),
          "check links: %s" % links)
    check(page.errors == [], "tree: console errors after interaction: %s" % page.errors)
    print("tree report: %d findings, filters, details and links work" % total)


def test_fixture(browser, fixture, tmp):
    p = subprocess.run([fixture, tmp], capture_output=True, text=True)
    if not check(p.returncode == 0, "fixture failed: " + p.stderr):
        return
    url = "file://" + os.path.join(tmp, "fixture.html")
    page = browser.open(url)
    check_page_health(page, url, "fixture")
    page.evaluate("document.getElementById('expand-all').click()")
    before = page.evaluate("Array.from(document.querySelectorAll('.fix-before .del'))"
                           ".map(e => e.textContent)")
    after = page.evaluate("Array.from(document.querySelectorAll('.fix-after .ins'))"
                          ".map(e => e.textContent)")
    check("unsigned" in before and "16" in before, "fix before-panes mark the replaced text: %s" % before)
    check("unsigned long long" in after and "warpSize / 2" in after,
          "fix after-panes mark the new text: %s" % after)
    applied = page.evaluate("document.querySelectorAll('.fix-title .applied').length")
    check(applied == 1, "one fix is marked applied, got %s" % applied)
    gate = page.evaluate("document.getElementById('gate').className")
    check(gate == "gate fail", "the fixture's gate fails (--fail-on=warning): %s" % gate)
    whole = page.evaluate("document.body.textContent.indexOf('about the whole file') >= 0")
    check(whole, "a whole-file finding says so")
    check(page.errors == [], "fixture: console errors after interaction: %s" % page.errors)
    print("fixture report: fixes shown before/after")


DEFINITIONS = os.path.join(REPO, "testsuite", "checks", "cases", "definition-sites.cu")


def test_review(browser, tool, tmp):
    """What a reviewer works through: wave64 findings first, a definition with
    its uses folded under it, counts by check and file, baseline states and
    fixes. Input: the definition-sites case as z.cu after the test tree's
    main.cu as a.cu (translator findings in the file that sorts first), with a
    baseline that accepts one finding."""
    project = os.path.join(tmp, "review")
    os.makedirs(project)
    for source, name in ((DEFINITIONS, "z.cu"), (os.path.join(HERE, "tree", "src", "main.cu"), "a.cu")):
        with open(source, encoding="utf-8") as f, open(os.path.join(project, name), "w") as g:
            g.write(f.read())
    js, html, base = (os.path.join(tmp, n) for n in ("d.json", "d.html", "base.json"))
    first = reportlib.run_tool(tool, [project, "--dry-run", "--fail-on=never",
                                      "--write-baseline", base, "--json", js])
    if not check(first.returncode == 0, "cu2dcu failed: " + first.stderr):
        return
    # Accept the first finding only: it is known, the others new.
    entries = json.load(open(base))
    known_print = json.load(open(js))["diagnostics"][0]["fingerprint"]
    entries["findings"] = [e for e in entries["findings"] if e["fingerprint"] == known_print]
    json.dump(entries, open(base, "w"))
    p = reportlib.run_tool(tool, [project, "--dry-run", "--fail-on=never", "--baseline", base,
                                  "--html", html, "--json", js])
    if not check(p.returncode == 0, "cu2dcu failed: " + p.stderr):
        return
    diags = json.load(open(js))["diagnostics"]
    page = browser.open("file://" + html)
    check(page.errors == [], "review: console errors: %s" % page.errors)
    order = page.evaluate("Array.from(document.querySelectorAll('tbody.finding'))"
                          ".map(t => t.dataset.check)")
    wave64 = [d for d in diags if d["id"].startswith("W64-")]
    check(0 < len(wave64) < len(diags) and not diags[0]["id"].startswith("W64-"),
          "the input has translator findings before the wave64 ones")
    check(all(c.startswith("W64-") for c in order[:len(wave64)]) and
          not any(c.startswith("W64-") for c in order[len(wave64):]),
          "wave64 findings come first: %s" % order)
    groups = page.evaluate("Array.from(document.querySelectorAll('tbody.group th'))"
                           ".map(e => e.textContent)")
    check(groups[:1] == ["Wavefront-64 findings (%d)" % len(wave64)], "group headers: %s" % groups)
    # Each definition: its uses badge and its folded uses, as in the JSON report.
    for i, d in enumerate(diags, 1):
        uses = sum(1 for r in d["related"] if r["id"])
        badge = page.evaluate("(document.querySelector('#finding-%d .uses')||{}).textContent" % i)
        items = page.evaluate("document.querySelectorAll('#finding-%d ul.related li').length" % i)
        want = None if not uses else "%d use%s" % (uses, "" if uses == 1 else "s")
        check(badge == want and items == len(d["related"]),
              "finding %d: badge %r and %d related, want %r and %d" % (
                  i, badge, items, want, len(d["related"])))
    check(sum(len(d["related"]) for d in diags) > 0, "the case has folded uses")
    # Baseline states, as in the JSON report.
    states = [page.evaluate("document.querySelector('#finding-%d .%s') !== null" % (i, badge))
              for i in range(1, len(diags) + 1) for badge in ("new", "known")]
    want = [d["baseline"] == state for d in diags for state in ("new", "unchanged")]
    check(states == want and want.count(True) == len(diags) and
          sum(d["baseline"] == "unchanged" for d in diags) == 1,
          "baseline badges %s, want %s" % (states, want))
    # What --fix-wave64 would change: the fix text per finding, and a filter.
    fixes = page.evaluate("Array.from(document.querySelectorAll('tbody.finding .fixtext'))"
                          ".map(e => e.textContent)")
    want_fixes = ["fix: " + d["fixes"][0]["replacement"] for d in diags if d["fixes"]]
    check(sorted(fixes) == sorted(want_fixes) and fixes, "fix badges %s, want %s" % (
        fixes, want_fixes))
    page.evaluate("(function(){var e=document.getElementById('f-fix'); e.checked=true;"
                  "e.dispatchEvent(new Event('change'));})()")
    check(visible_rows(page) == len(want_fixes), "'with a fix' shows %d rows, want %d" % (
        visible_rows(page), len(want_fixes)))
    page.evaluate("(function(){var e=document.getElementById('f-fix'); e.checked=false;"
                  "e.dispatchEvent(new Event('change'));})()")
    # Counts by check and by file; a file link filters the table.
    per_check = page.evaluate("Array.from(document.querySelectorAll('#counts-check tbody tr'))"
                              ".map(r => [r.cells[0].textContent, +r.cells[1].textContent])")
    want_checks = collections.Counter(d["id"] for d in diags)
    check(dict(per_check) == dict(want_checks), "counts by check %s, want %s" % (
        per_check, dict(want_checks)))
    check(per_check and per_check[0][0].startswith("W64-"), "wave64 checks counted first")
    page.evaluate("document.querySelector('#counts-file [data-filter-file=\"z.cu\"]').click()")
    in_z = sum(1 for d in diags if d["file"] == "z.cu")
    check(visible_rows(page) == in_z, "the file link shows the file's %d findings, got %d" % (
        in_z, visible_rows(page)))
    print("review report: %d findings, %d wave64 first, uses folded, baseline and fixes shown" % (
        len(diags), len(wave64)))


def test_corpus(browser, tool, tmp, benchmark):
    """A real benchmark's report: the page holds the JSON report of the same
    run unchanged, and its rendered DOM shows each finding of that report
    (check, severity, location, message, uses, fix), in review order."""
    js, html = os.path.join(tmp, "corpus.json"), os.path.join(tmp, "corpus.html")
    p = reportlib.run_tool(tool, [benchmark, "--dry-run", "--fail-on=never", "--json", js,
                                  "--html", html])
    if not check(p.returncode == 0, "cu2dcu failed on %s: %s" % (benchmark, p.stderr)):
        return
    doc = json.load(open(js))
    diags = doc["diagnostics"]
    check(diags and any(d["id"].startswith("W64-") for d in diags) and
          any(not d["id"].startswith("W64-") for d in diags) and
          any(d["fixes"] for d in diags) and any(d["related"] for d in diags),
          "%s has wave64 and translation findings, a fix and folded uses" % benchmark)
    url = "file://" + html
    page = browser.open(url)
    check_page_health(page, url, "corpus")
    embedded = page.evaluate("JSON.parse(document.getElementById('report-data').textContent)"
                             ".report")
    check(embedded == doc, "the page holds the JSON report of the same run")
    rendered = page.evaluate(
        "Array.from(document.querySelectorAll('tbody.finding')).map(t => ({"
        "id: t.id, check: t.dataset.check, severity: t.dataset.severity,"
        "location: t.querySelector('tr.row td:nth-child(3)').textContent,"
        "message: t.querySelector('tr.row td:nth-child(4)').firstChild.textContent,"
        "uses: (t.querySelector('.uses') || {}).textContent || null,"
        "fix: (t.querySelector('.fixtext') || {}).textContent || null,"
        "related: t.querySelectorAll('ul.related li').length}))")
    order = sorted(range(len(diags)), key=lambda i: not diags[i]["id"].startswith("W64-"))
    want = []
    for i in order:
        d = diags[i]
        uses = sum(1 for r in d["related"] if r["id"])
        want.append({"id": "finding-%d" % (i + 1), "check": d["id"], "severity": d["severity"],
                     "location": "%s:%d:%d" % (d["file"], d["line"], d["column"]) if d["line"]
                     else d["file"], "message": d["message"],
                     "uses": "%d use%s" % (uses, "" if uses == 1 else "s") if uses else None,
                     "fix": "%s: %s" % ("fixed" if d["fixes"][0]["applied"] else "fix",
                                        d["fixes"][0]["replacement"]) if d["fixes"] else None,
                     "related": len(d["related"])})
    check(rendered == want, "rendered findings %s, want %s" % (rendered, want))
    # Each folded use shows its source line, as the benchmark's file has it.
    for i, d in enumerate(diags, 1):
        shown = page.evaluate("Array.from(document.querySelectorAll('#finding-%d ul.related li "
                              "code')).map(c => c.textContent)" % i)
        lines = []
        for r in d["related"]:
            with open(os.path.join(benchmark, r["file"]), encoding="utf-8", errors="replace") as f:
                lines.append(f.read().split("\n")[r["line"] - 1].strip())
        check(shown == lines, "finding %d: related lines %s, want %s" % (i, shown, lines))
    # Each finding's source pane marks its line.
    for i, d in enumerate(diags, 1):
        if d["line"]:
            hl = page.evaluate("(document.querySelector('#finding-%d .src .hl .no')||{})"
                               ".textContent" % i)
            check(hl == str(d["line"]), "finding %d: source pane highlights line %s, want %d"
                  % (i, hl, d["line"]))
    print("corpus report (%s): %d findings rendered from the embedded JSON report" % (
        os.path.basename(benchmark), len(diags)))


def screenshot(browser, tool, tmp, input_dir, path):
    html = os.path.join(tmp, "report.html")
    args = [os.path.relpath(input_dir, REPO), "--dry-run", "--fail-on=never", "--html", html]
    p = reportlib.run_tool(tool, args, cwd=REPO)
    if p.returncode == 2 and "API maps have errors" in p.stderr:
        print("note: the shipped maps do not load; using the test map")
        p = reportlib.run_tool(tool, args + ["--mappings", os.path.join(HERE, "maps")], cwd=REPO)
    if p.returncode != 0:
        print("cu2dcu failed:", p.stderr)
        return 1
    page = browser.open("file://" + html)
    # The first definition with uses folded under it (else the first finding), opened.
    page.evaluate("(function(){var u=document.querySelector('tbody.finding .uses');"
                  "var r=u ? u.closest('tbody').querySelector('tr.row')"
                  " : document.querySelector('tbody.finding tr.row'); if(r) r.click();})()")
    page.screenshot(path, full_page=True)
    print("wrote", path, "errors:", page.errors)
    return 0 if not page.errors else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--fixture")
    ap.add_argument("--screenshot")
    ap.add_argument("--input", default=os.path.join(REPO, "samples-cuda"))
    ap.add_argument("--corpus-benchmark", metavar="DIR",
                    help="check only the report of this benchmark (skipped when it is absent)")
    a = ap.parse_args()
    if a.corpus_benchmark and not os.path.isdir(a.corpus_benchmark):
        print("skipped: no corpus benchmark %s" % a.corpus_benchmark)
        return SKIP
    try:
        browser = cdp.Browser(width=1400, height=1000)
    except cdp.Skip as e:
        # A missing browser is an error: scripts/install-deps.sh installs it.
        print("FAIL: %s (scripts/install-deps.sh installs chromium)" % e)
        return 1
    with tempfile.TemporaryDirectory() as tmp, browser:
        if a.screenshot:
            return screenshot(browser, a.tool, tmp, os.path.abspath(a.input),
                              os.path.abspath(a.screenshot))
        if a.corpus_benchmark:
            test_corpus(browser, a.tool, tmp, os.path.abspath(a.corpus_benchmark))
            return report_failures()
        test_tree(browser, a.tool, tmp)
        test_review(browser, a.tool, tmp)
        if a.fixture:
            test_fixture(browser, a.fixture, tmp)
    return report_failures()


def report_failures():
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("PASS browser")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
