#!/usr/bin/env python3
"""The CI recipes of docs/ci.md work as written: their cu2dcu lines, run
the way the CI system would run them, give what one run gives.

For the GitHub Actions matrix and for the GitLab `parallel:` job, it takes
every line of the recipe that calls cu2dcu, fills in the matrix variables,
and runs the shard lines once per shard. Each shard runs in a checkout of
its own, and the shard files are carried to the merge as artifacts are. The
merge line then runs on a checkout that holds a committed baseline and one
finding that is new against it. The test compares with a single run of the
same tree and baseline: the exit status, the output tree, the JSON report
(less timing fields) and SARIF report (less the command line), and the
Markdown summary.

  workflow_test.py --tool build/tool/main/cu2dcu --work build/testsuite/ci/workflow
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "testsuite", "bench"))
sys.path.insert(0, os.path.join(REPO, "testsuite", "lib"))
from pch_identical import tree_differences  # noqa: E402
from reuse_test import arguments, make_tree  # noqa: E402
from verdict import finish  # noqa: E402

NEW_FINDING = ("\nvoid added(cudaArray_t a) "
               "{ cudaArrayGetInfo(nullptr, nullptr, nullptr, a); }\n")


def recipe(kind):
    """The cu2dcu command lines of docs/ci.md's recipe for kind."""
    text = open(os.path.join(REPO, "docs", "ci.md")).read()
    block = text.split("<!-- ci-workflow: %s" % kind, 1)[1].split("```yaml", 1)[1].split("```", 1)[0]
    lines = [re.sub(r"^\s*(?:- )?(?:run: )?", "", l) for l in block.splitlines()
             if re.match(r"^\s*(?:- |run: )+cu2dcu ", l)]
    matrix = re.search(r"shard: \[([\d, ]+)\]", block)
    count = int(re.search(r"parallel: (\d+)", block).group(1)) if kind == "gitlab" else \
        len(matrix.group(1).split(","))
    return lines, count


def sh(line, cwd, env, tool):
    """Runs a recipe line in a shell, with cu2dcu on PATH as the CI has it."""
    env = dict(os.environ, **env)
    bindir = os.path.join(os.path.dirname(cwd), "bin")
    os.makedirs(bindir, exist_ok=True)
    link = os.path.join(bindir, "cu2dcu")
    if not os.path.exists(link):
        os.symlink(tool, link)
    env["PATH"] = bindir + os.pathsep + env["PATH"]
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True)


def checkout(work, name, tree):
    """A fresh checkout at one fixed path, as CI jobs get."""
    path = os.path.join(work, "checkout")
    if os.path.exists(path):
        shutil.rmtree(path)
    shutil.copytree(tree, path)
    return path


def comparable_json(path):
    r = json.load(open(path))
    r.pop("run")
    r["statistics"].pop("seconds")
    r["statistics"].pop("units")
    for f in r["files"]:
        f.pop("cpuSeconds")
    return r


def comparable_sarif(path):
    r = json.load(open(path))
    for run in r["runs"]:
        run.pop("invocations", None)
    return r


def compare(failures, kind, single, merged):
    if single["rc"] != merged["rc"]:
        failures.append("%s: the merge exits %d, a single run %d" % (kind, merged["rc"], single["rc"]))
    diff = tree_differences(single["out"], merged["out"])
    if diff:
        failures.append("%s: output differs in %s" % (kind, ", ".join(diff[:8])))
    if comparable_json(single["json"]) != comparable_json(merged["json"]):
        failures.append("%s: the JSON reports differ" % kind)
    if comparable_sarif(single["sarif"]) != comparable_sarif(merged["sarif"]):
        failures.append("%s: the SARIF reports differ" % kind)
    if open(single["summary"]).read() != open(merged["summary"]).read():
        failures.append("%s: the Markdown summaries differ" % kind)


def run_recipe(kind, tool, work, tree, failures):
    lines, count = recipe(kind)
    shard_lines = [l for l in lines if "--shard" in l]
    merge_lines = [l for l in lines if "merge-reports" in l]
    if len(shard_lines) != 1 or len(merge_lines) != 1 or count < 2:
        failures.append("%s: the recipe has %d shard and %d merge lines for %d jobs"
                        % (kind, len(shard_lines), len(merge_lines), count))
        return None
    artifacts = os.path.join(work, kind + "-artifacts")
    os.makedirs(artifacts)
    for k in range(1, count + 1):
        line = shard_lines[0].replace("${{ matrix.shard }}", str(k))
        co = checkout(work, "shard", tree)
        p = sh(line, co, {"CI_NODE_INDEX": str(k), "CI_NODE_TOTAL": str(count)}, tool)
        if p.returncode != 0:
            failures.append("%s shard %d: exit %d\n%s" % (kind, k, p.returncode, p.stderr[-2000:]))
            return None
        for f in glob.glob(os.path.join(co, "shard-*.json")):
            shutil.copy(f, artifacts)
    co = checkout(work, "merge", tree)
    summary = os.path.join(work, kind + "-summary.md")
    if kind == "github":  # download-artifact with merge-multiple into shards/
        shutil.copytree(artifacts, os.path.join(co, "shards"))
    else:
        for f in os.listdir(artifacts):
            shutil.copy(os.path.join(artifacts, f), co)
    p = sh(merge_lines[0], co, {"GITHUB_STEP_SUMMARY": summary}, tool)
    if p.returncode not in (0, 1):
        failures.append("%s merge: exit %d\n%s" % (kind, p.returncode, p.stderr[-2000:]))
        return None
    keep = os.path.join(work, kind + "-merged")
    shutil.copytree(co, keep)
    return {"rc": p.returncode, "out": os.path.join(keep, "hip"),
            "json": os.path.join(keep, "cu2dcu.json"), "sarif": os.path.join(keep, "cu2dcu.sarif"),
            "summary": summary if kind == "github" else os.path.join(keep, "summary.md")}


def single_run(tool, work, tree):
    co = checkout(work, "single", tree)
    summary = os.path.join(work, "single-summary.md")
    p = sh("cu2dcu src/ -o hip/ --json cu2dcu.json --sarif cu2dcu.sarif "
           "--baseline .cu2dcu-baseline.json --summary-md %s" % summary, co, {}, tool)
    keep = os.path.join(work, "single")
    shutil.copytree(co, keep)
    return {"rc": p.returncode, "out": os.path.join(keep, "hip"),
            "json": os.path.join(keep, "cu2dcu.json"),
            "sarif": os.path.join(keep, "cu2dcu.sarif"), "summary": summary}


def main():
    args, status = arguments(__doc__)
    if status is not None:
        return status
    work = os.path.abspath(args.work)
    if os.path.exists(work):
        shutil.rmtree(work)
    tree = os.path.join(work, "tree")
    make_tree(os.path.join(tree, "src"))
    tool = os.path.abspath(args.tool)
    # The committed baseline accepts today's findings; then a new one comes.
    p = sh("cu2dcu src/ --dry-run --fail-on=never --no-cache "
           "--write-baseline .cu2dcu-baseline.json", tree, {}, tool)
    failures = []
    if p.returncode != 0:
        failures.append("writing the baseline: exit %d\n%s" % (p.returncode, p.stderr[-2000:]))
    with open(os.path.join(tree, "src", "unit1.cu"), "a") as f:
        f.write(NEW_FINDING)
    single = single_run(tool, work, tree)
    if single["rc"] != 1 or "cudaArrayGetInfo" not in open(single["summary"]).read():
        failures.append("the single run does not fail the gate on the new finding")
    for kind in ("github", "gitlab"):
        merged = run_recipe(kind, tool, work, tree, failures)
        if merged:
            compare(failures, kind, single, merged)
    return finish(failures, "both recipes of docs/ci.md give a single run's output and reports")


if __name__ == "__main__":
    sys.exit(main())
