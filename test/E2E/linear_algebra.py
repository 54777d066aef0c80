# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# The dense linear-algebra ops (RlxLinearAlgebraOps.td: rlx.cholesky,
# triangular_solve, solve, det, logdet) against torch.linalg in float64
# (PyTorch 1.13), f64 and f32 (f32 against the float64 reference of the same
# f32-rounded inputs, with a looser tolerance).
# Forward: n = 1, 2, 5, 17, no batch, [3] and [2, 3], k = 1 and 4 right-hand
# sides; triangular_solve in all 8 combinations of lower/upper, transpose,
# unit_diagonal, its unread triangle (and diagonal with unit_diagonal) full of
# garbage or NaN, against torch.linalg.solve_triangular on the masked
# triangle; cholesky given garbage or NaN in its unread strict upper triangle,
# its result's strict upper triangle exactly 0; solve/det/logdet on
# row-permuted, sign-flipped matrices (pivoting, negative determinants).
# Edge cases: non-positive-definite cholesky inputs (a negative pivot, an
# exactly zero pivot, a NaN) give NaN at and after the failing pivot while
# the other matrices of the batch are correct; a singular solve and a zero on
# a triangular diagonal give non-finite values in their rows; det/logdet of
# matrices with a zero leading diagonal entry, permutations, a repeated row
# and a zero column (det exactly 0, logdet (0, -inf)), determinants that
# under- or overflow (logdet finite; f32 too); n = 0 (det 1, logdet (1, 0),
# empty factors and solutions), a 0 batch and k = 0.
# A `?` batch, n and k compiled once and run at several sizes (and 1 vs 2
# threads bit for bit). Gradients of a weighted sum of each result (logdet:
# of logabsdet) with respect to every operand against torch.autograd
# (cholesky: torch's symmetric gradient of a symmetric input), and central
# differences of the compiled forward for one configuration per op.
import concurrent.futures
import dataclasses

import numpy as np
import torch

import rlx
from rlx_testing.checks import check, check_close, finish

# float64 against float64 on well-conditioned inputs (condition numbers of a
# few units): rounding, a few ulps times n (measured: at most 2e-15 of the
# largest magnitude, results and gradients). f32 against float64: a few f32
# roundings times n (measured: at most 5e-7, n = 17's determinants).
TOL = {"f64": 1e-12, "f32": 1e-5}
GRAD_TOL = TOL
NP = {"f64": np.float64, "f32": np.float32}
SIZES = (1, 2, 5, 17)
BATCHES = ((), (3,), (2, 3))
TRIANGULAR = [(part, transpose, unit) for part in ("lower", "upper")
              for transpose in (False, True) for unit in (False, True)]


def ttype(shape, dtype):
    return "tensor<" + "".join(f"{'?' if d is None else d}x"
                               for d in shape) + f"{dtype}>"


@dataclasses.dataclass
class Config:
    op: str                 # cholesky, triangular_solve, solve, det, logdet
    dtype: str
    n: int
    batch: tuple = ()
    k: int = 1              # right-hand sides (solves)
    part: str = "lower"     # triangular_solve's attributes
    transpose: bool = False
    unit: bool = False
    garbage: str = None     # the unread part of a: None, "finite" or "nan"
    grad: bool = False      # also a loss function and its gradient
    fd: bool = False        # and central differences of the loss
    dynamic: bool = False   # `?` batch (rank 1), n and k
    sizes: tuple = ()       # (batch, n, k) to run a dynamic config at
    name: str = ""
    seed: int = 0


def has_b(c):
    return c.op in ("triangular_solve", "solve")


def shapes(c, batch, n, k):
    """Operand shapes and result shapes."""
    a = tuple(batch) + (n, n)
    operands = [a] + ([tuple(batch) + (n, k)] if has_b(c) else [])
    if c.op == "cholesky":
        results = [a]
    elif has_b(c):
        results = [operands[1]]
    else:
        results = [tuple(batch)] * (2 if c.op == "logdet" else 1)
    return operands, results


def op_line(c, types, result_types):
    r = result_types
    if c.op == "cholesky":
        return f"%r0 = rlx.cholesky %a : {types[0]} -> {r[0]}"
    if c.op == "triangular_solve":
        flags = (" transpose" if c.transpose else "") + \
            (" unit_diagonal" if c.unit else "")
        return (f"%r0 = rlx.triangular_solve {c.part} %a, %b{flags} : "
                f"{types[0]}, {types[1]} -> {r[0]}")
    if c.op == "solve":
        return f"%r0 = rlx.solve %a, %b : {types[0]}, {types[1]} -> {r[0]}"
    if c.op == "det":
        return f"%r0 = rlx.det %a : {types[0]} -> {r[0]}"
    return f"%r0, %r1 = rlx.logdet %a : {types[0]} -> {r[0]}, {r[1]}"


def loss_results(c):
    """The results the loss weighs: logdet's logabsdet only."""
    return [1] if c.op == "logdet" else [0]


def module_text(c):
    if c.dynamic:
        operands, results = shapes(c, (None,), None, None)
    else:
        operands, results = shapes(c, c.batch, c.n, c.k)
    names = ["a", "b"][:len(operands)]
    types = [ttype(s, c.dtype) for s in operands]
    rtypes = [ttype(s, c.dtype) for s in results]
    line = op_line(c, types, rtypes)
    signature = ", ".join(f"%{n}: {t}" for n, t in zip(names, types))
    rt = ", ".join(rtypes)
    rets = ", ".join(f"%r{i}" for i in range(len(results)))
    text = (f"func.func @{c.name}({signature}) -> ({rt}) {{\n  {line}\n"
            f"  return {rets} : {rt}\n}}\n")
    if not c.grad:
        return text
    scalar = f"tensor<{c.dtype}>"
    body, seeds, totals = f"  {line}\n", [], []
    for i in loss_results(c):
        t, rank = rtypes[i], len(results[i])
        seeds.append(f"%s{i}: {t}")
        body += f"  %m{i} = rlx.mul %r{i}, %s{i} : ({t}, {t}) -> {t}\n"
        if rank:
            axes = ", ".join(str(d) for d in range(rank))
            body += (f"  %l{i} = rlx.reduce sum %m{i} axes = [{axes}] : "
                     f"{t} -> {scalar}\n")
            totals.append(f"%l{i}")
        else:
            totals.append(f"%m{i}")
    wrt = ", ".join(str(i) for i in range(len(names)))
    return text + (
        f"func.func @{c.name}_loss({signature}, {', '.join(seeds)}) -> "
        f"{scalar} attributes {{rlx.differentiate = array<i64: {wrt}>}} {{\n"
        f"{body}  return {totals[0]} : {scalar}\n}}\n")


# --- Inputs and references ---------------------------------------------------

def eye_like(shape):
    return np.broadcast_to(np.eye(shape[-1]), shape)


def spd(r, shape):
    """G G^T + n I, exactly symmetric: eigenvalues in [n, ~5n]."""
    g = r.standard_normal(shape)
    a = g @ np.swapaxes(g, -1, -2) + shape[-1] * eye_like(shape)
    return (a + np.swapaxes(a, -1, -2)) / 2


def general(r, shape):
    """D P (G + (n + 1) I): well conditioned, rows permuted (so that
    elimination must pivot) and signs flipped (determinants of both
    signs)."""
    n = shape[-1]
    a = r.standard_normal(shape) + (n + 1) * eye_like(shape)
    if a.size == 0:
        return a
    flat = a.reshape((-1, n, n))
    for m in flat:
        m[:] = m[r.permutation(n)] * r.choice([-1.0, 1.0], (n, 1))
    return flat.reshape(shape)


def triangle_mask(c, n):
    """Where a is read: its triangle, without the diagonal if unit."""
    offset = 1 if c.unit else 0
    return (np.tril(np.ones((n, n), bool), -offset) if c.part == "lower"
            else np.triu(np.ones((n, n), bool), offset))


def triangular(r, c, shape):
    """The read triangle well conditioned (diagonal of magnitude 1-2 with
    either sign, small off-diagonal entries); the rest garbage."""
    n = shape[-1]
    a = r.standard_normal(shape) * (0.5 / np.sqrt(max(n, 1)))
    d = r.uniform(1, 2, shape[:-1]) * r.choice([-1.0, 1.0], shape[:-1])
    a[..., np.arange(n), np.arange(n)] = d
    if c.garbage:
        junk = (np.full(shape, np.nan) if c.garbage == "nan"
                else r.standard_normal(shape) * 100 + 50)
        a = np.where(triangle_mask(c, n), a, junk)
    return a


def make_inputs(c, batch, n, k):
    r = np.random.default_rng([c.seed, n, k, len(batch)])
    operands, _ = shapes(c, batch, n, k)
    shape = operands[0]
    if c.op == "cholesky":
        a = spd(r, shape)
        if c.garbage:
            junk = (np.full(shape, np.nan) if c.garbage == "nan"
                    else r.standard_normal(shape) * 1e3)
            a = np.where(np.tril(np.ones((n, n), bool)), a, junk)
    elif c.op == "triangular_solve":
        a = triangular(r, c, shape)
    else:
        a = general(r, shape)
    values = [a] + ([r.standard_normal(operands[1])] if has_b(c) else [])
    return [v.astype(NP[c.dtype]) for v in values]


def masked_triangle(c, a):
    """The triangular matrix op(a) reads, from torch's a (differentiably)."""
    n = a.shape[-1]
    offset = 1 if c.unit else 0
    m = a.tril(-offset) if c.part == "lower" else a.triu(offset)
    if c.unit:
        m = m + torch.eye(n, dtype=torch.float64)
    return m


def reference(c, t):
    """torch.linalg's results on the float64 leaves `t`."""
    if c.op == "cholesky":
        return [torch.linalg.cholesky(t[0])]
    if c.op == "triangular_solve":
        m = masked_triangle(c, t[0])
        upper = (c.part == "upper") != c.transpose
        return [torch.linalg.solve_triangular(m.mT if c.transpose else m,
                                              t[1], upper=upper,
                                              unitriangular=c.unit)]
    if c.op == "solve":
        return [torch.linalg.solve(t[0], t[1])]
    if c.op == "det":
        return [torch.linalg.det(t[0])]
    return list(torch.linalg.slogdet(t[0]))


def reference_leaves(c, args):
    """float64 leaves of the (rounded) inputs; cholesky's a symmetrized from
    its lower triangle (the one it reads)."""
    values = [a.astype(np.float64) for a in args]
    if c.op == "cholesky":
        low = np.tril(values[0])
        values[0] = low + np.swapaxes(np.tril(values[0], -1), -1, -2)
    return [torch.tensor(v, requires_grad=True) for v in values]


def close(name, got, want, tol):
    """Elementwise within tol relative and tol of want's largest magnitude
    (a normwise bound)."""
    want = np.asarray(want, dtype=np.float64)
    scale = float(np.abs(want).max()) if want.size else 0.0
    check_close(name, got, want, tol, tol * scale)


def close_nonfinite(name, got, want, rtol, atol):
    """check_close on the finite values of `want`; its infinities and NaNs
    exactly."""
    got, want = np.asarray(got), np.asarray(want)
    finite = np.isfinite(want)
    check(f"{name}_nonfinite", got.shape == want.shape and np.array_equal(
        got[~finite], want[~finite], equal_nan=True), f"{got} vs {want}")
    if got.shape == want.shape:
        check_close(name, got[finite], want[finite], rtol, atol)


def compare(c, label, got, want, tol):
    if c.op == "det":
        # Each determinant relative to itself (they differ in magnitude).
        check_close(f"{label}_det", got, want, tol, 0.0)
    elif c.op == "logdet":
        check(f"{label}_sign", np.array_equal(got[0], want[0]),
              f"{got[0]} vs {want[0]}")
        want1 = np.asarray(want[1])
        scale = max(1.0, float(np.abs(want1).max())) if want1.size else 1.0
        check_close(f"{label}_logabsdet", got[1], want1, tol, tol * scale)
    else:
        close(f"{label}_x", got[0], want[0], tol)
    if c.op == "cholesky":
        upper = np.triu(np.ones(got[0].shape[-2:], bool), 1)
        check(f"{label}_upper_zero", np.all(got[0][..., upper] == 0.0),
              "the strict upper triangle is not 0")


# --- Running a configuration -------------------------------------------------

def run_config(c, m):
    tol, gtol = TOL[c.dtype], GRAD_TOL[c.dtype]
    for batch, n, k in c.sizes or [(c.batch, c.n, c.k)]:
        label = f"{c.name}_{'x'.join(map(str, batch)) or 'nobatch'}_n{n}" \
            + (f"_k{k}" if has_b(c) else "")
        _, result_shapes = shapes(c, batch, n, k)
        args = make_inputs(c, batch, n, k)
        got = m[c.name](*args)
        got = list(got) if isinstance(got, tuple) else [got]
        t = reference_leaves(c, args)
        want = reference(c, t)
        compare(c, label, got, [w.detach().numpy() for w in want], tol)
        if not c.grad:
            continue
        r = np.random.default_rng([c.seed, n, k, 1])
        seeds = [r.standard_normal(result_shapes[i]) for i in loss_results(c)]
        loss = sum((want[i] * torch.tensor(s)).sum()
                   for i, s in zip(loss_results(c), seeds))
        loss.backward()
        seed_args = [s.astype(NP[c.dtype]) for s in seeds]
        grads = m[f"{c.name}_loss_grad"](*args, *seed_args)
        close(f"{label}_loss", grads[0], loss.detach().numpy(), gtol)
        for name, leaf, g in zip("ab", t, grads[1:]):
            want_grad = (leaf.grad.numpy() if leaf.grad is not None
                         else np.zeros(leaf.shape))
            close(f"{label}_d{name}", g, want_grad, gtol)
        if c.fd:
            finite_differences(c, m, label, args, seed_args, grads)


def finite_differences(c, m, label, args, seed_args, grads, count=3,
                       h=1e-6, tol=1e-6):
    """Central differences of the compiled loss at `count` coordinates of
    every operand (of a: in the part read) against the compiled gradients.
    Cholesky reads a's lower triangle: moving a[i, j] (i > j) moves the
    symmetric matrix's two entries, whose gradients add."""
    r = np.random.default_rng([c.seed, 2])
    n = args[0].shape[-1]
    for i, name in enumerate("ab"[:len(args)]):
        if i == 0 and c.op in ("cholesky", "triangular_solve"):
            read = (np.tril(np.ones((n, n), bool)) if c.op == "cholesky"
                    else triangle_mask(c, n))
            read = np.broadcast_to(read, args[0].shape)
        else:
            read = np.ones(args[i].shape, bool)
        for index in r.choice(np.flatnonzero(read), count, replace=False):
            f = []
            for step in (h, -h):
                moved = [a.copy() for a in args]
                moved[i].flat[index] += step
                f.append(float(m[f"{c.name}_loss"](*moved, *seed_args)))
            numeric = (f[0] - f[1]) / (2 * h)
            g = np.asarray(grads[1 + i])
            analytic = float(g.flat[index])
            if c.op == "cholesky":
                where = np.unravel_index(index, g.shape)
                row, col = where[-2:]
                if row != col:
                    analytic += float(g[where[:-2] + (col, row)])
            check(f"{label}_fd_d{name}_{index}",
                  abs(numeric - analytic) <= tol * max(1.0, abs(numeric)),
                  f"{analytic} vs {numeric}")


# --- The configurations ------------------------------------------------------

configs = []


def add(op, dtype, n, batch, **kwargs):
    c = Config(op, dtype, n, tuple(batch), **kwargs)
    c.name = f"{op}_{dtype}_{len(configs)}"
    c.seed = 100 + len(configs)
    configs.append(c)
    return c


for dtype in ("f64", "f32"):
    # Every n with every batch; k alternating so that each n sees 1 and 4.
    for i, (n, batch) in enumerate((n, b) for n in SIZES for b in BATCHES):
        k = (1, 4)[i % 2]
        add("cholesky", dtype, n, batch,
            garbage=("finite", "nan", None)[i % 3])
        add("solve", dtype, n, batch, k=k)
        add("solve", dtype, n, batch, k=5 - k)
        add("det", dtype, n, batch)
        add("logdet", dtype, n, batch)
    # The 8 triangular_solve variants at every n, batch and k rotating.
    for j, (part, transpose, unit) in enumerate(TRIANGULAR):
        for i, n in enumerate(SIZES):
            add("triangular_solve", dtype, n, BATCHES[(i + j) % 3],
                k=(1, 4)[(i + j // 2) % 2], part=part, transpose=transpose,
                unit=unit, garbage=("finite", "nan")[(i + j) % 2])

# Gradients (f64): every op at three sizes, triangular_solve's 8 variants,
# central differences once per op; f32 once per op.
for n, batch, k in ((1, (), 1), (5, (3,), 4), (17, (2,), 1)):
    for op in ("cholesky", "solve", "det", "logdet"):
        add(op, "f64", n, batch, k=k, grad=True,
            fd=(n, op) in ((5, "cholesky"), (5, "solve"), (17, "det"),
                           (5, "logdet")))
for j, (part, transpose, unit) in enumerate(TRIANGULAR):
    add("triangular_solve", "f64", 5, (3,), k=4, part=part,
        transpose=transpose, unit=unit, garbage="finite", grad=True,
        fd=j == 6)
add("triangular_solve", "f64", 17, (), k=2, part="upper", transpose=True,
    grad=True)
for op in ("cholesky", "solve", "det", "logdet", "triangular_solve"):
    add(op, "f32", 5, (2,), k=3, part="upper", grad=True)

# `?` batch, n and k: one module per op, run at several sizes (0 batch, n = 0
# and k = 0 among them), gradients too.
DYNAMIC_SIZES = (((2,), 5, 4), ((3,), 17, 1), ((1,), 1, 2), ((0,), 3, 2),
                 ((2,), 0, 3), ((2,), 4, 0))
for op, attrs in (("cholesky", {}), ("solve", {}), ("det", {}),
                  ("logdet", {}),
                  ("triangular_solve", dict(part="upper", transpose=True)),
                  ("triangular_solve", dict(part="lower", unit=True,
                                            garbage="finite"))):
    # k = 0 only where there are right-hand sides.
    sizes = [s for s in DYNAMIC_SIZES
             if s[2] or op in ("solve", "triangular_solve")]
    add(op, "f64", 0, (), dynamic=True, grad=True, sizes=tuple(sizes),
        **attrs)


# --- Special matrices, one static f64 module ---------------------------------

def function(name, body, args, results):
    params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(args))
    names = ", ".join(f"%r{i}" for i in range(len(results)))
    return (f"func.func @{name}({params}) -> ({', '.join(results)}) {{\n"
            f"  {body}\n  return {names} : {', '.join(results)}\n}}\n")


def crout(a):
    """Cholesky in float64 by its definition, a pivot that is not > 0 (or
    NaN) giving NaN, which then spreads to what is computed from it (the
    documented behaviour); reads the lower triangle."""
    n = a.shape[-1]
    lo = np.zeros_like(a)
    with np.errstate(invalid="ignore"):
        for j in range(n):
            pivot = a[j, j] - np.dot(lo[j, :j], lo[j, :j])
            lo[j, j] = np.sqrt(pivot) if pivot > 0 else np.nan
            for i in range(j + 1, n):
                lo[i, j] = (a[i, j] - np.dot(lo[i, :j], lo[j, :j])) / lo[j, j]
    return lo


rng = np.random.default_rng(7)
special_functions = []

# Cholesky of a batch: [0] SPD, [1] a negative pivot at 2, [2] an exactly
# zero pivot at 1 ([[1, 1], [1, 1]] leading block), [3] a NaN below the
# diagonal (pivot 3 NaN), [4] SPD.
chol_bad = spd(rng, (5, 5, 5))
chol_bad[1, 2, 2] = -10.0
chol_bad[2, :2, :2] = 1.0
chol_bad[3, 3, 1] = np.nan
chol_bad[:, 0, 4] = np.inf            # unread garbage
FIRST_BAD = {1: 2, 2: 1, 3: 3}
t5 = ttype((5, 5, 5), "f64")
special_functions.append(function(
    "chol_bad", f"%r0 = rlx.cholesky %a0 : {t5} -> {t5}", [t5], [t5]))

# Singular solves: [0] regular, [1] a zero column, [2] regular; a zero on
# a triangular diagonal (row 1 of 4).
solve_a = general(rng, (3, 4, 4))
solve_a[1, :, 2] = 0.0
solve_b = rng.standard_normal((3, 4, 2))
ta, tb = ttype((3, 4, 4), "f64"), ttype((3, 4, 2), "f64")
special_functions.append(function(
    "solve_singular", f"%r0 = rlx.solve %a0, %a1 : {ta}, {tb} -> {tb}",
    [ta, tb], [tb]))
tri_a = np.tril(rng.standard_normal((4, 4)) * 0.2) + np.eye(4)
tri_a[1, 1] = 0.0
tri_b = rng.standard_normal((4, 2))
t44, t42 = ttype((4, 4), "f64"), ttype((4, 2), "f64")
special_functions.append(function(
    "tri_zero_diag", f"%r0 = rlx.triangular_solve lower %a0, %a1 : "
    f"{t44}, {t42} -> {t42}", [t44, t42], [t42]))

# det/logdet: [0] a zero at (0, 0), [1] an odd permutation (det -1),
# [2] an even permutation scaled, [3] a Gaussian matrix, [4] a repeated
# row, [5] a zero column, [6] 1e-90 scale (det underflows to 0), [7] 1e90
# (det overflows), [8] a negative determinant, [9] rank 3 (row 3 = row 0 +
# row 1: elimination leaves rounding, so only a tiny determinant).
det_a = rng.standard_normal((10, 4, 4))
det_a[0, 0, 0] = 0.0
det_a[1] = np.eye(4)[[1, 0, 2, 3]]
det_a[2] = 3.0 * np.eye(4)[[1, 2, 0, 3]]
det_a[4, 2] = det_a[4, 0]
det_a[5, :, 1] = 0.0
det_a[6] = 1e-90 * (det_a[6] + 5 * np.eye(4))
det_a[7] = 1e90 * (det_a[7] + 5 * np.eye(4))
det_a[8] = np.diag([1.0, -2.0, 3.0, 0.5]) + np.triu(det_a[8], 1)
det_a[9, 3] = det_a[9, 0] + det_a[9, 1]
SINGULAR = (4, 5)
t10, t10s = ttype((10, 4, 4), "f64"), ttype((10,), "f64")
special_functions.append(function(
    "det_special", f"%r0 = rlx.det %a0 : {t10} -> {t10s}", [t10], [t10s]))
special_functions.append(function(
    "logdet_special", f"%r0, %r1 = rlx.logdet %a0 : {t10} -> {t10s}, {t10s}",
    [t10], [t10s, t10s]))

# f32: determinants beyond f32's range, logdet finite.
det_f32 = np.stack([1e3 * general(rng, (17, 17)),
                    1e-5 * general(rng, (17, 17))]).astype(np.float32)
tf, tfs = ttype((2, 17, 17), "f32"), ttype((2,), "f32")
special_functions.append(function(
    "det_f32_range", f"%r0 = rlx.det %a0 : {tf} -> {tfs}", [tf], [tfs]))
special_functions.append(function(
    "logdet_f32_range", f"%r0, %r1 = rlx.logdet %a0 : {tf} -> {tfs}, {tfs}",
    [tf], [tfs, tfs]))

# Static n = 0, 0 batches and k = 0, with and without a batch.
EMPTY = []
for name, op, a_shape, b_shape in (
        ("chol_n0", "cholesky", (0, 0), None),
        ("chol_batch0", "cholesky", (0, 3, 3), None),
        ("chol_batch_n0", "cholesky", (3, 0, 0), None),
        ("solve_n0", "solve", (0, 0), (0, 2)),
        ("solve_batch_n0", "solve", (3, 0, 0), (3, 0, 2)),
        ("solve_k0", "solve", (3, 3), (3, 0)),
        ("solve_batch_k0", "solve", (2, 3, 3), (2, 3, 0)),
        ("tri_n0", "triangular_solve", (0, 0), (0, 2)),
        ("tri_batch_n0", "triangular_solve", (3, 0, 0), (3, 0, 2)),
        ("tri_batch_k0", "triangular_solve", (2, 3, 3), (2, 3, 0)),
        ("det_n0", "det", (0, 0), None),
        ("det_batch_n0", "det", (3, 0, 0), None),
        ("det_batch0", "det", (0, 2, 2), None),
        ("logdet_n0", "logdet", (0, 0), None),
        ("logdet_batch_n0", "logdet", (2, 0, 0), None)):
    EMPTY.append(Config(op, "f64", a_shape[-1], a_shape[:-2],
                        k=b_shape[-1] if b_shape else 1, name=name))


def run_special(m):
    # Cholesky outside its domain.
    got = m["chol_bad"](chol_bad)
    for i in range(5):
        want = crout(chol_bad[i])
        label = f"chol_bad_{i}"
        upper = np.triu(np.ones((5, 5), bool), 1)
        check(f"{label}_upper_zero", np.all(got[i][upper] == 0.0),
              f"{got[i]}")
        if i not in FIRST_BAD:
            close(label, got[i], torch.linalg.cholesky(
                torch.tensor(np.tril(chol_bad[i]) + np.tril(
                    chol_bad[i], -1).T)).numpy(), TOL["f64"])
            continue
        # NaN at the failing pivot p and wherever computed from it; the
        # columns before p (those not computed from it) exact.
        p = FIRST_BAD[i]
        nan_want = np.isnan(want)
        check(f"{label}_nan_from_pivot_{p}",
              np.all(np.isnan(got[i][nan_want])) and
              np.all(np.isnan(np.diag(got[i])[p:])),
              f"got\n{got[i]}\nwant NaN where\n{nan_want}")
        exact = ~nan_want
        exact[:, p:] = False
        close(f"{label}_columns_before_{p}", got[i][exact], want[exact],
              TOL["f64"])
    # Singular solves.
    got = m["solve_singular"](solve_a, solve_b)
    want = torch.linalg.solve(torch.tensor(solve_a[[0, 2]]),
                              torch.tensor(solve_b[[0, 2]])).numpy()
    close("solve_singular_regular", got[[0, 2]], want, TOL["f64"])
    check("solve_singular_nonfinite", not np.all(np.isfinite(got[1])),
          f"{got[1]}")
    got = m["tri_zero_diag"](tri_a, tri_b)
    close("tri_zero_diag_row0", got[0], tri_b[0] / tri_a[0, 0], TOL["f64"])
    check("tri_zero_diag_row1_nonfinite", not np.any(np.isfinite(got[1])),
          f"{got}")
    # det and logdet.
    t = torch.tensor(det_a)
    want_det = torch.linalg.det(t).numpy()
    want_sign, want_log = (v.numpy() for v in torch.linalg.slogdet(t))
    for i in SINGULAR:
        want_det[i], want_sign[i], want_log[i] = 0.0, 0.0, -np.inf
    got = m["det_special"](det_a)
    check("det_special_signs", np.array_equal(np.sign(got[:9]),
                                              np.sign(want_det[:9])),
          f"{got} vs {want_det}")
    regular = [i for i in range(10) if i not in SINGULAR + (9,)]
    close_nonfinite("det_special", got[regular], want_det[regular],
                    TOL["f64"], 0.0)
    check("det_special_singular_exact_0", np.all(got[list(SINGULAR)] == 0.0),
          f"{got[list(SINGULAR)]}")
    # A rank-deficient matrix elimination does not meet exactly: tiny.
    check("det_special_rank3_tiny", abs(got[9]) <= 1e-13 * np.prod(
        np.linalg.norm(det_a[9], axis=1)), f"{got[9]}")
    sign, logabs = m["logdet_special"](det_a)
    check("logdet_special_sign", np.array_equal(sign[:9], want_sign[:9]),
          f"{sign} vs {want_sign}")
    close_nonfinite("logdet_special_logabsdet", logabs[:9], want_log[:9],
                    TOL["f64"], TOL["f64"] * 1e3)
    check("logdet_special_rank3", sign[9] == 0 and logabs[9] == -np.inf
          or logabs[9] < np.log(1e-13) + np.sum(np.log(np.linalg.norm(
              det_a[9], axis=1))), f"{sign[9]}, {logabs[9]}")
    # f32 determinants out of range.
    t = torch.tensor(det_f32.astype(np.float64))
    want_sign, want_log = (v.numpy() for v in torch.linalg.slogdet(t))
    got = m["det_f32_range"](det_f32)
    check("det_f32_range", np.array_equal(got, np.array(
        [np.inf * want_sign[0], 0.0 * want_sign[1]], np.float32)),
          f"{got} vs signs {want_sign}")
    sign, logabs = m["logdet_f32_range"](det_f32)
    check("logdet_f32_range_sign", np.array_equal(sign, want_sign),
          f"{sign} vs {want_sign}")
    check_close("logdet_f32_range_logabsdet", logabs, want_log, TOL["f32"],
                TOL["f32"] * np.abs(want_log).max())


def run_empty(c, m):
    operands, results = shapes(c, c.batch, c.n, c.k)
    args = [np.ones(s) for s in operands]
    got = m[c.name](*args)
    got = list(got) if isinstance(got, tuple) else [got]
    if c.op == "det":
        want = [np.ones(results[0])]
    elif c.op == "logdet":
        want = [np.ones(results[0]), np.zeros(results[1])]
    else:
        want = [np.zeros(s) for s in results]
    check(c.name, all(g.shape == w.shape and np.array_equal(g, w)
                      for g, w in zip(got, want)), f"{got} vs {want}")


# --- Compiling (2 threads) and running ---------------------------------------

def compile_text(text):
    try:
        return rlx.compile(text)
    except rlx.Error as e:
        return e


# Modules of one (op, dtype, dynamic)'s configurations, about as costly to
# compile as each other (a loss and its gradient about 3 functions), so
# that the 2 threads share the work.
MODULE_WEIGHT = 12
groups = {}
for c in configs:
    chunks = groups.setdefault((c.op, c.dtype, c.dynamic), [[]])
    if sum(3 if x.grad else 1 for x in chunks[-1]) >= MODULE_WEIGHT:
        chunks.append([])
    chunks[-1].append(c)
groups = {key + (i,): chunk for key, chunks in groups.items()
          for i, chunk in enumerate(chunks)}
texts = ["\n".join(module_text(c) for c in group)
         for group in groups.values()]
# Static zero sizes: a module each, so that one that does not compile does
# not hide the others.
texts += ["\n".join(special_functions)] + [module_text(c) for c in EMPTY]

rlx.get_num_threads()  # loads the runtime before the compiling threads
with concurrent.futures.ThreadPoolExecutor(2) as pool:
    modules = list(pool.map(compile_text, texts))

for (key, group), m in zip(groups.items(), modules):
    name = "_".join(str(k) for k in key)
    ok = not isinstance(m, rlx.Error)
    check(f"{name}_compiles", ok, "" if ok else str(m))
    if ok:
        for c in group:
            run_config(c, m)

# 1 vs 2 threads, bit for bit (the batch is split among threads).
default_threads = rlx.get_num_threads()
for (key, group), m in zip(groups.items(), modules):
    if key[2] and not isinstance(m, rlx.Error):
        for c in group:
            args = make_inputs(c, (6,), 9, 3)
            runs = []
            for threads in (1, 2):
                rlx.set_num_threads(threads)
                runs.append(m[c.name](*args))
            rlx.set_num_threads(default_threads)
            runs = [r if isinstance(r, tuple) else (r,) for r in runs]
            check(f"{c.name}_threads", all(
                np.array_equal(x, y, equal_nan=True)
                for x, y in zip(*runs)), "1 and 2 threads differ")

special = modules[len(groups)]
ok = not isinstance(special, rlx.Error)
check("special_compiles", ok, "" if ok else str(special))
if ok:
    run_special(special)
for c, m in zip(EMPTY, modules[len(groups) + 1:]):
    ok = not isinstance(m, rlx.Error)
    check(f"{c.name}_compiles", ok, "" if ok else str(m))
    if ok:
        run_empty(c, m)
finish()
