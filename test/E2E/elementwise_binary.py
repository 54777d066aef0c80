# RUN: %oracle_python %s
# REQUIRES: torch
# The 14 binary ops and 6 comparisons: numpy broadcasting ([2,1,4] x [3,1]),
# rank-0 operands, IEEE edge values (floats in f32, f64 and f16), integer
# arithmetic (division truncates, mod is fmod, results wrap), bit ops, and
# shifts by amounts outside [0, bitwidth).
import numpy as np
import torch
from rlx_testing import Suite, elem_of, type_of, ttype

inf, nan = float("inf"), float("nan")
rng = np.random.default_rng(1)
s = Suite(fold=True)


def binary(name, op, a, b, ref, out_elem=None, tol=None):
    shape = np.broadcast_shapes(a.shape, b.shape)
    out = ttype(shape, out_elem or elem_of(a))
    s.case(name, f"%r = rlx.{op} %a0, %a1 : ({type_of(a)}, {type_of(b)}) "
           f"-> {out}", [a, b], ref, out=out, tol=tol)


def f32(*values):
    return np.array(values, np.float32)


def fmod(a, b):
    return torch.fmod(a, b)


def pairs(*ab):
    """Two f32 vectors from (lhs, rhs) pairs."""
    return f32(*[p[0] for p in ab]), f32(*[p[1] for p in ab])


FLOAT_OPS = {
    "add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div,
    "max": torch.maximum, "min": torch.minimum, "pow": torch.pow,
    "mod": fmod, "atan2": torch.atan2,
}
# Edge pairs per op: signed zeros, infinities, NaN, overflow.
EDGES = {
    "add": pairs((1.5, -2.25), (inf, -inf), (inf, 1), (nan, 1), (3e38, 3e38),
                 (-0.0, 0.0)),
    "sub": pairs((1.5, -2.25), (inf, inf), (-inf, 1), (1, nan), (-3e38, 3e38),
                 (0.0, 0.0)),
    "mul": pairs((1.5, -2.25), (inf, 0), (-inf, -2), (nan, 0), (1e30, 1e30),
                 (-0.0, 5)),
    "div": pairs((1, 0), (-1, 0), (0, 0), (1, -0.0), (inf, inf), (1, inf),
                 (nan, 1), (1e30, 1e-30), (7, 2)),
    "max": pairs((nan, 1), (1, nan), (-inf, 3), (inf, -inf), (-2, -3)),
    "min": pairs((nan, 1), (1, nan), (-inf, 3), (inf, -inf), (-2, -3)),
    "pow": pairs((-2, 3), (-2, 2), (-2, 0.5), (0, 0), (0, -1), (inf, 0),
                 (nan, 0), (1, nan), (2, 200), (2, -200), (4, 0.5), (-8, -1),
                 (1.5, inf), (0.5, inf), (-inf, 3), (9, -0.5), (nan, 2)),
    "mod": pairs((7, 3), (-7, 3), (7, -3), (-7, -3), (5.5, 2), (-5.5, 2),
                 (1, 0), (inf, 2), (5, inf), (-0.0, 3), (1e30, 3), (nan, 2)),
    "atan2": pairs((0, -1), (-0.0, -1), (0, 0), (0, -0.0), (1, inf),
                   (inf, inf), (-inf, -inf), (1, 0), (-1, 0), (nan, 1),
                   (3, -4), (-3, -4)),
}
for op, ref in FLOAT_OPS.items():
    a = rng.uniform(-4, 4, (2, 1, 4)).astype(np.float32)
    b = rng.uniform(-4, 4, (3, 1)).astype(np.float32)
    if op == "pow":
        a = np.abs(a) + 0.1
    for dt in (np.float32, np.float64, np.float16):
        e = elem_of(np.zeros(0, dt))
        with np.errstate(over="ignore"):
            binary(f"{op}_{e}_bcast", op, a.astype(dt), b.astype(dt), ref)
            binary(f"{op}_{e}_edges", op, *[v.astype(dt) for v in EDGES[op]],
                   ref)

# Rank-0 operands, alone or with a rank-2 one.
x0, y0 = f32(2.5).reshape(()), f32(-1.25).reshape(())
m = rng.standard_normal((3, 4)).astype(np.float32)
binary("add_f32_rank0_lhs", "add", x0, m, torch.add)
binary("sub_f32_rank0_rhs", "sub", m, y0, torch.sub)
binary("mul_f32_rank0_both", "mul", x0, y0, torch.mul)
binary("div_f32_rank0_rank1", "div", m[0], x0, torch.div)

# Integers. Division truncates toward zero and mod is C's fmod (the sign of
# the dividend); divisors are nonzero. Results wrap to the type.
def trunc_div(a, b):
    return torch.div(a, b, rounding_mode="trunc")


INT_OPS = {"add": torch.add, "sub": torch.sub, "mul": torch.mul,
           "div": trunc_div, "mod": fmod, "max": torch.maximum,
           "min": torch.minimum, "bit_and": torch.bitwise_and,
           "bit_or": torch.bitwise_or, "bit_xor": torch.bitwise_xor}
a = rng.integers(-100, 100, (2, 1, 4)).astype(np.int32)
a[0, 0, :] = [7, -7, 2**31 - 1, -2**31]
b = np.array([[3], [-3], [-9]], np.int32)
for op, ref in INT_OPS.items():
    binary(f"{op}_i32_bcast", op, a, b, ref)
big = np.array([2**40 + 7, -(2**40) - 7, 2**62, -5, 9], np.int64)
div = np.array([3, 3, -7, 2, -4], np.int64)
for op in ("add", "mul", "div", "mod", "max"):
    binary(f"{op}_i64", op, big, div, INT_OPS[op])
i8a = np.array([100, -100, 127, -128, 5, -7], np.int8)
i8b = np.array([100, -100, 1, 3, -2, 2], np.int8)
for op in ("add", "sub", "div", "mod", "min"):
    binary(f"{op}_i8", op, i8a, i8b, INT_OPS[op])


# Integer division never traps: x / 0 = 0, x % 0 = x, INT_MIN / -1 = INT_MIN
# and INT_MIN % -1 = 0 (a == (a / b) * b + a % b in wrapping arithmetic),
# in every integer type, folded or compiled.
def defined_division(a, b, remainder):
    """The rule in Python integers, wrapped to the type."""
    a, b = np.broadcast_arrays(a.numpy(), b.numpy())
    bits = np.iinfo(a.dtype).bits
    out = []
    for x, y in zip(a.ravel().tolist(), b.ravel().tolist()):
        if y == 0:
            out.append(x if remainder else 0)
            continue
        q = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
        v = x - q * y if remainder else q
        out.append((v + 2 ** (bits - 1)) % 2 ** bits - 2 ** (bits - 1))
    return np.array(out, a.dtype).reshape(a.shape)


def defined_div(a, b):
    return defined_division(a, b, remainder=False)


def defined_mod(a, b):
    return defined_division(a, b, remainder=True)


for dt in (np.int8, np.int16, np.int32, np.int64):
    lo, hi = np.iinfo(dt).min, np.iinfo(dt).max
    num = np.array([7, -7, 0, lo, lo, hi, lo, -1, 5], dt)
    den = np.array([0, 0, 0, -1, 0, -1, 1, lo, -2], dt)
    bits = np.iinfo(dt).bits
    binary(f"div_by_zero_i{bits}", "div", num, den, defined_div, tol="exact")
    binary(f"mod_by_zero_i{bits}", "mod", num, den, defined_mod, tol="exact")
    # A zero divisor broadcast against a row.
    binary(f"div_by_zero_bcast_i{bits}", "div", num.reshape(1, -1),
           np.array([[0], [-1]], dt), defined_div, tol="exact")
    binary(f"mod_by_zero_bcast_i{bits}", "mod", num.reshape(1, -1),
           np.array([[0], [-1]], dt), defined_mod, tol="exact")
bools_a = np.array([[False], [True]])
bools_b = np.array([False, True, True])
for op in ("bit_and", "bit_or", "bit_xor"):
    binary(f"{op}_i1_bcast", op, bools_a, bools_b, INT_OPS[op])


# Shifts: amounts outside [0, bitwidth) give 0 (shl) or the sign fill (shr).
def shl_ref(bits):
    def ref(x, n):
        x, n = np.broadcast_arrays(x.numpy(), n.numpy())
        ok = (n >= 0) & (n < bits)
        shifted = (x.astype(np.uint64) << np.where(ok, n, 0).astype(np.uint64))
        return np.where(ok, shifted.view(np.int64), 0)
    return ref


def shr_ref(bits):
    def ref(x, n):
        x, n = np.broadcast_arrays(x.numpy(), n.numpy())
        ok = (n >= 0) & (n < bits)
        return np.where(ok, x >> np.where(ok, n, 0), np.where(x < 0, -1, 0))
    return ref


for dt, bits in ((np.int8, 8), (np.int32, 32), (np.int64, 64)):
    x = np.array([[1], [-1], [-100], [np.iinfo(dt).max], [np.iinfo(dt).min],
                  [37]], dt)
    n = np.array([0, 1, 3, bits - 1, bits, bits + 5, -1, -bits], dt)
    binary(f"shl_i{bits}", "shl", x, n, shl_ref(bits))
    binary(f"shr_i{bits}", "shr", x, n, shr_ref(bits))

# Comparisons give i1. Floats compare ordered except ne (true for NaN).
CMPS = {"eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le,
        "gt": torch.gt, "ge": torch.ge}
fa = f32(1, 2, nan, -inf, 0.0, -0.0, 3, nan).reshape(2, 1, 4)
fb = f32(2, nan, -0.0).reshape(3, 1)
ia = np.array([-5, 0, 7, 2**31 - 1], np.int32).reshape(1, 4)
ib = np.array([[-5], [7], [-2**31]], np.int32)
for op, ref in CMPS.items():
    binary(f"{op}_f32_bcast", op, fa, fb, ref, out_elem="i1")
    binary(f"{op}_i32_bcast", op, ia, ib, ref, out_elem="i1")
    binary(f"{op}_i1", op, bools_a, bools_b, ref, out_elem="i1")
binary("lt_f32_rank0", "lt", x0, m, torch.lt, out_elem="i1")
s.run()
