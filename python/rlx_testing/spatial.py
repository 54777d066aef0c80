"""Attribute text and PyTorch argument helpers for convolution and pooling
tests (convpool.py and grad_spatial.py)."""


def arr(values):
    """An rlx array attribute: [1, 2, 3]."""
    return "[" + ", ".join(str(v) for v in values) + "]"


def pairs(padding):
    """[lo0, hi0, lo1, hi1, ...] -> F.pad's (lo_last, hi_last, ..., lo0, hi0)."""
    out = []
    for i in reversed(range(0, len(padding), 2)):
        out += [padding[i], padding[i + 1]]
    return tuple(out)
