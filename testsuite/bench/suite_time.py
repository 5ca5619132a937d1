#!/usr/bin/env python3
"""Times the README's test command in its two parts and writes JSON: CTest in
build/ (wall and CPU seconds, each test's seconds, the slowest against its
timeout) and the sanitizer step (testsuite/robustness/sanitize.sh: its build
and its tests). Run by hand on an idle machine (it says the load it found);
not a test.

    python3 testsuite/bench/suite_time.py --out testsuite/results/suite-time.json
    python3 testsuite/bench/suite_time.py --fresh-asan ...   # build-asan from scratch, as CI
"""
import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TEST_LINE = re.compile(r"Test +#\d+: (\S+) \.+\**\s*(\w+(?: \w+)?)\s+([\d.]+) sec")
DEFAULT_TIMEOUT = 600  # scripts/test.sh's --timeout


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(command, cwd):
    """(exit status, output, wall seconds, CPU seconds of the command's processes)."""
    wall, cpu = time.time(), children_cpu()
    p = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors="replace")
    return p.returncode, p.stdout, time.time() - wall, children_cpu() - cpu


def timeouts(build):
    """Each test's TIMEOUT property (ctest --show-only=json-v1), else the default."""
    p = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, stdout=subprocess.PIPE,
                       text=True)
    found = {}
    for t in json.loads(p.stdout).get("tests", []):
        props = {x["name"]: x["value"] for x in t.get("properties", [])}
        found[t["name"]] = float(props.get("TIMEOUT", DEFAULT_TIMEOUT))
    return found


def ctest_part(build, jobs):
    rc, out, wall, cpu = timed(["ctest", "--timeout", str(DEFAULT_TIMEOUT), "-j", str(jobs)], build)
    limits = timeouts(build)
    tests = [{"name": n, "result": r, "seconds": float(s), "timeout": limits.get(n, DEFAULT_TIMEOUT),
              "timeout_ratio": round(limits.get(n, DEFAULT_TIMEOUT) / max(float(s), 0.01), 1)}
             for n, r, s in TEST_LINE.findall(out)]
    tests.sort(key=lambda t: -t["seconds"])
    summary = re.search(r"(\d+)% tests passed, (\d+) tests failed out of (\d+)", out)
    return {"exit": rc, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "tests": len(tests),
            "failed": [t["name"] for t in tests if t["result"] not in ("Passed", "Skipped")],
            "skipped": [t["name"] for t in tests if t["result"] == "Skipped"],
            "summary": summary.group(0) if summary else None,
            "slowest": tests[:10],
            "closest_to_timeout": min(tests, key=lambda t: t["timeout_ratio"], default=None)}


def sanitizer_part(fresh):
    if fresh:
        shutil.rmtree(os.path.join(REPO, "build-asan"), ignore_errors=True)
    rc, out, wall, cpu = timed(["bash", "testsuite/robustness/sanitize.sh"], REPO)
    m = re.search(r"sanitizer step: build (\d+) s, tests (\d+) s", out)
    passed = re.search(r"(\d+)% tests passed, (\d+) tests failed out of (\d+)", out)
    return {"exit": rc, "fresh_build": fresh, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "build_s": int(m.group(1)) if m else None, "tests_s": int(m.group(2)) if m else None,
            "summary": passed.group(0) if passed else None}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() + 1)  # as scripts/test.sh
    ap.add_argument("--fresh-asan", action="store_true")
    ap.add_argument("--skip-sanitizer", action="store_true")
    a = ap.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                            stdout=subprocess.PIPE, text=True).stdout.strip()
    result = {"commit": commit, "cores": os.cpu_count(), "jobs": a.jobs,
              "load_before": os.getloadavg(), "ci": os.environ.get("CI", "")}
    result["ctest"] = ctest_part(a.build, a.jobs)
    if not a.skip_sanitizer:
        result["sanitizer"] = sanitizer_part(a.fresh_asan)
    result["total_wall_s"] = round(result["ctest"]["wall_s"] +
                                   result.get("sanitizer", {}).get("wall_s", 0), 1)
    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    os.replace(tmp, a.out)
    print(json.dumps({k: v for k, v in result.items() if k != "ctest"}, indent=1))
    print("ctest: %s, wall %.0f s, cpu %.0f s" % (result["ctest"]["summary"],
                                                   result["ctest"]["wall_s"], result["ctest"]["cpu_s"]))
    return 0 if result["ctest"]["exit"] == 0 and result.get("sanitizer", {}).get("exit", 0) == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
