#!/usr/bin/env python3
"""Guarantees, each checked on the samples and the golden inputs:

  guarantees.py --tool build/tool/main/cu2dcu --root . --check NAME

  input-untouched   the input tree is never modified (checksums and modes before
                    and after runs in every mode, failing runs included)
  deterministic     the output is byte-identical across runs (-j 2 twice) and
                    across -j 1 / -j 2
  idempotent        translating an already translated tree changes nothing
  modes             file modes are preserved (executable scripts, private headers)
  rerun             a run into an existing output leaves the files that hold
                    their translation already untouched (same inode and time,
                    so a build of the output stays up to date), and restores
                    the ones that differ in content, mode or kind
"""
import argparse, os, shutil, stat, sys, tempfile
from rlib import CUDA_SOURCE, Checker, files_under, read, run, snapshot, text, write


def make_tree(root, tmp):
    """A tree of the samples and golden inputs, with a few mode bits and kinds."""
    src = os.path.join(tmp, "src")
    shutil.copytree(os.path.join(root, "samples-cuda"), os.path.join(src, "samples"))
    golden = os.path.join(root, "testsuite", "golden")
    os.makedirs(os.path.join(src, "golden"))
    for name in sorted(os.listdir(golden)):
        p = os.path.join(golden, name)
        if os.path.isfile(p) and os.path.exists(p + ".expected"):
            shutil.copy2(p, os.path.join(src, "golden", name))
    write(os.path.join(src, "tools", "run.sh"), "#!/bin/sh\nexec ./vector_add\n", 0o755)
    write(os.path.join(src, "private", "secret.cuh"), CUDA_SOURCE, 0o600)
    write(os.path.join(src, "private", "group.cu"), CUDA_SOURCE, 0o640)
    write(os.path.join(src, "tools", "build.cu"), CUDA_SOURCE, 0o750)
    write(os.path.join(src, "data", "blob.bin"), bytes(range(256)) * 4, 0o444)
    return src


def translate(tool, src, out, *args, env=None):
    p = run([tool, src, "-o", out, "--fail-on=never"] + list(args), env=env, timeout=900)
    return p


def tree_equal(a, b):
    sa, sb = snapshot(a), snapshot(b)
    diff = sorted(k for k in set(sa) | set(sb) if sa.get(k) != sb.get(k))
    return diff


def input_untouched(tool, root, tmp, c):
    """Every mode and option that reads the input, each in as few runs as
    keep them apart: two runs parse with the AST (-j 2 with the options
    that change what is written, and --diff at -j 1), the others are
    lexical or fail early, so the test costs two AST translations of the
    tree instead of eight."""
    src = make_tree(root, tmp)
    before = snapshot(src)
    runs = [["-o", os.path.join(tmp, "out-ast"), "-j", "2", "--keep-launch-syntax", "--fix-wave64"],
            ["--diff", "-j", "1"],
            ["--dry-run", "--mode=lexical"],
            ["-o", os.path.join(tmp, "out-lexical"), "--mode=lexical"],
            ["-o", os.path.join(tmp, "out-no-cuda"), "--cuda-path", "/nonexistent"]]
    for args in runs:
        p = run([tool, src, "--fail-on=never"] + args, timeout=900)
        c.check(p.returncode in (0, 1), "%s: exit %d\n%s" % (args, p.returncode, text(p)[-2000:]))
        c.check(snapshot(src) == before, "the input changed after a run with %s" % args)
    # Failing runs: a write fault (the write stage is the same in either
    # mode), an output refused, a parse crash in every file.
    translate(tool, src, os.path.join(tmp, "outf"), "--mode=lexical",
              env={"CU2DCU_TEST_FAULT": "write:ENOSPC:"})
    run([tool, src, "-o", os.path.join(src, "out")])
    translate(tool, src, os.path.join(tmp, "outc"), env={"CU2DCU_TEST_FAULT": "parse:crash:"})
    after = snapshot(src)
    c.check(after == before, "the input changed: %s" % sorted(
        k for k in set(before) | set(after) if before.get(k) != after.get(k)))


def deterministic(tool, root, tmp, c):
    src = make_tree(root, tmp)
    outs = {}
    # Run to run at -j 2, where threads can reorder work, and against -j 1:
    # three AST translations of the tree (--no-cache: each one parses).
    for name, args in [("j1", ["-j", "1", "--no-cache"]), ("j2", ["-j", "2", "--no-cache"]),
                       ("j2again", ["-j", "2", "--no-cache"])]:
        out = os.path.join(tmp, name)
        p = translate(tool, src, out, *args)
        c.check(p.returncode in (0, 1), "%s: exit %d" % (name, p.returncode))
        outs[name] = out
    for name in ["j2", "j2again"]:
        diff = tree_equal(outs["j1"], outs[name])
        c.check(not diff, "output of %s differs from -j 1: %s" % (name, diff))
    # The lexical mode too (no parse at all).
    for name in ["lex1", "lex2"]:
        translate(tool, src, os.path.join(tmp, name), "--mode=lexical", "-j", name[-1])
    diff = tree_equal(os.path.join(tmp, "lex1"), os.path.join(tmp, "lex2"))
    c.check(not diff, "lexical output differs between -j 1 and -j 2: %s" % diff)


def idempotent(tool, root, tmp, c):
    src = make_tree(root, tmp)
    for mode in ["auto", "lexical"]:
        once = os.path.join(tmp, mode + "-once")
        twice = os.path.join(tmp, mode + "-twice")
        translate(tool, src, once, "--mode=" + mode)
        p = translate(tool, once, twice, "--mode=" + mode)
        c.check(p.returncode in (0, 1), "%s: second pass exit %d" % (mode, p.returncode))
        diff = tree_equal(once, twice)
        for f in diff[:5]:
            a, b = os.path.join(once, f), os.path.join(twice, f)
            if os.path.isfile(a) and os.path.isfile(b):
                import difflib
                print("".join(difflib.unified_diff(read(a).decode("utf-8", "replace").splitlines(True),
                                                   read(b).decode("utf-8", "replace").splitlines(True),
                                                   "once/" + f, "twice/" + f)))
        c.check(not diff, "%s: translating the translation changed %s" % (mode, diff))


def modes(tool, root, tmp, c):
    src = make_tree(root, tmp)
    out = os.path.join(tmp, "out")
    translate(tool, src, out)
    for f in files_under(src):
        a = stat.S_IMODE(os.lstat(os.path.join(src, f)).st_mode)
        b = stat.S_IMODE(os.lstat(os.path.join(out, f)).st_mode) if os.path.exists(
            os.path.join(out, f)) else None
        c.check(a == b, "%s: mode %o became %s" % (f, a, "missing" if b is None else "%o" % b))


def rerun(tool, root, tmp, c):
    src = make_tree(root, tmp)
    out = os.path.join(tmp, "out")
    translate(tool, src, out, "--no-cache")
    first = snapshot(out)
    files = sorted(f for f, (kind, _, _) in first.items() if kind == "file")
    edited, narrowed, linked = files[0], files[1], files[2]
    with open(os.path.join(out, edited), "ab") as f:
        f.write(b"// edited by hand\n")
    os.chmod(os.path.join(out, narrowed), 0o600)
    # A link to a file of the same bytes elsewhere: replaced by a file of
    # its own, and the file it pointed to is left alone.
    elsewhere = os.path.join(tmp, "elsewhere")
    shutil.copy2(os.path.join(out, linked), elsewhere)
    os.remove(os.path.join(out, linked))
    os.symlink(elsewhere, os.path.join(out, linked))
    stamps = {f: os.lstat(os.path.join(out, f)) for f in files}
    p = translate(tool, src, out, "--no-cache")
    c.check(p.returncode in (0, 1), "re-run: exit %d: %s" % (p.returncode, p.stderr[-2000:]))
    c.check(snapshot(out) == first, "re-run output differs from the first run: %s"
            % sorted(k for k in first if snapshot(out).get(k) != first[k]))
    c.check(read(elsewhere) == read(os.path.join(out, linked)) and os.path.isfile(elsewhere),
            "the file a replaced link pointed to changed")
    for f in files:
        now, was = os.lstat(os.path.join(out, f)), stamps[f]
        rewritten = (now.st_ino, now.st_mtime_ns) != (was.st_ino, was.st_mtime_ns)
        c.check(rewritten == (f in (edited, narrowed, linked)),
                "%s: %s" % (f, "rewritten though it held its translation" if rewritten
                            else "left as it was though it differed"))


CHECKS = {"input-untouched": input_untouched, "deterministic": deterministic,
          "idempotent": idempotent, "modes": modes, "rerun": rerun}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--root", required=True, help="the repository (samples-cuda, testsuite/golden)")
    ap.add_argument("--check", choices=sorted(CHECKS))
    a = ap.parse_args()
    status = 0
    for name in [a.check] if a.check else sorted(CHECKS):
        c = Checker("guarantee/" + name)
        with tempfile.TemporaryDirectory() as tmp:
            CHECKS[name](os.path.abspath(a.tool), os.path.abspath(a.root), tmp, c)
        status |= c.report()
    return status


if __name__ == "__main__":
    sys.exit(main())
