# RUN: %oracle_python %s
# REQUIRES: torch
# reduce (sum/mean/max/min/prod) over single, multiple, negative and all
# axes, with and without keep_dim, rank 6, integers, zero-length axes;
# softmax and log_softmax over every axis, with inputs (+-1e4, -inf) that
# overflow a naive exp.
import numpy as np
import torch
from rlx_testing import Suite, elem_of, type_of, ttype

inf, nan = float("inf"), float("nan")
rng = np.random.default_rng(4)
s = Suite(fold=True)
# An n-term f32 sum is off by up to ~sqrt(n) ulp of the terms, not of the
# (possibly cancelled) result: atol 1e-5.
F32_SUM = (1e-5, 1e-5)


def reduce_ref(kind, axes, keep):
    def ref(x):
        dims = sorted(a % x.dim() for a in axes)
        if kind in ("sum", "mean"):
            return getattr(torch, kind)(x, dim=dims, keepdim=keep)
        if kind in ("max", "min"):
            return getattr(torch, "a" + kind)(x, dim=dims, keepdim=keep)
        for d in reversed(dims):  # prod
            x = torch.prod(x, dim=d, keepdim=keep)
        return x
    return ref


def reduce(name, kind, x, axes, keep=False, want=None):
    axes_n = [a % x.ndim for a in axes]
    shape = [1 if i in axes_n else d for i, d in enumerate(x.shape)
             if keep or i not in axes_n]
    out = ttype(shape, elem_of(x))
    tol = "exact" if kind in ("max", "min") else \
        F32_SUM if x.dtype == np.float32 and kind != "prod" else None
    ref = reduce_ref(kind, axes, keep) if want is None else lambda _x: want
    s.case(name, f"%r = rlx.reduce {kind} %a0 axes = {axes}"
           f"{' keep_dim' if keep else ''} : {type_of(x)} -> {out}", [x], ref,
           out=out, tol=tol)


x3 = rng.uniform(-1, 1, (3, 4, 5)).astype(np.float32)
xp = rng.uniform(0.5, 1.5, (3, 4, 5)).astype(np.float32)  # for prod
for kind in ("sum", "mean", "max", "min", "prod"):
    x = xp if kind == "prod" else x3
    reduce(f"{kind}_axis1", kind, x, [1])
    reduce(f"{kind}_axes02_keep", kind, x, [0, 2], keep=True)
    reduce(f"{kind}_neg_axis", kind, x, [-1])
    reduce(f"{kind}_neg_axes_keep", kind, x, [-3, -2], keep=True)
    reduce(f"{kind}_all", kind, x, [0, 1, 2])
    reduce(f"{kind}_all_keep", kind, x, [2, 0, 1], keep=True)
x6 = rng.uniform(-1, 1, (2, 3, 1, 4, 2, 3)).astype(np.float32)
reduce("sum_rank6", "sum", x6, [1, 3, 5])
reduce("max_rank6_keep", "max", x6, [0, 2, -1], keep=True)
reduce("mean_rank6_neg", "mean", x6, [-2, -5])
reduce("sum_size1_axis", "sum", x6, [2])
# Integers (exact; sums wrap like the type).
xi = rng.integers(-1000, 1000, (4, 6)).astype(np.int32)
xi[0, :2] = [2**31 - 1, 1]
reduce("sum_i32", "sum", xi, [1])
reduce("sum_i32_keep", "sum", xi, [0], keep=True)
reduce("max_i32", "max", xi, [-1])
reduce("min_i32_all", "min", xi, [0, 1])
reduce("max_i64", "max", xi.astype(np.int64) * 2**33, [0])
reduce("prod_i64", "prod", rng.integers(-9, 9, (3, 5)).astype(np.int64), [1])
reduce("min_i8", "min", rng.integers(-128, 127, (5, 3)).astype(np.int8), [0])
# A zero-length axis gives the identity (NaN for the mean).
empty = np.zeros((0, 3), np.float32)
for kind, v in (("sum", 0.0), ("mean", nan), ("max", -inf), ("min", inf),
                ("prod", 1.0)):
    reduce(f"{kind}_empty_axis", kind, empty, [0],
           want=np.full(3, v, np.float32))

# Softmax and log_softmax: each axis of a rank-3 input, a negative axis,
# large magnitudes, -inf (masked) entries, rank 1.
xs = (rng.standard_normal((3, 4, 5)) * 3).astype(np.float32)
big = (rng.standard_normal((4, 6)) * 1e4).astype(np.float32)
big[0] = [1e4, 1e4 - 1, -1e4, 0, 1e4, 5e3]
big[1] = [-1e4, -1e4 + 2, -1e4, -1e4 - 3, -1e4, -1e4 + 0.5]
masked = rng.standard_normal((2, 5)).astype(np.float32)
masked[0, [1, 3]] = -inf
# Probabilities are judged relative to their size (atol 1e-9, not 1e-6).
for op, ref in (("softmax", torch.softmax), ("log_softmax", torch.log_softmax)):
    cases = [(f"{op}_axis{a}", xs, a) for a in (0, 1, 2)]
    cases += [(f"{op}_axis_neg2", xs, -2), (f"{op}_large", big, -1),
              (f"{op}_large_axis0", big, 0), (f"{op}_masked", masked, 1),
              (f"{op}_rank1", xs[0, 0], 0)]
    for name, x, axis in cases:
        s.case(name, f"%r = rlx.{op} %a0 axis = {axis} : {type_of(x)}", [x],
               lambda t, axis=axis, ref=ref: ref(t, axis), out=type_of(x),
               tol=(1e-5, 1e-9) if op == "softmax" else None)
s.run()
