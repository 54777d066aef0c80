"""Counting checks in the Python test scripts: `check` records one result
(printing the failures), `check_close` one comparison of arrays, `finish`
prints "N passed, M failed", the last line lit's tests end with, and exits
non-zero if any check failed."""

import sys

import numpy as np

_counts = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    if ok:
        _counts["passed"] += 1
    else:
        _counts["failed"] += 1
        print(f"FAIL {name}: {detail}")


def check_close(name, got, want, rtol, atol):
    """Records whether `got` has `want`'s shape and is within
    `atol + rtol * |want|` of it elementwise (numpy's allclose); the
    failure names the largest error or the shapes."""
    got, want = np.asarray(got), np.asarray(want)
    same = got.shape == want.shape
    ok = same and np.allclose(got, want, rtol=rtol, atol=atol)
    error = (np.abs(got.astype(np.float64) - want).max() if same and got.size
             else (got.shape, want.shape))
    check(name, ok, f"max error {error}")


def finish():
    print(f"{_counts['passed']} passed, {_counts['failed']} failed")
    sys.exit(1 if _counts["failed"] else 0)
