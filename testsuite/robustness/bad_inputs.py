#!/usr/bin/env python3
"""Bad inputs: each gets a clear message, the documented exit code (0 ok,
1 findings, 2 usage/input error, 3 internal) and no partial output file.

  bad_inputs.py --tool build/tool/main/cu2dcu --case NAME
  bad_inputs.py --tool ... --list

Tests run as root, which reads unreadable files and writes into read-only
directories: real failures are made where the kernel can make them (a FIFO,
/proc/self/mem, a read-only or full tmpfs when mounting is allowed), and the
test-only CU2DCU_TEST_FAULT hook (docs/robustness.md) covers the rest.
"""
import argparse, os, re, subprocess, sys, tempfile, time
from rlib import (CUDA_SOURCE, Checker, can_mount, tmpfs, files_under, leftovers, read, run, snapshot,
                  text, write)

CASES = {}


def case(fn):
    CASES[fn.__name__.replace("_", "-")] = fn
    return fn


def expect(c, p, code, pattern, what):
    out = text(p)
    c.check(p.returncode == code, "%s: exit %d, expected %d:\n%s" % (what, p.returncode, code, out))
    if pattern:
        c.check(re.search(pattern, out), "%s: no message matching %r:\n%s" % (what, pattern, out))


def src_tree(tmp):
    src = os.path.join(tmp, "src")
    write(os.path.join(src, "main.cu"), CUDA_SOURCE)
    write(os.path.join(src, "notes.txt"), "not code\n")
    return src


@case
def missing_path(tool, tmp, c):
    out = os.path.join(tmp, "out")
    p = run([tool, os.path.join(tmp, "nowhere", "k.cu"), "-o", out])
    expect(c, p, 2, r"input '.*nowhere/k\.cu' does not exist", "missing input")
    c.check(not os.path.exists(out), "output created for a missing input")


@case
def unreadable_file(tool, tmp, c):
    # Root reads any file by permissions; /proc/self/mem read at offset 0
    # fails with EIO for any process, root included.
    src = src_tree(tmp)
    os.symlink("/proc/self/mem", os.path.join(src, "mem.cu"))
    out = os.path.join(tmp, "out")
    p = run([tool, src, "-o", out, "--quiet"])
    expect(c, p, 2, r"mem\.cu: cannot read: Input/output error", "unreadable file (/proc/self/mem)")
    c.check(not os.path.exists(os.path.join(out, "mem.cu")), "output written for an unreadable file")
    c.check(os.path.exists(os.path.join(out, "main.cu")), "readable files not translated")
    c.check(not leftovers(out), "temporaries left: %s" % leftovers(out))
    # The fault hook: a read error on an ordinary file.
    out2 = os.path.join(tmp, "out2")
    p = run([tool, src, "-o", out2, "--quiet"], env={"CU2DCU_TEST_FAULT": "read:EACCES:main.cu"})
    expect(c, p, 2, r"main\.cu: cannot read: Permission denied", "unreadable file (fault hook)")
    c.check(not os.path.exists(os.path.join(out2, "main.cu")), "output written for an unreadable file")


@case
def fifo(tool, tmp, c):
    src = src_tree(tmp)
    os.mkfifo(os.path.join(src, "pipe.cu"))
    out = os.path.join(tmp, "out")
    # Named on the command line: refused at once (opening it would block).
    p = run([tool, os.path.join(src, "pipe.cu"), "-o", os.path.join(tmp, "o.cu")], timeout=60)
    expect(c, p, 2, r"input '.*pipe\.cu' is not a regular file or directory", "FIFO input")
    # Inside a tree: skipped with a warning, the rest translated.
    p = run([tool, src, "-o", out], timeout=60)
    expect(c, p, 0, r"warning: skipped 'pipe\.cu': not a regular file", "FIFO in a tree")
    c.check(files_under(out) == ["main.cu", "notes.txt"], "tree output: %s" % files_under(out))


@case
def binary_file(tool, tmp, c):
    src = os.path.join(tmp, "src")
    blob = bytes(range(256)) * 64 + b"cudaMalloc(&p, 4);\n\x00k<<<1,1>>>();"
    write(os.path.join(src, "data.cu"), blob)           # a source name, binary content
    write(os.path.join(src, "logo.png"), bytes(reversed(blob)))
    write(os.path.join(src, "main.cu"), CUDA_SOURCE)
    out = os.path.join(tmp, "out")
    p = run([tool, src, "-o", out])
    expect(c, p, 0, r"1 translated, 0 unchanged, 2 copied, 0 failed", "binary files")
    c.check(read(os.path.join(out, "data.cu")) == blob, "binary .cu not copied byte for byte")
    c.check(read(os.path.join(out, "logo.png")) == bytes(reversed(blob)), "binary .png not copied")


@case
def invalid_utf8(tool, tmp, c):
    src = os.path.join(tmp, "src")
    data = (b"// caf\xe9 \xff\xfe comment\n" + CUDA_SOURCE.encode() +
            b'const char *s = "\xc3\x28 \xa0\xa1";\nint \xe9t\xe9 = 1;\n')
    write(os.path.join(src, "latin1.cu"), data)
    out = os.path.join(tmp, "out")
    p = run([tool, src, "-o", out])
    c.check(p.returncode in (0, 1), "invalid UTF-8: exit %d\n%s" % (p.returncode, text(p)))
    got = read(os.path.join(out, "latin1.cu"))
    c.check(b"hipMalloc(&device" in got and b"hipLaunchKernelGGL(scale" in got,
            "invalid UTF-8 file not translated:\n%r" % got[:400])
    for chunk in [b"// caf\xe9 \xff\xfe comment\n", b'"\xc3\x28 \xa0\xa1"', b"int \xe9t\xe9 = 1;"]:
        c.check(chunk in got, "bytes %r not kept" % chunk)


@case
def utf16(tool, tmp, c):
    src = os.path.join(tmp, "src")
    # A UTF-16 byte order mark before ASCII text: clang's SourceManager
    # rejects such text; the edit applier crashed on it (found by fuzzing).
    odd = b"\xfe\xff" + CUDA_SOURCE.encode()
    write(os.path.join(src, "bom16.cu"), odd)
    write(os.path.join(src, "bom16le.cu"), b"\xff\xfe" + CUDA_SOURCE.encode())
    # A real UTF-16 file holds NUL bytes: copied byte for byte.
    utf16 = CUDA_SOURCE.encode("utf-16")
    write(os.path.join(src, "wide.cu"), utf16)
    for mode in ["auto", "lexical"]:
        out = os.path.join(tmp, "out-" + mode)
        p = run([tool, src, "-o", out, "--mode=" + mode])
        c.check(p.returncode in (0, 1), "UTF-16 (%s): exit %d\n%s" % (mode, p.returncode, text(p)[-2000:]))
        c.check(files_under(out) == ["bom16.cu", "bom16le.cu", "wide.cu"], "outputs %s" % files_under(out))
        if os.path.exists(os.path.join(out, "wide.cu")):
            c.check(read(os.path.join(out, "wide.cu")) == utf16, "UTF-16 file not copied byte for byte")
        if os.path.exists(os.path.join(out, "bom16.cu")):
            c.check(read(os.path.join(out, "bom16.cu")).startswith(b"\xfe\xff"), "BOM bytes lost")


@case
def crlf_bom(tool, tmp, c):
    src = os.path.join(tmp, "src")
    data = b"\xef\xbb\xbf" + CUDA_SOURCE.replace("\n", "\r\n").encode() + \
        b"#include <cuda_runtime.h>\r\n"  # a duplicate include: its whole line goes
    write(os.path.join(src, "win.cu"), data)
    for mode in ["auto", "lexical"]:
        out = os.path.join(tmp, "out-" + mode)
        p = run([tool, src, "-o", out, "--mode=" + mode])
        expect(c, p, 0, None, "CRLF+BOM (%s)" % mode)
        got = read(os.path.join(out, "win.cu"))
        # cuda_runtime.h brings <math.h>, as CUDA's does; the BOM stays first.
        c.check(got.startswith(b"\xef\xbb\xbf#include <math.h>\r\n#include <hip/hip_runtime.h>\r\n"),
                "%s: BOM or first line lost: %r" % (mode, got[:60]))
        c.check(got.count(b"\n") == got.count(b"\r\n"), "%s: a bare LF appeared" % mode)
        c.check(got.count(b"#include <hip/hip_runtime.h>") == 1 and got.count(b"#include") == 2,
                "%s: duplicate include kept" % mode)
        c.check(b"hipLaunchKernelGGL(scale, (n + 63) / 64, 64, 0, 0, device, 2.0f);\r\n" in got,
                "%s: launch not translated:\n%r" % (mode, got))


@case
def huge_file(tool, tmp, c):
    # 20 MB: a generated table (what real 20 MB sources hold) and 15000
    # kernels with launches. Parsed with the AST within the CPU limit (20 s
    # here), or translated lexically after it: translated, bounded in time.
    import random
    random.seed(7)
    parts = ["#include <cuda_runtime.h>\n__device__ const float table[] = {\n"]
    size = 0
    while size < 18 * 1024 * 1024:
        line = ", ".join("%.6ff" % random.random() for _ in range(12)) + ",\n"
        parts.append(line)
        size += len(line)
    parts.append("};\n")
    i = 0
    while size < 20 * 1024 * 1024:
        s = ("__global__ void k%d(float *p) { p[threadIdx.x] = table[%d]; }\n"
             "void h%d(float *d) { k%d<<<1, 32>>>(d); cudaDeviceSynchronize(); }\n" % (i, i, i, i))
        parts.append(s)
        size += len(s)
        i += 1
    data = "".join(parts)
    src = os.path.join(tmp, "src")
    write(os.path.join(src, "huge.cu"), data)
    out = os.path.join(tmp, "out")
    start = time.time()
    p = run([tool, src, "-o", out, "--parse-timeout=20"], timeout=600)
    took = time.time() - start
    expect(c, p, 0, r"1 translated", "20 MB file")
    got = read(os.path.join(out, "huge.cu")).decode()
    c.check(got.count("hipLaunchKernelGGL(k") == i and "<<<" not in got,
            "20 MB file: %d of %d launches translated" % (got.count("hipLaunchKernelGGL(k"), i))
    c.check(got.count("hipDeviceSynchronize();") == i, "20 MB file: API calls not translated")
    c.check(got[got.index("{\n"):got.index("};\n")] == data[data.index("{\n"):data.index("};\n")],
            "20 MB file: the table changed")
    # The lexical pass alone is fast on it.
    start = time.time()
    p = run([tool, src, "-o", os.path.join(tmp, "out-lex"), "--mode=lexical"], timeout=600)
    lex = time.time() - start
    expect(c, p, 0, None, "20 MB file, lexical")
    print("20 MB file: %.1f s (auto), %.1f s (lexical)" % (took, lex))


@case
def unterminated(tool, tmp, c):
    src = os.path.join(tmp, "src")
    head = CUDA_SOURCE
    cases = {
        "comment.cu": head + "/* never closed\ncudaMalloc(&p, 4);\nk<<<1, 1>>>();\n",
        "string.cu": head + 'const char *s = "never closed;\ncudaFree(p);\n',
        "raw.cu": head + 'const char *r = R"x(never closed\ncudaFree(p);\n',
        "char.cu": head + "char c = 'x;\ncudaFree(p);\n",
        "launch.cu": head + "void g() { scale<<<1, 2 \n",
        "template.cu": head + "void g() { scale<Foo<int, 3><<<1, 2>>>(p); }\n",
    }
    for name, body in cases.items():
        write(os.path.join(src, name), body)
    for mode in ["auto", "lexical"]:
        out = os.path.join(tmp, "out-" + mode)
        p = run([tool, src, "-o", out, "--mode=" + mode], timeout=300)
        c.check(p.returncode in (0, 1), "unterminated (%s): exit %d\n%s" % (mode, p.returncode, text(p)))
        c.check(files_under(out) == sorted(cases), "unterminated (%s): outputs %s" % (mode, files_under(out)))
        for name, body in cases.items():
            got = read(os.path.join(out, name)).decode()
            c.check("hipMalloc(&device" in got, "%s (%s): code before the error not translated" % (name, mode))
        comment = read(os.path.join(out, "comment.cu")).decode()
        c.check(comment.endswith("/* never closed\ncudaMalloc(&p, 4);\nk<<<1, 1>>>();\n"),
                "text inside an unterminated comment changed (%s)" % mode)
        if mode == "auto":
            # clang recovers from it: the summary gives the first error of the recovered parse.
            c.check(re.search(r"recovered: .*comment\.cu.*: .*unterminated /\* comment", text(p)),
                    "the recovery reason is not the first clang error:\n" + text(p))
            # clang's own error tally must not reach the user: cu2dcu reports the errors.
            c.check("generated when compiling" not in text(p),
                    "clang's 'N errors generated' line leaked:\n" + text(p))


@case
def deep_nesting(tool, tmp, c):
    src = os.path.join(tmp, "src")
    depth = 20000
    macros = "\n".join("#define M%d (M%d + 1)" % (i, i - 1) for i in range(1, depth))
    write(os.path.join(src, "macros.cu"), CUDA_SOURCE + "#define M0 0\n" + macros +
          "\nint deep = M%d;\n" % (depth - 1))
    # Exponential expansion: 2^40 tokens if anything expanded it.
    expo = "\n".join("#define E%d E%d E%d" % (i, i - 1, i - 1) for i in range(1, 41))
    write(os.path.join(src, "expo.cu"), CUDA_SOURCE + "#define E0 x\n" + expo +
          "\nstatic int e = sizeof(E40);\n")
    write(os.path.join(src, "parens.cu"), CUDA_SOURCE + "int p = " + "(" * depth + "1" + ")" * depth +
          ";\nvoid g(float *d) { scale<<<" + "(" * 5000 + "1" + ")" * 5000 + ", 1>>>(d, 1.0f); }\n")
    write(os.path.join(src, "templates.cu"), CUDA_SOURCE +
          "template <int N> struct T { static const int v = T<N - 1>::v + 1; };\n"
          "template <> struct T<0> { static const int v = 0; };\nint t = T<100000>::v;\n")
    out = os.path.join(tmp, "out")
    start = time.time()
    p = run([tool, src, "-o", out, "--parse-timeout=5"], timeout=600)
    c.check(p.returncode in (0, 1), "deep nesting: exit %d\n%s" % (p.returncode, text(p)[-3000:]))
    c.check(files_under(out) == ["expo.cu", "macros.cu", "parens.cu", "templates.cu"],
            "deep nesting: outputs %s" % files_under(out))
    for name in files_under(out):
        c.check("hipMalloc(&device" in read(os.path.join(out, name)).decode(),
                "deep nesting: %s not translated" % name)
    c.check("hipLaunchKernelGGL(scale, " + "(" * 5000 in read(os.path.join(out, "parens.cu")).decode(),
            "deeply parenthesised launch not translated")
    print("deep nesting: %.1f s\n%s" % (time.time() - start,
          "\n".join(l for l in text(p).splitlines() if l.startswith("  lexical:"))))


@case
def symlink_loop(tool, tmp, c):
    src = src_tree(tmp)
    os.symlink("b.cu", os.path.join(src, "a.cu"))
    os.symlink("a.cu", os.path.join(src, "b.cu"))
    os.symlink("..", os.path.join(src, "up"))             # a directory cycle
    os.symlink("missing.cu", os.path.join(src, "dangling.cu"))
    os.symlink("main.cu", os.path.join(src, "alias.cu"))  # a link to a file: mirrored
    out = os.path.join(tmp, "out")
    p = run([tool, src, "-o", out], timeout=60)
    expect(c, p, 0, r"skipped 'a\.cu': symbolic link loop", "symlink loop in a tree")
    for pat in [r"skipped 'b\.cu': symbolic link loop", r"skipped 'up': symbolic link to a directory",
                r"skipped 'dangling\.cu': broken symbolic link"]:
        c.check(re.search(pat, text(p)), "no message %r:\n%s" % (pat, text(p)))
    c.check(files_under(out) == ["alias.cu", "main.cu", "notes.txt"], "outputs %s" % files_under(out))
    c.check(read(os.path.join(out, "alias.cu")) == read(os.path.join(out, "main.cu")),
            "a link to a file is not translated like the file")
    p = run([tool, os.path.join(src, "a.cu"), "-o", os.path.join(tmp, "o.cu")], timeout=60)
    expect(c, p, 2, r"input '.*a\.cu' cannot be resolved: symbolic link loop", "symlink loop input")


@case
def output_in_input(tool, tmp, c):
    src = src_tree(tmp)
    before = snapshot(src)
    main = os.path.join(src, "main.cu")
    for args, pattern, what in [
            ([src, "-o", src], r"is inside the input", "-o the input directory"),
            ([src, "-o", os.path.join(src, "out")], r"is inside the input", "-o inside the input"),
            ([src, "-o", os.path.join(src, ".")], r"is inside the input", "-o the input, spelled ."),
            ([main, "-o", main], r"is inside the input|would overwrite", "-o the input file"),
            ([main, "-o", src], r"would overwrite the input", "-o the input file's directory"),
            ([src, "-o", tmp], r"inside the output",
             "input inside the output")]:
        p = run([tool] + args)
        expect(c, p, 2, pattern, what)
    c.check(snapshot(src) == before, "the input tree changed")


@case
def readonly_output(tool, tmp, c):
    src = src_tree(tmp)
    # The fault hook: creating the output file fails as on a read-only mount.
    out = os.path.join(tmp, "out")
    p = run([tool, src, "-o", out], env={"CU2DCU_TEST_FAULT": "create:EROFS:"})
    expect(c, p, 2, r"failed: main\.cu: cannot create a file in .*: Read-only file system",
           "read-only output (fault hook)")
    c.check(files_under(out) == [], "files written to a read-only output: %s" % files_under(out))
    if not can_mount():
        print("note: mount not permitted: the read-only mount was not tried")
        return
    with tmpfs(os.path.join(tmp, "ro"), "ro,size=1m") as ro:
        p = run([tool, src, "-o", os.path.join(ro, "out")])
        expect(c, p, 2, r"Read-only file system", "read-only mount")
        p = run([tool, src, "-o", ro])
        expect(c, p, 2, r"Read-only file system", "read-only mount (existing directory)")
        c.check(files_under(ro) == [], "files on a read-only mount")


@case
def full_disk(tool, tmp, c):
    src = os.path.join(tmp, "src")
    big = CUDA_SOURCE + "// " + "x" * 200000 + "\n"
    write(os.path.join(src, "big.cu"), big)
    write(os.path.join(src, "small.cu"), CUDA_SOURCE)
    # The fault hook: half of big.cu is written, then ENOSPC.
    out = os.path.join(tmp, "out")
    p = run([tool, src, "-o", out], env={"CU2DCU_TEST_FAULT": "write:ENOSPC:big.cu"})
    expect(c, p, 2, r"failed: big\.cu: write failed: No space left on device", "full disk (fault hook)")
    c.check(files_under(out) == ["small.cu"], "after ENOSPC: %s" % files_under(out))
    if not can_mount():
        print("note: mount not permitted: the full tmpfs was not tried")
        return
    with tmpfs(os.path.join(tmp, "full"), "size=64k") as full:
        p = run([tool, src, "-o", os.path.join(full, "out")])
        expect(c, p, 2, r"failed: big\.cu: .*No space left on device", "full tmpfs")
        got = files_under(full)
        c.check(got in ([], ["out/small.cu"]), "partial output on a full disk: %s" % got)
        c.check(not leftovers(full), "temporaries left on a full disk: %s" % leftovers(full))


@case
def rename_failure(tool, tmp, c):
    src = src_tree(tmp)
    out = os.path.join(tmp, "out")
    write(os.path.join(out, "main.cu"), "previous output\n")
    p = run([tool, src, "-o", out], env={"CU2DCU_TEST_FAULT": "rename:EIO:main.cu"})
    expect(c, p, 2, r"failed: main\.cu: cannot rename into place: Input/output error", "rename fails")
    c.check(read(os.path.join(out, "main.cu")) == b"previous output\n",
            "a failed write changed the existing output file")
    c.check(not leftovers(out), "temporaries left: %s" % leftovers(out))


@case
def output_blocked(tool, tmp, c):
    src = os.path.join(tmp, "src")
    write(os.path.join(src, "sub", "k.cu"), CUDA_SOURCE)
    write(os.path.join(src, "top.cu"), CUDA_SOURCE)
    out = os.path.join(tmp, "out")
    write(os.path.join(out, "sub"), "a file where a directory must go\n")
    p = run([tool, src, "-o", out])
    expect(c, p, 2, r"failed: sub/k\.cu: cannot create directory", "a file blocks an output directory")
    c.check(os.path.exists(os.path.join(out, "top.cu")), "other files not written")
    p = run([tool, src, "-o", os.path.join(out, "sub")])
    expect(c, p, 2, r"exists and is not a directory", "-o names a file")


@case
def bad_map(tool, tmp, c):
    src = src_tree(tmp)
    out = os.path.join(tmp, "out")
    # A key that is a list: yaml-cpp threw, cu2dcu died with "internal
    # error" (found by fuzz-maps); now a load error.
    write(os.path.join(tmp, "list-key.yaml"), "family: x\nentries:\n- {[a, b]: c, cuda: x, kind: function}\n")
    p = run([tool, src, "-o", out, "--map", os.path.join(tmp, "list-key.yaml")])
    expect(c, p, 2, r"list-key\.yaml:3:4: error: malformed map: bad conversion", "map with a list key")
    write(os.path.join(tmp, "broken.yaml"), "family: [unclosed\n")
    p = run([tool, src, "-o", out, "--map", os.path.join(tmp, "broken.yaml")])
    expect(c, p, 2, r"broken\.yaml:\d+:\d+: error: ", "map that is not YAML")
    p = run([tool, src, "-o", out, "--map", os.path.join(tmp, "missing.yaml")])
    expect(c, p, 2, r"missing\.yaml.*cannot read map file", "missing map file")
    p = run([tool, src, "-o", out, "--map", tmp])
    expect(c, p, 2, r"error", "a directory as a map file")
    c.check(not os.path.exists(out), "output written although the maps have errors")


@case
def odd_names(tool, tmp, c):
    src = os.path.join(tmp, "src")
    names = ["with space.cu", "caf\udce9.cu", "-dash.cu", "semi;colon.cuh", "UPPER.CU"]
    for n in names:
        write(os.path.join(src, n), CUDA_SOURCE)
    write(os.path.join(src, "empty.cu"), "")
    out = os.path.join(tmp, "out")
    p = run([tool, src, "-o", out])
    expect(c, p, 0, None, "odd file names")
    got = sorted(os.fsencode(f) for f in files_under(out))
    c.check(got == sorted([os.fsencode(n) for n in names] + [b"empty.cu"]), "outputs %s" % got)
    c.check(read(os.path.join(out, "empty.cu")) == b"", "empty file not kept empty")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--case", choices=sorted(CASES))
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    if a.list:
        print("\n".join(sorted(CASES)))
        return 0
    names = [a.case] if a.case else sorted(CASES)
    status = 0
    for name in names:
        c = Checker("bad-input/" + name)
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "src")
            try:
                CASES[name](os.path.abspath(a.tool), tmp, c)
            except subprocess.TimeoutExpired as e:
                c.check(False, "%s: timed out (a hang): %s" % (name, e.cmd))
            if os.path.isdir(src):
                # Nothing is ever written into the input tree.
                c.check(not leftovers(src), "temporaries in the input: %s" % leftovers(src))
        status |= c.report()
    return status


if __name__ == "__main__":
    sys.exit(main())
