#!/usr/bin/env python3
"""mappings/tools/verify_use.py can fail: with a copy of the maps where one
driver handle type is mapped to HIP's struct name instead of its handle
typedef (CUgraphNode -> hipGraphNode, an entry the verifier found wrong), the
calls that pass a CUgraphNode are new failures and the verifier exits 1; the
shipped maps of the same family pass against the known-failure list."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VERIFY = os.path.join(REPO, "mappings", "tools", "verify_use.py")
KNOWN = os.path.join(REPO, "mappings", "tools", "use_failures.txt")


def run(args, maps):
    cmd = [sys.executable, VERIFY, "--tool", args.tool, "--maps", maps, "--families", "driver",
           "--targets", "hip-6.4", "--check", KNOWN]
    return subprocess.run(cmd, capture_output=True, text=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    args = ap.parse_args()
    failures = []
    shipped = run(args, os.path.join(REPO, "mappings"))
    if shipped.returncode != 0:
        failures.append("the shipped driver map fails:\n" + shipped.stdout + shipped.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        maps = os.path.join(tmp, "mappings")
        shutil.copytree(os.path.join(REPO, "mappings"), maps)
        path = os.path.join(maps, "driver.yaml")
        with open(path) as f:
            text = f.read()
        good = "{cuda: CUgraphNode, hip: hipGraphNode_t, kind: type}"
        if good not in text:
            sys.exit("FAIL: driver.yaml has no line %s to break" % good)
        with open(path, "w") as f:
            f.write(text.replace(good, good.replace("hipGraphNode_t", "hipGraphNode")))
        broken = run(args, maps)
    if broken.returncode != 1 or "new failure: hip-6.4 cuGraphDestroyNode" not in broken.stdout:
        failures.append("a wrong handle type was not caught (exit %d):\n%s%s" % (
            broken.returncode, broken.stdout, broken.stderr))
    for f in failures:
        print("FAIL:", f)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
