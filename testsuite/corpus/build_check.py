#!/usr/bin/env python3
"""Build check of the build-file translation on the HeCBench dev corpus.

For each sampled benchmark NAME (NAME-cuda/ and its hand-written NAME-hip/),
in a scratch root laid out as HeCBench is (ROOT/src/ holding links to every
corpus folder, so ../NAME-cuda and ${CMAKE_SOURCE_DIR}/src/NAME-cuda resolve):
  twin:        NAME-hip copied into ROOT/src;
  translated:  `cu2dcu NAME-cuda -o ROOT/src/NAME-cuda` (sources, Makefile
               and CMakeLists.txt translated by the tool itself);
then each is built, compile and link only (nothing is run), the corpus read
in place:
  make column  (both folders have a Makefile): `make`, hipcc for gfx906
               (the twin through HIPCC_COMPILE_FLAGS_APPEND);
  cmake column (both have a CMakeLists.txt, --cmake): ROOT/CMakeLists.txt
               includes cmake/hecbench-stub.cmake, a documented stand-in for
               HeCBench's add_hecbench_benchmark (its top-level CMake is not
               in the corpus), and adds src/NAME-MODEL; configured with the
               Debian HIP toolchain file for gfx906 and built. The twin and
               the translation go through the same stub.

Writes JSON (per benchmark: each outcome, the translation's findings, the
first error line of a failed step) and prints the counts: of the benchmarks
whose twin builds, how many translated ones build; for CMake also how many
configure. It also counts the translated CMakeLists.txt equal to the twin's
(comments and blank lines aside) over the whole corpus.
This is a measurement, not a test: exit 0 whatever it measured; 2 usage
error or missing tool; 77 corpus absent.
"""
import argparse, concurrent.futures, glob, json, os, re, shutil, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from hipbuild import TOOLCHAIN, build_env  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NOISE = re.compile(r"rocm_agent_enumerator|/sys/class/kfd|Traceback|^\s+File \"|^\s+\^|"
                   r"target_list|^\s*main\(\)|readFromKFD|FileNotFoundError|os\.listdir")


STUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cmake", "hecbench-stub.cmake")


def scratch_root(corpus, keep_out):
    """A temp dir whose src/ links to every corpus folder except keep_out."""
    root = tempfile.mkdtemp(prefix="cu2dcu-build-")
    os.mkdir(os.path.join(root, "src"))
    for entry in os.listdir(corpus):
        if entry != keep_out:
            os.symlink(os.path.join(corpus, entry), os.path.join(root, "src", entry))
    return root


def first_error(log):
    lines = [l for l in log.splitlines() if not NOISE.search(l)]
    for i, l in enumerate(lines):
        if l.startswith("CMake Error"):  # the message is on the lines after
            return " ".join(x.strip() for x in lines[i:i + 3])[:300]
    for l in lines:
        if re.search(r"error|Error|No rule|not found|undefined reference", l):
            return l.strip()[:300]
    return (lines[-1].strip()[:300] if lines else "")


SOURCE_ERROR = re.compile(r"\.(?:cu|cuh|h|hpp|hh|inl|c|cc|cpp|cxx)(?::\d+)+: (?:fatal )?error")


def failure_class(error):
    """'source' when the compiler rejects translated code (the source
    translator's part), else 'build' (flags, rules, linking: this part)."""
    return "source" if SOURCE_ERROR.search(error) else "build"


def step(cmd, timeout, env, cwd=None):
    """Runs one build command: {"ok", "error"} (the first error line)."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=build_env(env),
                           errors="replace", cwd=cwd)
        return {"ok": p.returncode == 0, "error": "" if p.returncode == 0 else first_error(p.stdout + p.stderr)}
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": "timeout after %ds" % timeout}


def make(folder, timeout, env=None):
    return step(["make", "-C", folder], timeout, env)


TOP = ("cmake_minimum_required(VERSION 3.21)\n"
       "project(hecbench_build_check LANGUAGES C CXX HIP)\n"
       "include(\"%s\")\n" % STUB)
# One CMake work place per thread: its source path is a fixed link to the
# current scratch root, so that a build folder copied from the thread's first
# configure (compiler checks done, the same for every benchmark) stays valid
# and each benchmark's configure skips them.
PLACES = os.path.join(tempfile.gettempdir(), "cu2dcu-cmake-%d-" % os.getpid())


def remove_cmake_places():
    for place in glob.glob(PLACES + "*"):
        shutil.rmtree(place, ignore_errors=True)


def configure_args(link, bld):
    return ["cmake", "-S", link, "-B", bld, "-DCMAKE_TOOLCHAIN_FILE=" + TOOLCHAIN,
            "-DCMAKE_HIP_ARCHITECTURES=gfx906", "-DCMAKE_BUILD_TYPE=Release"]


def cmake(root, folder, timeout):
    """Configures and builds ROOT/src/FOLDER through HeCBench's stand-in:
    {"configured", "ok", "error"}."""
    place = PLACES + str(threading.get_ident())
    link, bld, template = (os.path.join(place, p) for p in ("src", "bld", "template"))
    os.makedirs(place, exist_ok=True)
    if os.path.islink(link):
        os.unlink(link)
    os.symlink(root, link)
    if not os.path.isdir(template):
        # Configured where the benchmarks will be (the cache records its folder).
        with open(os.path.join(root, "CMakeLists.txt"), "w") as f:
            f.write(TOP)
        shutil.rmtree(bld, ignore_errors=True)
        first = step(configure_args(link, bld), timeout, None)
        if not first["ok"]:
            return {"configured": False, "ok": False, "error": "empty project: " + first["error"]}
        os.rename(bld, template)
    with open(os.path.join(root, "CMakeLists.txt"), "w") as f:
        f.write(TOP + "add_subdirectory(src/%s)\n" % folder)
    shutil.rmtree(bld, ignore_errors=True)
    shutil.copytree(template, bld, symlinks=True)
    configured = step(configure_args(link, bld), timeout, None)
    if not configured["ok"]:
        return {"configured": False, "ok": False, "error": configured["error"]}
    built = step(["cmake", "--build", bld], timeout, None)
    return {"configured": True, "ok": built["ok"], "error": built["error"]}


def columns(name, args):
    """The build columns that apply to NAME: both folders have the file."""
    has = lambda model, f: os.path.isfile(os.path.join(args.corpus, name + "-" + model, f))
    return {"make": not args.no_make and has("cuda", "Makefile") and has("hip", "Makefile"),
            "cmake": args.cmake and has("cuda", "CMakeLists.txt") and has("hip", "CMakeLists.txt")}


def build_columns(root, folder, cols, args, env=None):
    """CMake first (out of source), then make (in the folder)."""
    out = {}
    if cols["cmake"]:
        out["cmake"] = cmake(root, folder, args.timeout)
    if cols["make"]:
        out["make"] = make(os.path.join(root, "src", folder), args.timeout, env)
    return out


def check(name, args):
    corpus, cols = args.corpus, columns(name, args)
    result = {"name": name}
    root = scratch_root(corpus, name + "-hip")
    try:
        shutil.copytree(os.path.join(corpus, name + "-hip"), os.path.join(root, "src", name + "-hip"),
                        symlinks=True)
        # A twin that builds the CUDA folder's sources (frna: ../frna-cuda/main.c)
        # writes its objects there: a copy, so the corpus is never written.
        cuda = os.path.join(root, "src", name + "-cuda")
        if os.path.islink(cuda):
            os.unlink(cuda)
            shutil.copytree(os.path.join(corpus, name + "-cuda"), cuda, symlinks=True)
        env = dict(os.environ, HIPCC_COMPILE_FLAGS_APPEND="--offload-arch=gfx906")
        result["twin"] = build_columns(root, name + "-hip", cols, args, env)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    root = scratch_root(corpus, name + "-cuda")
    try:
        out, findings = os.path.join(root, "src", name + "-cuda"), os.path.join(root, "findings.json")
        maps = ["--mappings", args.maps] if args.maps else []
        p = subprocess.run([args.tool, os.path.join(corpus, name + "-cuda"), "-o", out, "--fail-on=never",
                            "--quiet", "--json", findings] + maps, capture_output=True, text=True)
        if not os.path.isdir(out) or not os.path.isfile(findings):
            failed = {"ok": False, "configured": False, "error": "cu2dcu failed: " + p.stderr[-300:]}
            result["translated"] = {c: dict(failed) for c, on in cols.items() if on}
            return result
        with open(findings) as f:
            result["findings"] = ["%(file)s:%(line)s: %(message)s" % d for d in json.load(f)["diagnostics"]
                                  if d["id"] == "CU2DCU-BUILD"]
        result["translated"] = build_columns(root, name + "-cuda", cols, args)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return result


def check_benchmark(name, corpus, tool, make=True, cmake=True, maps="", timeout=300):
    """One benchmark's build columns, for other runners (run_corpus.py):
    {"name", "twin": {"make"|"cmake": {"ok", "configured"?, "error"}},
    "translated": {...}, "findings": [CU2DCU-BUILD lines]}; a column is
    present where both folders have its build file. Safe from several
    threads; call remove_cmake_places() once at the end."""
    args = argparse.Namespace(corpus=corpus, tool=tool, maps=maps, cmake=cmake, no_make=not make,
                              timeout=timeout)
    return guarded(name, args)


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
            maps = ["--maps", os.path.join(args.maps, "buildfiles")] if args.maps else []
            subprocess.run([args.buildfiles, src, out] + maps, capture_output=True)
            compared += 1
            with open(out, errors="replace") as a, open(twin, errors="replace") as b:
                if significant_lines(a.read()) == significant_lines(b.read()):
                    equal += 1
                else:
                    differing.append(name)
    return {"compared": compared, "equal_to_twin": equal, "differing": differing}


def column_summary(results, col):
    """Of the benchmarks whose twin builds in this column, how many
    translated ones configure (CMake) and build, and why the others fail."""
    ran = [r for r in results if col in r.get("twin", {})]
    twin_ok = [r for r in ran if r["twin"][col]["ok"]]
    both_ok = [r for r in twin_ok if r["translated"][col]["ok"]]
    out = {"sampled": len(ran), "twin_builds": len(twin_ok),
           "translated_builds_where_twin_builds": len(both_ok),
           "rate": round(len(both_ok) / len(twin_ok), 4) if twin_ok else None,
           "translated_builds_total": sum(r["translated"][col]["ok"] for r in ran),
           "failures_where_twin_builds": {
               c: sum(1 for r in twin_ok if not r["translated"][col]["ok"]
                      and failure_class(r["translated"][col]["error"]) == c) for c in ("source", "build")}}
    if col == "cmake":
        out["twin_configures"] = sum(r["twin"][col]["configured"] for r in ran)
        out["translated_configures_where_twin_builds"] = sum(
            r["translated"][col]["configured"] for r in twin_ok)
    return out


def guarded(name, args):
    try:
        r = check(name, args)
    except Exception as e:  # a tool replaced mid-run, a full disk: recorded, not fatal
        failed = {"ok": False, "configured": False, "error": "check failed: %r" % e}
        r = {"name": name, "twin": {c: failed for c, on in columns(name, args).items() if on},
             "translated": {c: failed for c, on in columns(name, args).items() if on}}
    print("%-28s %s" % (name, "  ".join("%s twin %-5s translated %-5s" % (
        c, r["twin"][c]["ok"], r["translated"].get(c, {}).get("ok")) for c in sorted(r["twin"]))),
        flush=True)
    return r


def recorded(name, args):
    """guarded(), through args.records when given: an existing record is
    reused, a new one written atomically as soon as it is measured."""
    if not args.records:
        return guarded(name, args)
    path = os.path.join(args.records, name + ".json")
    if os.path.isfile(path):
        with open(path) as f:
            return json.load(f)
    r = guarded(name, args)
    os.makedirs(args.records, exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(r, f, indent=1, sort_keys=True)
    os.replace(path + ".tmp", path)
    return r


def merged_with_earlier(results, args):
    """The earlier run in args.out with the records of results put in."""
    with open(args.out) as f:
        earlier = json.load(f)
    by_name = {r["name"]: r for r in earlier["benchmarks"]}
    by_name.update((r["name"], r) for r in results)
    earlier["benchmarks"] = [by_name[n] for n in sorted(by_name)]
    return earlier


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=os.path.join(REPO, "..", "shared", "corpus", "hecbench"))
    ap.add_argument("--tool", default=os.path.join(REPO, "build", "tool", "main", "cu2dcu"))
    ap.add_argument("--buildfiles", default=os.path.join(REPO, "build", "tool", "buildfiles", "cu2dcu-buildfiles"))
    ap.add_argument("--maps", default="", help="mappings folder (default: the tool's)")
    ap.add_argument("--out", default=os.path.join(REPO, "testsuite", "results", "corpus", "build-dev.json"))
    ap.add_argument("--cmake", action="store_true", help="also the cmake column")
    ap.add_argument("--no-make", action="store_true", help="leave out the make column")
    ap.add_argument("--stride", type=int, default=1, help="take every STRIDE-th benchmark (sorted by name)")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--records", default="",
                    help="folder of one NAME.json per benchmark checked: a benchmark whose record is "
                         "there is not built again, so a long run can stop and resume")
    ap.add_argument("--update", action="store_true",
                    help="merge into --out: the benchmarks checked now replace their earlier records, "
                         "the others keep theirs, and the summary counts them all (summary.rerun "
                         "names what was checked again, with --note)")
    ap.add_argument("--note", default="", help="what the checked benchmarks were built with (the tool's "
                                                "commit), for summary.tool or summary.rerun")
    args = ap.parse_args()
    if not os.path.isdir(args.corpus):
        print("corpus absent:", args.corpus)
        return 77
    for t in (args.tool, args.buildfiles):
        if not os.access(t, os.X_OK):
            print("missing tool:", t)
            return 2
    if not all(shutil.which(t) for t in ["hipcc", "make"] + (["cmake"] if args.cmake else [])):
        print("hipcc, make or cmake missing")
        return 2
    names = sorted(e[:-5] for e in os.listdir(args.corpus) if e.endswith("-cuda"))
    names = [n for n in names if any(columns(n, args).values())]
    if args.only:
        names = [n for n in names if n in args.only]
    names = names[::args.stride]
    if args.limit:
        names = names[:args.limit]
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda n: recorded(n, args), names))
    remove_cmake_places()
    earlier = merged_with_earlier(results, args) if args.update else None
    rerun = [r["name"] for r in results]
    if earlier is not None:
        results = earlier["benchmarks"]
    summary = {"sampled": len(results), "stride": args.stride, "offload_arch": "gfx906",
               "seconds": round(time.time() - start),
               "columns": {c: column_summary(results, c) for c in ("make", "cmake")
                           if any(c in r["twin"] for r in results)},
               "cmake_equal_to_twin": compare_cmake(args)}
    if earlier is not None:
        summary["tool"] = earlier["summary"].get("tool", "")
        summary["seconds"] = earlier["summary"].get("seconds", 0)
        before = earlier["summary"].get("rerun", {})
        summary["rerun"] = {"benchmarks": sorted(set(before.get("benchmarks", [])) | set(rerun)),
                            "seconds": before.get("seconds", 0) + round(time.time() - start),
                            "tool": args.note}
    elif args.note:
        summary["tool"] = args.note
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"summary": summary, "benchmarks": results}, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "cmake_equal_to_twin"}, indent=1))
    print("CMake: %(equal_to_twin)d of %(compared)d translated CMakeLists.txt equal the twin's"
          % summary["cmake_equal_to_twin"])
    for r in results:
        for c, twin in r["twin"].items():
            if twin["ok"] and not r["translated"][c]["ok"]:
                print("FAILED %s (%s) %s: %s" % (c, failure_class(r["translated"][c]["error"]), r["name"],
                                                 r["translated"][c]["error"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
