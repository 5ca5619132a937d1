#!/usr/bin/env python3
"""Without a CUDA toolkit (CUDA_PATH pointing nowhere, --cuda-path
/nonexistent, so /usr/local/cuda is not used either) the samples and the
golden inputs still translate, lexically, and the translated samples still
compile for gfx906 (hipcc --offload-arch=gfx906 -c).

  no_cuda.py --tool build/tool/main/cu2dcu --root .
"""
import argparse, os, re, shutil, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor
from rlib import Checker, files_under, missing_hipcc, read, run, text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--hipcc", default=shutil.which("hipcc"))
    a = ap.parse_args()
    tool, root = os.path.abspath(a.tool), os.path.abspath(a.root)
    c = Checker("no-cuda")
    env = {"CUDA_PATH": "/nonexistent"}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "samples")
        p = run([tool, os.path.join(root, "samples-cuda"), "-o", out, "--cuda-path", "/nonexistent",
                 "--fail-on=never"], env=env)
        log = text(p)
        c.check(p.returncode == 0, "samples: exit %d\n%s" % (p.returncode, log))
        c.check(re.search(r"parsed: 0 with the AST", log), "something was parsed:\n" + log)
        c.check(re.search(r"lexical: .*: no CUDA headers under /nonexistent \(--cuda-path\)", log),
                "the reason is not in the summary:\n" + log)
        sources = [f for f in files_under(out) if f.endswith(".cu")]
        c.check(len(sources) >= 4, "samples translated: %s" % sources)
        for f in sources:
            t = read(os.path.join(out, f)).decode()
            c.check("<<<" not in t and "cudaMalloc" not in t and "cuda_runtime.h" not in t,
                    "%s not fully translated" % f)

        # The golden inputs in one run (a process each costs more than the
        # translation): copied into a tree, so each keeps its own output.
        golden = os.path.join(root, "testsuite", "golden")
        gsrc, gout = os.path.join(tmp, "golden-src"), os.path.join(tmp, "golden")
        os.makedirs(gsrc)
        names = [n for n in sorted(os.listdir(golden))
                 if os.path.isfile(os.path.join(golden, n)) and os.path.exists(os.path.join(golden, n + ".expected"))]
        for name in names:
            shutil.copy(os.path.join(golden, name), gsrc)
        p = run([tool, gsrc, "-o", gout, "--cuda-path", "/nonexistent", "--fail-on=never", "--quiet"],
                env=env)
        c.check(p.returncode == 0, "golden inputs: exit %d\n%s" % (p.returncode, text(p)))
        missing = [n for n in names if not os.path.exists(os.path.join(gout, n))]
        c.check(len(names) >= 50 and not missing,
                "golden inputs: %d copied, not translated: %s" % (len(names), missing))

        if missing_hipcc(a.hipcc, c.failures):
            return c.report(skipped="hipcc not installed (the compile step)")

        def compile_one(f):
            path = os.path.join(out, f)
            needs = re.findall(r'#include <(hip\w+/\w+\.h)>', read(path).decode())
            for header in needs:
                probe = subprocess.run([a.hipcc, "-E", "-x", "hip", "-", "-o", os.devnull],
                                       input=("#include <%s>\n" % header).encode(),
                                       capture_output=True)
                if probe.returncode != 0:
                    return f, None, "skipped: %s not installed" % header
            cmd = [a.hipcc, "--offload-arch=gfx906", "-c", "-x", "hip", path, "-o",
                   os.path.join(tmp, os.path.basename(f) + ".o"), "-w"]
            r = subprocess.run(cmd, capture_output=True, text=True, cwd=os.path.dirname(path))
            return f, r.returncode, " ".join(cmd) + "\n" + r.stderr[-3000:]

        with ThreadPoolExecutor(2) as pool:
            for f, code, log in pool.map(compile_one, sources):
                if code is None:
                    print("%s: %s" % (f, log))
                    continue
                c.check(code == 0, "%s does not compile for gfx906:\n%s" % (f, log))
                if code == 0:
                    print("%s: compiles for gfx906" % f)
    return c.report()


if __name__ == "__main__":
    sys.exit(main())
