"""How the test scripts end: exit 0 pass, 1 fail, 77 skipped.

CTest counts 77 as skipped through SKIP_RETURN_CODE (never through
SKIP_REGULAR_EXPRESSION, which would also hide a failure printed beside the
skip). A test skips only when nothing failed. A missing hipcc is a skip on a
developer's machine and a failure under CI (the CI environment variable set,
as CI services do: CI=true).
"""
import os, shutil

SKIP = 77


def in_ci():
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def missing_hipcc(hipcc, failures):
    """True when hipcc (a path or a name on PATH) is not installed; the caller
    leaves out its hipcc step. Under CI this is also added to failures."""
    if hipcc and shutil.which(hipcc):
        return False
    if in_ci():
        failures.append("hipcc not installed")
    return True


def finish(failures, passed, skipped=None):
    """Prints the failures and returns 1; with none, prints "skipped: SKIPPED"
    and returns 77 when a part was left out, else "PASS PASSED" and 0."""
    for f in failures:
        print("FAIL:", f)
    if failures:
        return 1
    if skipped:
        print("skipped:", skipped)
        return SKIP
    print("PASS", passed)
    return 0
