#!/usr/bin/env python3
"""--in-place keeps an atomic FILE.cu2dcu-orig backup of every file it
changes, and --restore puts the backups back.

  in_place.py --tool build/tool/main/cu2dcu
"""
import argparse, os, re, sys, tempfile
from rlib import CUDA_SOURCE, Checker, files_under, leftovers, read, run, snapshot, text, write


def tree(tmp):
    src = os.path.join(tmp, "src")
    write(os.path.join(src, "main.cu"), CUDA_SOURCE, 0o640)
    write(os.path.join(src, "lib", "k.cuh"), CUDA_SOURCE, 0o600)
    write(os.path.join(src, "plain.cpp"), "int main() { return 0; }\n")
    write(os.path.join(src, "notes.txt"), "notes\n")
    write(os.path.join(src, "data.bin"), bytes(range(256)))
    return src


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    a = ap.parse_args()
    tool = os.path.abspath(a.tool)
    c = Checker("in-place")
    with tempfile.TemporaryDirectory() as tmp:
        src = tree(tmp)
        before = snapshot(src)
        originals = {f: read(os.path.join(src, f)) for f in files_under(src)}

        p = run([tool, src, "--in-place"])
        c.check(p.returncode == 0, "--in-place: exit %d\n%s" % (p.returncode, text(p)))
        changed = ["lib/k.cuh", "main.cu"]
        c.check(files_under(src) == sorted(files_under(src)) and
                sorted(f for f in files_under(src) if f.endswith(".cu2dcu-orig")) ==
                [f + ".cu2dcu-orig" for f in changed],
                "backups: %s" % files_under(src))
        for f in changed:
            c.check(read(os.path.join(src, f + ".cu2dcu-orig")) == originals[f],
                    "%s: the backup is not the original" % f)
            c.check(b"hipMalloc" in read(os.path.join(src, f)), "%s not translated in place" % f)
            c.check(os.stat(os.path.join(src, f)).st_mode == os.stat(
                os.path.join(src, f + ".cu2dcu-orig")).st_mode, "%s: mode not kept" % f)
            c.check(before[f][2] == os.stat(os.path.join(src, f)).st_mode & 0o7777,
                    "%s: mode changed" % f)
        for f in ["plain.cpp", "notes.txt", "data.bin"]:
            c.check(read(os.path.join(src, f)) == originals[f], "%s changed" % f)
        c.check(not leftovers(src), "temporaries left: %s" % leftovers(src))

        # A second run changes nothing and keeps the true originals.
        translated = {f: read(os.path.join(src, f)) for f in changed}
        p = run([tool, src, "--in-place"])
        c.check(p.returncode == 0, "second --in-place: exit %d\n%s" % (p.returncode, text(p)))
        for f in changed:
            c.check(read(os.path.join(src, f)) == translated[f], "%s changed on a second run" % f)
            c.check(read(os.path.join(src, f + ".cu2dcu-orig")) == originals[f],
                    "%s: a second run overwrote the backup" % f)

        # --restore brings the tree back exactly.
        p = run([tool, "--restore", src])
        c.check(p.returncode == 0 and "restored 2 file(s)" in text(p),
                "--restore: exit %d\n%s" % (p.returncode, text(p)))
        c.check(snapshot(src) == before, "the tree after --restore is not the original")
        p = run([tool, "--restore", src])
        c.check(p.returncode == 0 and "restored 0 file(s)" in text(p), "--restore twice")

        # A file whose backup exists (from an interrupted run) is refused.
        write(os.path.join(src, "main.cu.cu2dcu-orig"), "older original\n")
        p = run([tool, src, "--in-place"])
        c.check(p.returncode == 2 and re.search(r"main\.cu: backup .* exists already", text(p)),
                "existing backup: exit %d\n%s" % (p.returncode, text(p)))
        c.check(read(os.path.join(src, "main.cu")) == originals["main.cu"],
                "a file with an existing backup was changed")
        c.check(read(os.path.join(src, "main.cu.cu2dcu-orig")) == b"older original\n",
                "an existing backup was overwritten")
        run([tool, "--restore", src])  # puts "older original" back; then the real one
        write(os.path.join(src, "main.cu"), originals["main.cu"], 0o640)

        # A failed replace leaves the original and no backup.
        p = run([tool, src, "--in-place"], env={"CU2DCU_TEST_FAULT": "rename:EIO:/main.cu"})
        c.check(p.returncode == 2, "failed in-place write: exit %d\n%s" % (p.returncode, text(p)))
        c.check(read(os.path.join(src, "main.cu")) == originals["main.cu"],
                "a failed in-place write changed the file")
        c.check(not os.path.exists(os.path.join(src, "main.cu.cu2dcu-orig")),
                "a failed in-place write left a backup")
        c.check(not leftovers(src), "temporaries left: %s" % leftovers(src))
        run([tool, "--restore", src])

        # Usage errors.
        p = run([tool, src, "--in-place", "-o", os.path.join(tmp, "out")])
        c.check(p.returncode == 2 and "exclude each other" in text(p), "--in-place with -o")
        p = run([tool, "--restore"])
        c.check(p.returncode == 2, "--restore without inputs")
        # --dry-run with --in-place writes nothing.
        state = snapshot(src)
        p = run([tool, src, "--in-place", "--dry-run"])
        c.check(p.returncode == 0 and snapshot(src) == state, "--in-place --dry-run wrote")
    return c.report()


if __name__ == "__main__":
    sys.exit(main())
