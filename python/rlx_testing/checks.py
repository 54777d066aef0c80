"""Counting checks in the Python test scripts: `check` records one result
(printing the failures), `finish` prints "N passed, M failed", the last line
lit's tests end with, and exits non-zero if any check failed."""

import sys

_counts = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    if ok:
        _counts["passed"] += 1
    else:
        _counts["failed"] += 1
        print(f"FAIL {name}: {detail}")


def finish():
    print(f"{_counts['passed']} passed, {_counts['failed']} failed")
    sys.exit(1 if _counts["failed"] else 0)
