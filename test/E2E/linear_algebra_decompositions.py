# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# The decompositions and matrix functions of RlxLinearAlgebraOps.td
# (rlx.eigh, rlx.qr, rlx.svd, rlx.expm, rlx.logm, rlx.sqrtm, rlx.invsqrtm)
# against torch.linalg in float64 (PyTorch 1.13), f64 and f32 (f32 against
# the float64 reference of the same f32-rounded inputs, looser tolerance).
# eigh: values against torch.linalg.eigh, vectors against torch's with the
# op's sign convention applied (each column's element of largest magnitude
# positive), v diag(l) v^T = a, v^T v = I; n = 1, 2, 5, 16, no batch, [3],
# [2, 2], f64 and f32; only the lower triangle read (garbage, and NaN, in
# the strict upper one); repeated eigenvalues (values, reconstruction,
# orthonormality, the sign convention), a diagonal matrix, the zero matrix.
# qr: q and r against torch.linalg.qr as they are (LAPACK's signs), tall,
# square, wide, 1x1, single rows and columns, batches; a zero column (a =
# q r, r upper; |q^T q - I| printed).
# svd: s against torch.linalg.svdvals, u and vh against torch's with the
# op's signs (each row of vh's element of largest magnitude positive),
# reconstruction, orthonormality, s descending; tall, wide, square, single
# rows and columns, batches; an exactly zero singular value (its u column,
# or vh row for a wide matrix, is 0), the zero matrix; singular values
# 1 .. 1e-10 against torch and mpmath's exact values (U diag(s) V^T: within
# eps ||a|| per value; a column-graded B diag(s): 1e-12 relative).
# A NaN in one matrix of a batch: NaN in that matrix's eigh and svd
# results, the others exact.
# expm against torch.linalg.matrix_exp, logm/sqrtm/invsqrtm against v f(l)
# v^T from torch.linalg.eigh; n = 1, 4, 9, batches, f64 and f32; 2I,
# Q diag(1, 1, 3) Q^T, Q diag(1, 1 + 1e-9, 3) Q^T, three eigenvalues within
# 3e-9; outside the domain (a negative eigenvalue: NaN; a zero one: sqrt 0,
# log -inf, 1/sqrt inf).
# `?` sizes (eigh's and invsqrtm's batch and n, qr's and svd's batch, tall
# and wide; their gradients too) compiled once and run at several sizes.
# Gradients of a weighted sum of every result with respect to the input
# against torch.autograd in float64: eigh (well-separated eigenvalues; torch's
# gradient, which is symmetric, as it is and its symmetric part), qr (tall,
# square, batch), svd (tall, wide, square, batch; distinct singular values),
# expm (torch.linalg.matrix_exp's autograd: the Daleckii-Krein gradient, not
# symmetrized for an unsymmetric weight); logm/sqrtm/invsqrtm against
# autograd through the eigh reference (the symmetric part of their gradient;
# all of it for a symmetric weight) and the explicit float64 Daleckii-Krein
# formula; at repeated and nearly repeated eigenvalues against that formula
# (f' where eigenvalues meet), expm's against matrix_exp's autograd, and
# central differences of the compiled forward. Losses of eigh's values only
# and svd's singular values only at repeated values: finite, exact.
# Central differences for one configuration of every op. qr of a wide
# matrix has no gradient rule: compiling its gradient is an error naming
# rlx.qr, not a crash.
import collections
import concurrent.futures
import time

import mpmath
import numpy as np
import torch

import rlx
from rlx_testing.checks import check, check_close, finish

START = time.time()
# float64 against float64 on well-conditioned inputs (eigenvalue and
# singular-value gaps >= ~0.3, norms <= ~10): rounding, a few ulps times n.
# f32 against float64: a few f32 roundings times n.
TOL = {"f64": 1e-10, "f32": 1e-4}
GRAD_TOL = {"f64": 1e-9, "f32": 1e-3}
NP = {"f64": np.float64, "f32": np.float32}
SPECTRAL = ("expm", "logm", "sqrtm", "invsqrtm")
# f and f' of the matrix functions, in float64.
F = {"expm": (np.exp, np.exp),
     "logm": (np.log, lambda x: 1.0 / x),
     "sqrtm": (np.sqrt, lambda x: 0.5 / np.sqrt(x)),
     "invsqrtm": (lambda x: x ** -0.5, lambda x: -0.5 * x ** -1.5)}
rng = np.random.default_rng(20)


def ttype(shape, dtype):
    return "tensor<" + "".join(f"{'?' if d is None else d}x"
                               for d in shape) + f"{dtype}>"


def result_shapes(op, shape):
    *batch, m, n = shape
    k = None if m is None or n is None else min(m, n)
    if op == "eigh":
        return [batch + [n], batch + [n, n]]
    if op == "qr":
        return [batch + [m, k], batch + [k, n]]
    if op == "svd":
        return [batch + [m, k], batch + [k], batch + [k, n]]
    return [list(shape)]


def op_text(op, shape, dtype):
    t = ttype(shape, dtype)
    results = [ttype(s, dtype) for s in result_shapes(op, shape)]
    names = ", ".join(f"%r{i}" for i in range(len(results)))
    if op in SPECTRAL:
        return f"{names} = rlx.{op} %a : {t}", t, results
    return f"{names} = rlx.{op} %a : {t} -> {', '.join(results)}", t, results


# --- Declaring functions now, checking them once compiled -----------------

GROUPS = collections.defaultdict(list)  # module -> function texts
WHERE = {}                              # function -> module
LATER = []                              # (functions, label, check closure)


def declare(group, name, op, shape, dtype, loss=False, used=None):
    """@name(a) -> the op's results; with `loss`, @name_loss(a, w0, ...),
    the sum of every result (those of `used` if given) times its weight,
    and its gradient @name_loss_grad (loss, da)."""
    body, t, results = op_text(op, shape, dtype)
    rt = ", ".join(results)
    names = ", ".join(f"%r{i}" for i in range(len(results)))
    text = (f"func.func @{name}(%a: {t}) -> ({rt}) {{\n  {body}\n"
            f"  return {names} : {rt}\n}}\n")
    WHERE[name] = group
    if loss:
        scalar = f"tensor<{dtype}>"
        used = range(len(results)) if used is None else used
        results = [results[i] for i in used]
        weights = ", ".join(f"%w{i}: {r}" for i, r in enumerate(results))
        text += (f"func.func @{name}_loss(%a: {t}, {weights}) -> {scalar} "
                 f"attributes {{rlx.differentiate = array<i64: 0>}} {{\n"
                 f"  {body}\n")
        shapes = [result_shapes(op, shape)[i] for i in used]
        for i, (j, r, s) in enumerate(zip(used, results, shapes)):
            axes = ", ".join(str(d) for d in range(len(s)))
            text += (f"  %m{i} = rlx.mul %r{j}, %w{i} : ({r}, {r}) -> {r}\n"
                     f"  %l{i} = rlx.reduce sum %m{i} axes = [{axes}] : "
                     f"{r} -> {scalar}\n")
        total = "%l0"
        for i in range(1, len(results)):
            text += (f"  %t{i} = rlx.add {total}, %l{i} : ({scalar}, "
                     f"{scalar}) -> {scalar}\n")
            total = f"%t{i}"
        text += f"  return {total} : {scalar}\n}}\n"
        WHERE[name + "_loss"] = WHERE[name + "_loss_grad"] = group
    GROUPS[group].append(text)
    return name


def later(functions, label):
    """Registers the decorated check to run once `functions` compiled."""
    def register(closure):
        LATER.append((functions, label, closure))
        return closure
    return register


modules = {}


def fn(name):
    return modules[WHERE[name]][name]


# --- Helpers ----------------------------------------------------------------

def close(name, got, want, tol, scale=None):
    """Elementwise within tol * scale (scale: the largest magnitude of
    `want` unless given) and tol relative."""
    want = np.asarray(want, dtype=np.float64)
    if scale is None:
        scale = float(np.abs(want).max()) if want.size else 0.0
    check_close(name, np.asarray(got, dtype=np.float64), want, tol,
                tol * scale)


def f64(x):
    return np.asarray(x, dtype=np.float64)


def mT(x):
    return np.swapaxes(x, -1, -2)


def eye_like(x, k):
    return np.broadcast_to(np.eye(k), x.shape[:-2] + (k, k))


def orthogonal(batch, n):
    q, r = np.linalg.qr(rng.standard_normal(tuple(batch) + (n, n)))
    return q * np.sign(np.diagonal(r, axis1=-2, axis2=-1))[..., None, :]


def with_spectrum(l):
    """Symmetric Q diag(l) Q^T (exactly symmetric) for l [..., n]."""
    q = orthogonal(l.shape[:-1], l.shape[-1])
    a = (q * l[..., None, :]) @ mT(q)
    return (a + mT(a)) / 2


def separated(batch, n, low=-1.0, gap=0.5):
    """Ascending eigenvalues with gaps of at least `gap`."""
    steps = gap + rng.uniform(0.0, 0.6, tuple(batch) + (n,))
    return low + np.cumsum(steps, axis=-1) - steps[..., :1]


def with_singular_values(batch, m, n, s=None):
    """U diag(s) V^T with descending s of gaps >= 0.3 unless given."""
    k = min(m, n)
    if s is None:
        s = separated(batch, k, low=0.5, gap=0.3)[..., ::-1]
    u = orthogonal(batch, m)[..., :k]
    v = orthogonal(batch, n)[..., :k]
    return (u * s[..., None, :]) @ mT(v)


def sym_from_lower(x):
    lower = np.tril(x)
    return lower + mT(np.tril(x, -1))


def column_signs(v):
    """[..., 1, k]: +-1 making each column's first element of largest
    magnitude positive."""
    index = np.argmax(np.abs(v), axis=-2)[..., None, :]
    return np.where(np.take_along_axis(v, index, axis=-2) < 0, -1.0, 1.0)


def row_signs(vh):
    """[..., k, 1]: the same for the rows."""
    return mT(column_signs(mT(vh)))


def rounded(x, dtype):
    """The input in the function's dtype, and those values in float64."""
    x = np.ascontiguousarray(x.astype(NP[dtype]))
    return x, x.astype(np.float64)


def weights(shapes, dtype, symmetric=False):
    ws = [rng.standard_normal(s) for s in shapes]
    if symmetric:
        ws = [(w + mT(w)) / 2 for w in ws]
    return [np.ascontiguousarray(w.astype(NP[dtype])) for w in ws]


def spectral_reference(op, a):
    """float64 f(a) of the symmetric `a`: torch.linalg.matrix_exp for expm,
    v f(l) v^T from torch.linalg.eigh otherwise."""
    t = torch.from_numpy(a)
    if op == "expm":
        return torch.linalg.matrix_exp(t).numpy()
    lam, v = (x.numpy() for x in torch.linalg.eigh(t))
    return (v * F[op][0](lam)[..., None, :]) @ mT(v)


def daleckii_krein(op, a, w):
    """The float64 gradient v (d * (v^T w v)) v^T of sum(f(a) * w), d the
    divided differences of f, f' at the midpoint where eigenvalues are
    within 1e-6 (relative) of each other."""
    f, fprime = F[op]
    lam, v = (x.numpy() for x in torch.linalg.eigh(torch.from_numpy(a)))
    li, lj = lam[..., :, None], lam[..., None, :]
    diff = li - lj
    near = np.abs(diff) <= 1e-6 * np.maximum(1.0, np.maximum(np.abs(li),
                                                              np.abs(lj)))
    d = np.where(near, fprime((li + lj) / 2),
                 (f(li) - f(lj)) / np.where(near, 1.0, diff))
    return v @ (d * (mT(v) @ w @ v)) @ mT(v)


def central_differences(label, loss, args, grad, symmetric, count=4,
                        h=1e-5, tol=1e-6):
    """Central differences of the compiled f64 loss at `count` positions of
    the input (symmetric: perturbing a[i, j] and a[j, i] together, against
    grad[i, j] + grad[j, i]) against the compiled gradient."""
    x = args[0]
    *batch, m, n = x.shape
    for _ in range(count):
        b = tuple(int(rng.integers(0, d)) for d in batch)
        i, j = int(rng.integers(0, m)), int(rng.integers(0, n))
        positions = {(i, j), (j, i)} if symmetric else {(i, j)}
        analytic = sum(float(grad[b + p]) for p in positions)
        values = []
        for sign in (1, -1):
            y = x.copy()
            for p in positions:
                y[b + p] += sign * h
            values.append(float(loss(y, *args[1:])))
        numeric = (values[0] - values[1]) / (2 * h)
        check(f"{label}_fd_{'_'.join(map(str, b + (i, j)))}",
              abs(numeric - analytic) <= tol * max(1.0, abs(numeric)),
              f"{analytic} vs {numeric}")


def finite(name, *arrays):
    ok = all(np.isfinite(f64(a)).all() for a in arrays)
    check(name, ok, "non-finite values")


# --- eigh forward -------------------------------------------------------------


def check_eigh(label, x, got, tol, vectors=True):
    """got = (l, v) of the input `x` (float64 values of what ran)."""
    a = sym_from_lower(x)
    lam, v = (f64(g) for g in got)
    want_l, want_v = (t.numpy() for t in torch.linalg.eigh(torch.from_numpy(a)))
    scale = max(float(np.abs(want_l).max()), 1e-300)
    close(f"{label}_values", lam, want_l, tol, scale)
    if vectors:
        close(f"{label}_vectors", v, want_v * column_signs(want_v), tol, 1.0)
    n = x.shape[-1]
    close(f"{label}_reconstruction", (v * lam[..., None, :]) @ mT(v), a, tol,
          scale)
    close(f"{label}_orthonormal", mT(v) @ v, eye_like(v, n), tol, 1.0)
    index = np.argmax(np.abs(v), axis=-2)[..., None, :]
    check(f"{label}_sign_convention",
          (np.take_along_axis(v, index, axis=-2) > 0).all(), f"{v}")


EIGH_CASES = []
for dtype in ("f64", "f32"):
    for n in (1, 2, 5, 16):
        for batch in ((), (3,), (2, 2)):
            name = f"eigh_{dtype}_n{n}_b{'x'.join(map(str, batch)) or 0}"
            x = with_spectrum(separated(batch, n) * (1 + n / 4))
            EIGH_CASES.append((name, dtype, x))
            declare(f"eigh_{dtype}", name, "eigh", list(x.shape), dtype)
# A random symmetric matrix (eigenvalues gaps not controlled: values and
# reconstruction only).
g = rng.standard_normal((2, 9, 9))
EIGH_CASES.append(("eigh_f64_gaussian", "f64", g + mT(g)))
declare("eigh_f64", "eigh_f64_gaussian", "eigh", [2, 9, 9], "f64")

for name, dtype, x in EIGH_CASES:
    @later([name], name)
    def _(name=name, dtype=dtype, x=x):
        x, x64 = rounded(x, dtype)
        check_eigh(name, x64, fn(name)(x), TOL[dtype],
                   vectors="gaussian" not in name)

# Only the lower triangle is read: garbage, then NaN, above the diagonal.
lower = with_spectrum(separated((3,), 6))
garbage = lower + np.triu(rng.standard_normal((3, 6, 6)) * 100, 1)
nan_upper = lower + np.triu(np.full((3, 6, 6), np.nan), 1)
declare("eigh_special", "eigh_upper", "eigh", [3, 6, 6], "f64")


@later(["eigh_upper"], "eigh_upper")
def _():
    for tag, x in (("garbage", garbage), ("nan", nan_upper)):
        check_eigh(f"eigh_upper_{tag}", x, fn("eigh_upper")(x), TOL["f64"])


# Repeated eigenvalues (vectors: some basis of the eigenspace), a diagonal
# matrix (vectors: signed unit vectors), the zero matrix.
repeated = np.stack([with_spectrum(np.array(s, dtype=np.float64)) for s in
                     ([1, 1, 1, 3, 5], [-2, 4, 4, 4, 4], [2, 2, 2, 2, 2],
                      [0, 0, 1, 1, 7])])
repeated[2] = 2 * np.eye(5)
diagonal = np.diag([3.0, -1.0, 2.0, 0.5, -4.0])
declare("eigh_special", "eigh_repeated", "eigh", [4, 5, 5], "f64")
declare("eigh_special", "eigh_diagonal", "eigh", [5, 5], "f64")
declare("eigh_special", "eigh_zero", "eigh", [3, 3], "f64")


@later(["eigh_repeated"], "eigh_repeated")
def _():
    check_eigh("eigh_repeated", repeated, fn("eigh_repeated")(repeated),
               TOL["f64"], vectors=False)


@later(["eigh_diagonal"], "eigh_diagonal")
def _():
    lam, v = fn("eigh_diagonal")(diagonal)
    check_eigh("eigh_diagonal", diagonal, (lam, v), TOL["f64"])
    check("eigh_diagonal_exact", np.array_equal(lam, np.sort(np.diag(
        diagonal))) and np.array_equal(v, np.eye(5)[:, np.argsort(np.diag(
            diagonal))]), f"{lam} {v}")


@later(["eigh_zero"], "eigh_zero")
def _():
    lam, v = fn("eigh_zero")(np.zeros((3, 3)))
    check("eigh_zero", np.array_equal(lam, np.zeros(3)) and
          np.array_equal(v, np.eye(3)), f"{lam} {v}")


# --- qr forward ---------------------------------------------------------------

def check_qr(label, x, got, tol, torch_too=True):
    q, r = (f64(g) for g in got)
    scale = float(np.abs(x).max())
    k = min(x.shape[-2:])
    if torch_too:
        want_q, want_r = (t.numpy() for t in torch.linalg.qr(
            torch.from_numpy(x)))
        close(f"{label}_q", q, want_q, tol, 1.0)
        close(f"{label}_r", r, want_r, tol, scale)
    close(f"{label}_product", q @ r, x, tol, scale)
    close(f"{label}_r_upper", np.tril(r, -1), np.zeros(r.shape), tol, scale)
    if torch_too:
        close(f"{label}_orthonormal", mT(q) @ q, eye_like(q, k), tol, 1.0)


QR_SHAPES = [(7, 3), (5, 5), (3, 5), (1, 1), (4, 1), (1, 4), (2, 6, 4),
             (2, 2, 4, 4), (3, 3, 5)]
SVD_SHAPES = [(7, 3), (3, 7), (5, 5), (1, 1), (5, 1), (1, 5), (3, 6, 4),
              (2, 2, 4, 6)]
QR_CASES, SVD_CASES = [], []
for dtype in ("f64", "f32"):
    for shape in QR_SHAPES:
        name = f"qr_{dtype}_{'x'.join(map(str, shape))}"
        QR_CASES.append((name, dtype, with_singular_values(
            shape[:-2], *shape[-2:])))
        declare("qr_svd", name, "qr", list(shape), dtype)
    for shape in SVD_SHAPES:
        name = f"svd_{dtype}_{'x'.join(map(str, shape))}"
        SVD_CASES.append((name, dtype, with_singular_values(
            shape[:-2], *shape[-2:])))
        declare("qr_svd", name, "svd", list(shape), dtype)

for name, dtype, x in QR_CASES:
    @later([name], name)
    def _(name=name, dtype=dtype, x=x):
        x, x64 = rounded(x, dtype)
        check_qr(name, x64, fn(name)(x), TOL[dtype])

# A zero column: a = q r and r upper triangular (q^T q = I reported).
qr_zero_column = rng.standard_normal((6, 4))
qr_zero_column[:, 1] = 0
declare("qr_svd", "qr_zero_column", "qr", [6, 4], "f64")


@later(["qr_zero_column"], "qr_zero_column")
def _():
    q, r = fn("qr_zero_column")(qr_zero_column)
    finite("qr_zero_column_finite", q, r)
    check_qr("qr_zero_column", qr_zero_column, (q, r), TOL["f64"],
             torch_too=False)
    print(f"qr_zero_column: |q^T q - I| = "
          f"{np.abs(mT(q) @ q - np.eye(4)).max():.3g}")


# --- svd forward ----------------------------------------------------------------

def check_svd(label, x, got, tol, vectors=True, s_tol=None):
    u, s, vh = (f64(g) for g in got)
    t = torch.from_numpy(x)
    want_s = torch.linalg.svdvals(t).numpy()
    scale = max(float(want_s.max()), 1e-300)
    close(f"{label}_s", s, want_s, s_tol or tol, scale)
    close(f"{label}_reconstruction", (u * s[..., None, :]) @ vh, x, tol,
          scale)
    if vectors:
        want_u, _, want_vh = (y.numpy() for y in torch.linalg.svd(
            t, full_matrices=False))
        sign = row_signs(want_vh)
        close(f"{label}_u", u, want_u * mT(sign), tol, 1.0)
        close(f"{label}_vh", vh, want_vh * sign, tol, 1.0)
        k = s.shape[-1]
        close(f"{label}_u_orthonormal", mT(u) @ u, eye_like(u, k), tol, 1.0)
        close(f"{label}_vh_orthonormal", vh @ mT(vh), eye_like(vh, k), tol,
              1.0)
        check(f"{label}_descending", (np.diff(s, axis=-1) <= 0).all(), f"{s}")


for name, dtype, x in SVD_CASES:
    @later([name], name)
    def _(name=name, dtype=dtype, x=x):
        x, x64 = rounded(x, dtype)
        check_svd(name, x64, fn(name)(x), TOL[dtype])

# Exactly zero singular values: a zero column (tall: u's column is 0), a
# zero row (wide: vh's row is 0), the zero matrix.
svd_zero_column = rng.standard_normal((5, 4))
svd_zero_column[:, 2] = 0
svd_zero_row = rng.standard_normal((3, 5))
svd_zero_row[1] = 0
declare("qr_svd", "svd_zero_column", "svd", [5, 4], "f64")
declare("qr_svd", "svd_zero_row", "svd", [3, 5], "f64")
declare("qr_svd", "svd_zero", "svd", [4, 3], "f64")


@later(["svd_zero_column", "svd_zero_row", "svd_zero"], "svd_zero")
def _():
    u, s, vh = fn("svd_zero_column")(svd_zero_column)
    check_svd("svd_zero_column", svd_zero_column, (u, s, vh), TOL["f64"],
              vectors=False)
    check("svd_zero_column_exact", s[-1] == 0 and (u[:, -1] == 0).all(),
          f"s {s}, u {u}")
    close("svd_zero_column_vh_orthonormal", vh @ mT(vh), np.eye(4),
          TOL["f64"], 1.0)
    close("svd_zero_column_u_orthonormal", mT(u[:, :3]) @ u[:, :3],
          np.eye(3), TOL["f64"], 1.0)
    u, s, vh = fn("svd_zero_row")(svd_zero_row)
    check_svd("svd_zero_row", svd_zero_row, (u, s, vh), TOL["f64"],
              vectors=False)
    check("svd_zero_row_exact", s[-1] == 0 and (vh[-1] == 0).all(),
          f"s {s}, vh {vh}")
    close("svd_zero_row_u_orthonormal", mT(u) @ u, np.eye(3), TOL["f64"], 1.0)
    u, s, vh = fn("svd_zero")(np.zeros((4, 3)))
    check("svd_zero_matrix", (s == 0).all() and (u == 0).all() and
          np.isfinite(vh).all(), f"u {u} s {s} vh {vh}")


# Singular values 1 .. 1e-10: U diag(s) V^T against torch and against
# mpmath's exact singular values of the same float64 matrix, within
# 1e-12 s_i + 1e-15 s_max (any backward-stable SVD errs by a few eps s_max
# in each value: 1e-5 relative in the smallest; measured ~0.2 eps s_max,
# 4e-7 relative, against torch, whose own error is about the same), and a
# column-graded B diag(s) (one-sided Jacobi's case: accurate relative to
# each value) against the exact values within 1e-12 relative (measured
# ~1e-15).
ill_s = np.logspace(0, -10, 6)
ill = with_singular_values((), 8, 6, ill_s)
graded = rng.standard_normal((8, 6)) * ill_s
declare("qr_svd", "svd_ill", "svd", [8, 6], "f64")


@later(["svd_ill"], "svd_ill")
def _():
    mpmath.mp.dps = 40
    for tag, x, absolute in (("ill", ill, 1e-15), ("graded", graded, 0.0)):
        u, s, vh = fn("svd_ill")(x)
        want = torch.linalg.svdvals(torch.from_numpy(x)).numpy()
        exact = np.sort([float(v) for v in mpmath.svd_r(
            mpmath.matrix(x.tolist()), compute_uv=False)])[::-1]
        bound = 1e-12 * exact + absolute * exact[0]
        for other, values in (("torch", want), ("exact", exact)):
            error = np.abs(s - values)
            print(f"svd_{tag}: relative error against {other} "
                  f"{(error / values).max():.3g}")
            check(f"svd_{tag}_s_vs_{other}", (error <= bound).all(),
                  f"relative errors {error / values}")
        print(f"svd_{tag}: torch's relative error "
              f"{(np.abs(want - exact) / exact).max():.3g}")
        close(f"svd_{tag}_reconstruction", (u * s) @ vh, x, TOL["f64"], 1.0)
        close(f"svd_{tag}_orthonormal", vh @ mT(vh), np.eye(6), TOL["f64"],
              1.0)


# --- Matrix functions forward ---------------------------------------------------

def spectral_input(op, batch, n):
    """Symmetric inputs in the domain: random eigenvalues in [-2, 2] for
    expm, [0.3, 5] otherwise."""
    if op == "expm":
        lam = rng.uniform(-2, 2, tuple(batch) + (n,))
    else:
        lam = np.exp(rng.uniform(np.log(0.3), np.log(5), tuple(batch) + (n,)))
    return with_spectrum(lam)


# 2I, Q diag(1, 1, 3) Q^T, Q diag(1, 1 + 1e-9, 3) Q^T and
# Q diag(3 - 2e-9, 3, 3 + 1e-9) Q^T.
REPEATED = np.stack([2 * np.eye(3),
                     with_spectrum(np.array([1.0, 1.0, 3.0])),
                     with_spectrum(np.array([1.0, 1.0 + 1e-9, 3.0])),
                     with_spectrum(np.array([3 - 2e-9, 3.0, 3 + 1e-9]))])
SPECTRAL_CASES = []
for op in SPECTRAL:
    for dtype, batch, n in (("f64", (), 1), ("f64", (3,), 4),
                            ("f64", (2, 2), 9), ("f32", (2,), 4)):
        name = f"{op}_{dtype}_n{n}_b{'x'.join(map(str, batch)) or 0}"
        SPECTRAL_CASES.append((name, op, dtype, spectral_input(op, batch, n)))
        declare("spectral", name, op, list(batch) + [n, n], dtype)
    name = f"{op}_repeated"
    SPECTRAL_CASES.append((name, op, "f64", REPEATED))
    declare("spectral_grad", name, op, [4, 3, 3], "f64", loss=True)

for name, op, dtype, x in SPECTRAL_CASES:
    @later([name], name)
    def _(name=name, op=op, dtype=dtype, x=x):
        x, x64 = rounded(x, dtype)
        got = fn(name)(x)
        finite(f"{name}_finite", got)
        close(name, got, spectral_reference(op, x64), TOL[dtype])


# A NaN in one matrix of a batch: that matrix's results have NaN (eigh and
# svd end after at most 40 sweeps), the others are exact.
nan_batch = np.stack([with_spectrum(separated((), 4)) for _ in range(3)])
nan_batch[1, 2, 1] = np.nan
nan_svd = with_singular_values((3,), 5, 3)
nan_svd[1, 4, 0] = np.nan
declare("eigh_special", "eigh_nan", "eigh", [3, 4, 4], "f64")
declare("eigh_special", "svd_nan", "svd", [3, 5, 3], "f64")


@later(["eigh_nan", "svd_nan"], "nan_batch")
def _():
    got = fn("eigh_nan")(nan_batch)
    check("eigh_nan_is_nan", np.isnan(got[0][1]).any() and
          np.isnan(got[1][1]).any(), f"values {got[0][1]}, vectors "
          f"{got[1][1].tolist()}")
    check_eigh("eigh_nan_others", nan_batch[::2], [g[::2] for g in got],
               TOL["f64"])
    got = fn("svd_nan")(nan_svd)
    check("svd_nan_is_nan", np.isnan(got[1][1]).any(), f"s {got[1][1]}")
    check_svd("svd_nan_others", nan_svd[::2], [g[::2] for g in got],
              TOL["f64"])


# Outside the domain: a negative eigenvalue gives NaN (the other matrix of
# the batch exact); a zero one gives sqrt 0, log -inf, 1/sqrt inf (diagonal
# inputs: eigh is exact, so the [0, 0] element is f(0)).
outside = np.stack([spectral_input("logm", (), 3),
                    with_spectrum(np.array([-1.0, 1.0, 2.0]))])
singular = np.diag([0.0, 1.0, 4.0])
for op in SPECTRAL[1:]:
    declare("spectral", f"{op}_outside", op, [2, 3, 3], "f64")
    declare("spectral", f"{op}_singular", op, [3, 3], "f64")

    @later([f"{op}_outside", f"{op}_singular"], f"{op}_domain")
    def _(op=op):
        got = fn(f"{op}_outside")(outside)
        check(f"{op}_outside_nan", np.isnan(got[1]).any(), f"{got[1]}")
        close(f"{op}_outside_other", got[0],
              spectral_reference(op, outside[0]), TOL["f64"])
        got = fn(f"{op}_singular")(singular)
        if op == "sqrtm":
            check("sqrtm_singular", np.array_equal(got, np.diag(
                [0.0, 1.0, 2.0])), f"{got}")
        else:
            want = -np.inf if op == "logm" else np.inf
            check(f"{op}_singular", got[0, 0] == want, f"{got}")


# --- `?` sizes ------------------------------------------------------------------

declare("dynamic", "eigh_dynamic", "eigh", [None, None, None], "f64")
# qr and svd: m and n static (or equal: min(m, n) is a result size).
for op in ("qr", "svd"):
    for m, n in ((7, 3), (3, 5)):
        declare("dynamic", f"{op}_dynamic_{m}x{n}", op, [None, m, n], "f64")
declare("dynamic", "invsqrtm_dynamic", "invsqrtm", [None, None, None], "f64")


@later(["eigh_dynamic"], "eigh_dynamic")
def _():
    for b, n in ((2, 3), (3, 6), (1, 1)):
        x = with_spectrum(separated((b,), n))
        check_eigh(f"eigh_dynamic_{b}x{n}", x, fn("eigh_dynamic")(x),
                   TOL["f64"])


for op in ("qr", "svd"):
    for m, n in ((7, 3), (3, 5)):
        name = f"{op}_dynamic_{m}x{n}"

        @later([name], name)
        def _(name=name, op=op, m=m, n=n):
            for b in (1, 3):
                x = with_singular_values((b,), m, n)
                (check_qr if op == "qr" else check_svd)(
                    f"{name}_b{b}", x, fn(name)(x), TOL["f64"])


# Gradients with `?` sizes: eigh's batch and n, qr's and svd's batch.
declare("dynamic", "eigh_grad_dynamic", "eigh", [None, None, None], "f64",
        loss=True)
declare("dynamic", "qr_grad_dynamic", "qr", [None, 6, 4], "f64", loss=True)
declare("dynamic", "svd_grad_dynamic", "svd", [None, 3, 5], "f64", loss=True)


@later(["eigh_grad_dynamic_loss_grad", "qr_grad_dynamic_loss_grad",
        "svd_grad_dynamic_loss_grad"], "grad_dynamic")
def _():
    for b, n in ((2, 4), (1, 3)):
        x = with_spectrum(separated((b,), n))
        gradient_check("eigh_grad_dynamic", "eigh", "f64", x,
                       weights([(b, n), (b, n, n)], "f64"))
    for op, (m, n) in (("qr", (6, 4)), ("svd", (3, 5))):
        for b in (1, 3):
            x = with_singular_values((b,), m, n)
            gradient_check(f"{op}_grad_dynamic", op, "f64", x, weights(
                result_shapes(op, [b, m, n]), "f64"))


@later(["invsqrtm_dynamic"], "invsqrtm_dynamic")
def _():
    for b, n in ((2, 4), (1, 2), (3, 7)):
        x = spectral_input("invsqrtm", (b,), n)
        close(f"invsqrtm_dynamic_{b}x{n}", fn("invsqrtm_dynamic")(x),
              spectral_reference("invsqrtm", x), TOL["f64"])


# --- Gradients ----------------------------------------------------------------

def torch_loss(op, t, ws, x64):
    """The loss of `op` on the leaf `t` (float64) with the weights `ws`,
    the eigen- and singular vectors signed as the op signs them (constant
    factors from the forward values)."""
    w = [torch.from_numpy(f64(v)) for v in ws]
    if op == "eigh":
        lam, v = torch.linalg.eigh(t)
        sign = torch.from_numpy(column_signs(v.detach().numpy()))
        return (lam * w[0]).sum() + (v * sign * w[1]).sum()
    if op == "qr":
        q, r = torch.linalg.qr(t)
        return (q * w[0]).sum() + (r * w[1]).sum()
    if op == "svd":
        u, s, vh = torch.linalg.svd(t, full_matrices=False)
        sign = torch.from_numpy(row_signs(vh.detach().numpy()))
        return ((u * sign.mT * w[0]).sum() + (s * w[1]).sum()
                + (vh * sign * w[2]).sum())
    if op == "expm":
        return (torch.linalg.matrix_exp(t) * w[0]).sum()
    lam, v = torch.linalg.eigh(t)
    f = {"logm": torch.log, "sqrtm": torch.sqrt,
         "invsqrtm": torch.rsqrt}[op](lam)
    return ((v * f[..., None, :]) @ v.mT * w[0]).sum()


def gradient_check(label, op, dtype, x, ws, fd=False, dk=False):
    """The compiled loss and gradient against torch.autograd (and the
    explicit Daleckii-Krein formula with `dk`)."""
    x, x64 = rounded(x, dtype)
    symmetric = op == "eigh" or op in SPECTRAL
    if symmetric:
        x64 = sym_from_lower(x64)
    t = torch.tensor(x64, requires_grad=True)
    loss = torch_loss(op, t, ws, x64)
    loss.backward()
    want = t.grad.numpy()
    got_loss, got = fn(f"{label}_loss_grad")(x, *ws)
    got = f64(got)
    close(f"{label}_loss", got_loss, loss.item(), TOL[dtype],
          max(1.0, abs(loss.item())))
    finite(f"{label}_grad_finite", got)
    tol = GRAD_TOL[dtype]
    if op in ("logm", "sqrtm", "invsqrtm", "eigh"):
        # Autograd through eigh gives a symmetric gradient: for logm, sqrtm
        # and invsqrtm the symmetric part of the Daleckii-Krein one (all of
        # it for a symmetric weight); eigh's own, torch's
        # v (skew(v^T gv) / e + diag(gl)) v^T, must be matched as it is.
        close(f"{label}_grad_symmetric_part", (got + mT(got)) / 2, want, tol)
    if op not in ("logm", "sqrtm", "invsqrtm"):
        close(f"{label}_grad", got, want, tol)
    if op == "eigh" and not np.allclose(got, want, rtol=tol,
                                        atol=tol * np.abs(want).max()):
        # Tell a gradient that differs only by an antisymmetric part.
        sym = (got + mT(got)) / 2
        print(f"{label}: |grad - torch| = {np.abs(got - want).max():.3g}, "
              f"|sym(grad) - torch| = {np.abs(sym - want).max():.3g}, "
              f"|grad - grad^T| = {np.abs(got - mT(got)).max():.3g}")
    if dk:
        close(f"{label}_grad_daleckii_krein", got,
              daleckii_krein(op, x64, f64(ws[0])), tol)
    if fd:
        central_differences(label, fn(f"{label}_loss"), [x] + list(ws), got,
                            symmetric)


GRADIENTS = []  # (label, op, dtype, input, symmetric weights, fd, dk)
for dtype, batch, n, fd in (("f64", (), 4, True), ("f64", (2,), 6, False),
                            ("f32", (3,), 5, False)):
    GRADIENTS.append((f"eigh_grad_{dtype}_{n}", "eigh", dtype,
                      with_spectrum(separated(batch, n)), False, fd, False))
for dtype, shape, fd in (("f64", (7, 3), True), ("f64", (4, 4), False),
                         ("f64", (2, 5, 2), False), ("f32", (6, 4), False)):
    GRADIENTS.append((f"qr_grad_{dtype}_{'x'.join(map(str, shape))}", "qr",
                      dtype, with_singular_values(shape[:-2], *shape[-2:]),
                      False, fd, False))
for dtype, shape, fd in (("f64", (6, 4), False), ("f64", (3, 5), True),
                         ("f64", (4, 4), False), ("f64", (2, 3, 5), False),
                         ("f32", (5, 3), False)):
    GRADIENTS.append((f"svd_grad_{dtype}_{'x'.join(map(str, shape))}", "svd",
                      dtype, with_singular_values(shape[:-2], *shape[-2:]),
                      False, fd, False))
for op in SPECTRAL:
    x = with_spectrum(separated((2,), 4, low=0.4, gap=0.3)) \
        if op != "expm" else with_spectrum(separated((2,), 4, low=-1.5))
    # An unsymmetric weight: the Daleckii-Krein gradient (torch's
    # matrix_exp takes it; autograd through eigh takes its symmetric part).
    GRADIENTS.append((f"{op}_grad", op, "f64", x, False, op == "expm",
                      op != "expm"))
    if op != "expm":
        # A symmetric weight: autograd through the eigh reference.
        GRADIENTS.append((f"{op}_grad_symmetric_weight", op, "f64", x, True,
                          False, True))
    GRADIENTS.append((f"{op}_grad_f32", op, "f32", x[:1], True, False,
                      False))

for label, op, dtype, x, symmetric, fd, dk in GRADIENTS:
    declare("grad" if op in ("eigh", "qr", "svd") else "spectral_grad",
            label, op, list(x.shape), dtype, loss=True)

    @later([label + "_loss_grad"], label)
    def _(label=label, op=op, dtype=dtype, x=x, symmetric=symmetric, fd=fd,
          dk=dk):
        shapes = result_shapes(op, list(x.shape))
        gradient_check(label, op, dtype, x, weights(shapes, dtype, symmetric),
                       fd=fd, dk=dk)


# Repeated and nearly repeated eigenvalues: the Daleckii-Krein formula with
# f' where eigenvalues meet, expm's against torch.linalg.matrix_exp's
# autograd, and central differences of the compiled forward.
for op in SPECTRAL:
    @later([f"{op}_repeated_loss_grad"], f"{op}_repeated_grad")
    def _(op=op):
        label = f"{op}_repeated"
        w = weights([REPEATED.shape], "f64")[0]
        loss, got = fn(f"{label}_loss_grad")(REPEATED, w)
        finite(f"{label}_grad_finite", loss, got)
        close(f"{label}_grad_daleckii_krein", got,
              daleckii_krein(op, REPEATED, w), 1e-8)
        if op == "expm":
            t = torch.tensor(REPEATED, requires_grad=True)
            (torch.linalg.matrix_exp(t) * torch.from_numpy(w)).sum().backward()
            close(f"{label}_grad_torch", got, t.grad.numpy(), 1e-8)
        central_differences(label, fn(f"{label}_loss"), [REPEATED, w], got,
                            True, count=12)


# Losses of the eigenvalues only and of the singular values only (the
# vectors unused) at repeated values, the weights equal within each
# repeated group: finite, v diag(w) v^T and u diag(w) vh.
declare("grad", "eigh_values_repeated", "eigh", [5, 5], "f64", loss=True,
        used=[0])
declare("grad", "svd_values_repeated", "svd", [5, 4], "f64", loss=True,
        used=[1])


@later(["eigh_values_repeated_loss_grad", "svd_values_repeated_loss_grad"],
       "values_repeated_grad")
def _():
    x = with_spectrum(np.array([1.0, 1.0, 1.0, 3.0, 5.0]))
    wl = np.array([2.0, 2.0, 2.0, -1.0, 0.5])
    _, v = (t.numpy() for t in torch.linalg.eigh(torch.from_numpy(x)))
    _, got = fn("eigh_values_repeated_loss_grad")(x, wl)
    finite("eigh_values_repeated_grad_finite", got)
    close("eigh_values_repeated_grad", got, (v * wl) @ mT(v), GRAD_TOL["f64"])
    x = with_singular_values((), 5, 4, np.array([3.0, 2.0, 2.0, 1.0]))
    ws = np.array([1.0, -2.0, -2.0, 0.5])
    u, _, vh = (t.numpy() for t in torch.linalg.svd(torch.from_numpy(x),
                                                      full_matrices=False))
    _, got = fn("svd_values_repeated_loss_grad")(x, ws)
    finite("svd_values_repeated_grad_finite", got)
    close("svd_values_repeated_grad", got, (u * ws) @ vh, GRAD_TOL["f64"])


# qr of a wide matrix has no gradient rule: a located error naming rlx.qr,
# not a crash.
declare("qr_wide_grad", "qr_wide", "qr", [3, 5], "f64", loss=True)

# --- Compiling (two at a time) and running the checks -----------------------


def compile_group(group):
    try:
        return rlx.compile("\n".join(GROUPS[group]))
    except rlx.Error as e:
        return e


rlx.get_num_threads()  # loads the runtime before the compiling threads
# The slowest modules first.
order = ["grad", "spectral_grad", "eigh_f64", "qr_svd", "spectral",
         "eigh_f32", "dynamic", "eigh_special", "qr_wide_grad"]
assert sorted(order) == sorted(GROUPS)
with concurrent.futures.ThreadPoolExecutor(2) as pool:
    modules = dict(zip(order, pool.map(compile_group, order)))
print(f"compiled in {time.time() - START:.1f} s")

error = modules.pop("qr_wide_grad")
message = str(error)
check("qr_wide_grad_is_an_error", isinstance(error, rlx.Error), "compiled")
check("qr_wide_grad_diagnostic", "error" in message and "rlx.qr" in message
      and "PLEASE submit a bug report" not in message
      and "Stack dump" not in message, message)
for group, m in modules.items():
    ok = not isinstance(m, rlx.Error)
    check(f"{group}_compiles", ok, "" if ok else str(m))

for functions, label, closure in LATER:
    if any(isinstance(modules.get(WHERE[f]), rlx.Error) for f in functions):
        continue  # counted as the module's failure
    try:
        closure()
    except Exception as e:  # a failure of this check, not of the others
        check(f"{label}_runs", False, f"{type(e).__name__}: {e}")
print(f"total {time.time() - START:.1f} s")
finish()
