"""Helpers shared by the robustness tests (testsuite/robustness/*.py)."""
import contextlib, hashlib, os, shutil, stat, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from verdict import finish, missing_hipcc  # noqa: E402 (missing_hipcc: for the tests)

CUDA_SOURCE = """#include <cuda_runtime.h>

__global__ void scale(float *data, float factor) { data[threadIdx.x] *= factor; }

void run(float *host, int n) {
  float *device = nullptr;
  cudaMalloc(&device, n * sizeof(float));
  cudaMemcpy(device, host, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 63) / 64, 64>>>(device, 2.0f);
  cudaDeviceSynchronize();
  cudaFree(device);
}
"""


class Checker:
    """Collects failures; report() prints them and returns the exit status
    (testsuite/lib/verdict.py: 77 for a skip, only when nothing failed)."""

    def __init__(self, name):
        self.name = name
        self.failures = []

    def check(self, cond, what):
        if not cond:
            self.failures.append(what)
        return cond

    def report(self, skipped=None):
        return finish(self.failures, self.name, skipped)


def run(cmd, env=None, timeout=300, **kw):
    full_env = dict(os.environ)
    full_env.pop("CU2DCU_TEST_FAULT", None)
    if env:
        full_env.update(env)
    return subprocess.run(cmd, capture_output=True, timeout=timeout, env=full_env, **kw)


def text(p):
    """stdout+stderr of a CompletedProcess as text."""
    return (p.stdout + p.stderr).decode("utf-8", "replace")


def write(path, data, mode=None):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
    if mode is not None:
        os.chmod(path, mode)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def snapshot(root):
    """{relative path: (kind, sha256 or link target, mode)} of a tree, links not followed."""
    out = {}
    for d, dirs, files in os.walk(root):
        for name in dirs + files:
            p = os.path.join(d, name)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p), 0)
            elif stat.S_ISREG(st.st_mode):
                out[rel] = ("file", hashlib.sha256(read(p)).hexdigest(), stat.S_IMODE(st.st_mode))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", "", stat.S_IMODE(st.st_mode))
            else:
                out[rel] = ("special", "", stat.S_IMODE(st.st_mode))
    return out


def files_under(root):
    out = []
    for d, _, fs in os.walk(root):
        out += [os.path.relpath(os.path.join(d, f), root) for f in fs]
    return sorted(out)


def leftovers(root):
    """Temporary files of an atomic write left behind (must never happen)."""
    return [f for f in files_under(root) if ".cu2dcu-" in f and f.endswith(".tmp")]


def can_mount():
    """Whether this process may mount a tmpfs (root in a namespace that allows it)."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    d = tempfile.mkdtemp()
    try:
        ok = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", d],
                            capture_output=True).returncode == 0
        if ok:
            subprocess.run(["umount", d], capture_output=True)
        return ok
    finally:
        os.rmdir(d)


@contextlib.contextmanager
def tmpfs(path, options):
    """A tmpfs mounted at path (created) with mount options, unmounted after."""
    os.makedirs(path)
    subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", path], check=True)
    try:
        yield path
    finally:
        subprocess.run(["umount", path])
