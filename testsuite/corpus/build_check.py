#!/usr/bin/env python3
"""Build check of the Makefile translation on the HeCBench dev corpus.

For each sampled benchmark NAME (NAME-cuda/ and its hand-written NAME-hip/,
both with a Makefile):
  twin:        copy NAME-hip into a scratch root beside links to every other
               corpus folder (twins include ../NAME-cuda/...), run `make`
               (hipcc, --offload-arch=gfx906 through HIPCC_COMPILE_FLAGS_APPEND);
  translated:  `cu2dcu NAME-cuda -o ROOT/NAME-cuda` (sources), then the
               Makefile replaced by `cu2dcu-buildfiles` output, run `make`.
Compile and link only; nothing is run. The corpus is read in place.

Writes JSON (per benchmark: both outcomes, the translation's changes and
findings, the first error line of a failed build) and prints the counts:
of the benchmarks whose twin builds, how many translated ones build. It also
translates every NAME-cuda/CMakeLists.txt and counts those equal to the
twin's (comments and blank lines aside): HeCBench's CMake function is not in
the corpus, so they cannot be configured here.
This is a measurement, not a test: exit 0 whatever it measured; 2 usage
error or missing tool; 77 corpus absent.
"""
import argparse, concurrent.futures, json, os, re, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from hipbuild import build_env  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NOISE = re.compile(r"rocm_agent_enumerator|/sys/class/kfd|Traceback|^\s+File \"|^\s+\^|"
                   r"target_list|^\s*main\(\)|readFromKFD|FileNotFoundError|os\.listdir")


def scratch_root(corpus, keep_out):
    """A temp dir with a link to every corpus folder except keep_out."""
    root = tempfile.mkdtemp(prefix="cu2dcu-build-")
    for entry in os.listdir(corpus):
        if entry != keep_out:
            os.symlink(os.path.join(corpus, entry), os.path.join(root, entry))
    return root


def first_error(log):
    lines = [l for l in log.splitlines() if not NOISE.search(l)]
    for l in lines:
        if re.search(r"error|Error|No rule|not found|undefined reference", l):
            return l.strip()[:300]
    return (lines[-1].strip()[:300] if lines else "")


SOURCE_ERROR = re.compile(r"\.(?:cu|cuh|h|hpp|hh|inl|c|cc|cpp|cxx)(?::\d+)+: (?:fatal )?error")


def failure_class(error):
    """'source' when the compiler rejects translated code (the source
    translator's part), else 'build' (flags, rules, linking: this part)."""
    return "source" if SOURCE_ERROR.search(error) else "build"


def make(folder, timeout, env=None):
    env = build_env(env)
    try:
        p = subprocess.run(["make", "-C", folder], capture_output=True, text=True,
                           timeout=timeout, env=env, errors="replace")
        return {"ok": p.returncode == 0, "error": "" if p.returncode == 0 else first_error(p.stdout + p.stderr)}
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": "timeout after %ds" % timeout}


def check(name, args):
    corpus = args.corpus
    result = {"name": name}
    root = scratch_root(corpus, name + "-hip")
    try:
        shutil.copytree(os.path.join(corpus, name + "-hip"), os.path.join(root, name + "-hip"), symlinks=True)
        env = dict(os.environ, HIPCC_COMPILE_FLAGS_APPEND="--offload-arch=gfx906")
        result["twin"] = make(os.path.join(root, name + "-hip"), args.timeout, env)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    root = scratch_root(corpus, name + "-cuda")
    try:
        out = os.path.join(root, name + "-cuda")
        p = subprocess.run([args.tool, os.path.join(corpus, name + "-cuda"), "-o", out,
                            "--fail-on=never", "--quiet"], capture_output=True, text=True)
        if not os.path.isdir(out):
            result["translated"] = {"ok": False, "error": "cu2dcu failed: " + p.stderr[-300:]}
            return result
        findings = os.path.join(root, "findings.txt")
        mk = os.path.join(out, "Makefile")
        maps = ["--maps", args.maps] if args.maps else []
        p = subprocess.run([args.buildfiles, os.path.join(corpus, name + "-cuda", "Makefile"), mk,
                            "--findings", findings] + maps, capture_output=True, text=True)
        summary = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ""
        m = re.match(r"(\d+) change", summary)
        result["changes"] = int(m.group(1)) if m else None
        if p.returncode != 0 or not os.path.exists(findings):
            result["translated"] = {"ok": False, "error": "cu2dcu-buildfiles failed: " + p.stderr[-300:]}
            return result
        with open(findings) as f:
            result["findings"] = [l.rstrip("\n") for l in f]
        result["translated"] = make(out, args.timeout)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return result


def significant_lines(text):
    """CMake lines that matter: no comment lines, blank lines or trailing blanks."""
    return [l.rstrip() for l in text.splitlines() if l.strip() and not l.lstrip().startswith("#")]


def compare_cmake(args):
    """Translates every NAME-cuda/CMakeLists.txt (no build: HeCBench's
    add_hecbench_benchmark lives in its top-level CMake, not in the corpus)
    and counts those equal to the hand-written NAME-hip/CMakeLists.txt."""
    compared, equal, differing = 0, 0, []
    with tempfile.TemporaryDirectory() as tmp:
        for entry in sorted(os.listdir(args.corpus)):
            name = entry[:-5]
            src = os.path.join(args.corpus, entry, "CMakeLists.txt")
            twin = os.path.join(args.corpus, name + "-hip", "CMakeLists.txt")
            if not entry.endswith("-cuda") or not os.path.isfile(src) or not os.path.isfile(twin):
                continue
            out = os.path.join(tmp, "CMakeLists.txt")
            maps = ["--maps", args.maps] if args.maps else []
            subprocess.run([args.buildfiles, src, out] + maps, capture_output=True)
            compared += 1
            with open(out, errors="replace") as a, open(twin, errors="replace") as b:
                if significant_lines(a.read()) == significant_lines(b.read()):
                    equal += 1
                else:
                    differing.append(name)
    return {"compared": compared, "equal_to_twin": equal, "differing": differing}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=os.path.join(REPO, "..", "shared", "corpus", "hecbench"))
    ap.add_argument("--tool", default=os.path.join(REPO, "build", "tool", "main", "cu2dcu"))
    ap.add_argument("--buildfiles", default=os.path.join(REPO, "build", "tool", "buildfiles", "cu2dcu-buildfiles"))
    ap.add_argument("--maps", default="", help="build maps folder (default: the tool's)")
    ap.add_argument("--out", default=os.path.join(REPO, "testsuite", "results", "corpus", "build-dev.json"))
    ap.add_argument("--stride", type=int, default=1, help="take every STRIDE-th benchmark (sorted by name)")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300)
    args = ap.parse_args()
    if not os.path.isdir(args.corpus):
        print("corpus absent:", args.corpus)
        return 77
    for t in (args.tool, args.buildfiles):
        if not os.access(t, os.X_OK):
            print("missing tool:", t)
            return 2
    if not shutil.which("hipcc") or not shutil.which("make"):
        print("hipcc or make missing")
        return 2
    names = sorted(e[:-5] for e in os.listdir(args.corpus) if e.endswith("-cuda")
                   and os.path.isfile(os.path.join(args.corpus, e, "Makefile"))
                   and os.path.isfile(os.path.join(args.corpus, e[:-5] + "-hip", "Makefile")))
    if args.only:
        names = [n for n in names if n in args.only]
    names = names[::args.stride]
    if args.limit:
        names = names[:args.limit]
    start = time.time()
    def guarded(name):
        try:
            r = check(name, args)
        except Exception as e:  # a tool replaced mid-run, a full disk: recorded, not fatal
            r = {"name": name, "twin": {"ok": False, "error": "check failed: %r" % e},
                 "translated": {"ok": False, "error": "check failed: %r" % e}}
        print("%-28s twin %-4s translated %s" % (name, r["twin"]["ok"], r["translated"]["ok"]),
              flush=True)
        return r
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(guarded, names))
    twin_ok = [r for r in results if r["twin"]["ok"]]
    both_ok = [r for r in twin_ok if r["translated"]["ok"]]
    summary = {
        "sampled": len(results), "stride": args.stride,
        "twin_builds": len(twin_ok),
        "translated_builds_where_twin_builds": len(both_ok),
        "rate": round(len(both_ok) / len(twin_ok), 4) if twin_ok else None,
        "translated_builds_total": sum(r["translated"]["ok"] for r in results),
        "failures_where_twin_builds": {
            c: sum(1 for r in twin_ok if not r["translated"]["ok"]
                   and failure_class(r["translated"]["error"]) == c) for c in ("source", "build")},
        "offload_arch": "gfx906", "seconds": round(time.time() - start),
    }
    summary["cmake"] = compare_cmake(args)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"summary": summary, "benchmarks": results}, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "cmake"}, indent=1))
    print("CMake: %(equal_to_twin)d of %(compared)d translated CMakeLists.txt equal the twin's" % summary["cmake"])
    for r in twin_ok:
        if not r["translated"]["ok"]:
            print("FAILED (%s) %s: %s" % (failure_class(r["translated"]["error"]), r["name"],
                                          r["translated"]["error"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
