"""Building a translated project with Debian's hipcc (make or CMake's HIP
language): shared by the build-file golden tests and the corpus build check."""
import atexit, os, shutil, subprocess, tempfile

from verdict import in_ci

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
# CMake's HIP language on Debian's packaging (docs/build-migration.md).
TOOLCHAIN = os.path.join(ROOT, "mappings", "buildfiles", "hip-toolchain.cmake")
# Debian's hipcc 5.2 runs /usr/bin/clang++-15, which then takes /usr/bin/lld
# (LLVM 14) for a -fgpu-rdc device link; -B points it at LLVM 15's own lld.
LLVM15_BIN = "/usr/lib/llvm-15/bin"


_scratch = []


def scratch_tmpdir():
    """A TMPDIR for build commands, removed when this process exits: clang 15
    leaves an empty folder there for every HIP compile of CMake's compiler-id
    source (CMakeHIPCompilerId-XXXXXX), which would pile up in /tmp."""
    if not _scratch:
        _scratch.append(tempfile.mkdtemp(prefix="cu2dcu-build-tmp-"))
        atexit.register(shutil.rmtree, _scratch[0], True)
    return _scratch[0]


def build_env(base=None):
    env = dict(base or os.environ)
    env["TMPDIR"] = scratch_tmpdir()
    if os.path.isdir(LLVM15_BIN):
        env["HIPCC_LINK_FLAGS_APPEND"] = "-B" + LLVM15_BIN
    return env


def missing_tools(tools, failures):
    """Why a build step is left out (some of tools not installed), or None;
    under CI a missing tool is also added to failures."""
    missing = [t for t in tools if not shutil.which(t)]
    if not missing:
        return None
    if in_ci():
        failures.append("not installed: " + " ".join(missing))
    return "build step (no %s)" % " ".join(missing)


def run(cmd, env, failures, cwd=None):
    """Runs a build command; a failure is added to failures with its output's tail."""
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, errors="replace")
    if p.returncode != 0:
        tail = "\n".join(l for l in (p.stdout + p.stderr).splitlines()
                         if "rocm_agent" not in l and "kfd" not in l)[-3000:]
        failures.append("%s failed (exit %d):\n%s" % (" ".join(cmd), p.returncode, tail))
    return p.returncode == 0
