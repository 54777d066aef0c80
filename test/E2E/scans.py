# RUN: %oracle_python %s
# RUN: env RLX_TEST_TARGET=gpu-blocks-descending %oracle_python %s
# REQUIRES: torch
# argmax/argmin, cumsum/cumprod/cummax (inclusive and exclusive) and topk
# against PyTorch: ties (inputs drawn from a few values), NaN, -inf and
# integer-minimum rows (the accumulators' starting values), every axis and
# negative axes, odd sizes, size-1 and empty axes, no rows at all, rank 1
# and rank 4, integer, f16 and bf16 inputs, topk with k = 1 and k = n.
# The second RUN line compiles the scans with the GPU's schedule, one line
# per iteration of a parallel loop (rlx.associative_scan's scalar form for every axis).
import sys

import numpy as np
import torch
from rlx_testing import Suite, elem_of, type_of, ttype

inf, nan = float("inf"), float("nan")
rng = np.random.default_rng(7)
s = Suite(compile_args=sys.argv[1:])
# An n-term f32 running sum is off by up to ~sqrt(n) ulp of the terms, not
# of the (possibly cancelled) partial sum: atol 1e-5.
F32_SUM = (1e-5, 1e-5)


def ties(shape, dtype=np.float32, values=4):
    """Entries from a few values, so that most rows have repeated extrema."""
    return rng.integers(-values // 2, values - values // 2, shape).astype(dtype)


# --- argmax / argmin: ties give the smallest index, the first NaN wins ---

def arg(name, op, x, axis, keep=False, index="i64"):
    axis_n = axis % x.ndim
    shape = [1 if d == axis_n else n for d, n in enumerate(x.shape)
             if keep or d != axis_n]
    out = ttype(shape, index)
    s.case(name, f"%r = rlx.{op} %a0 axis = {axis}{' keep_dim' if keep else ''}"
           f" : {type_of(x)} -> {out}", [x],
           lambda t: getattr(torch, op)(t, dim=axis, keepdim=keep), out=out)


x3 = ties((3, 5, 7))
for op in ("argmax", "argmin"):
    for axis in (0, 1, 2, -1, -3):
        arg(f"{op}_axis{axis}".replace("-", "neg"), op, x3, axis)
    arg(f"{op}_keep_dim", op, x3, 1, keep=True)
    arg(f"{op}_keep_dim_first", op, x3, 0, keep=True, index="i32")
    arg(f"{op}_i32_result", op, x3, -1, index="i32")
    arg(f"{op}_rank1", op, ties((9,)), 0)
    arg(f"{op}_rank1_keep", op, ties((9,)), -1, keep=True)
    arg(f"{op}_rank4", op, ties((2, 3, 1, 5)), 3, keep=True)
    arg(f"{op}_size1_axis", op, ties((4, 1, 3)), 1)
    arg(f"{op}_uniform_f32", op, rng.standard_normal((6, 11)).astype(
        np.float32), 0)
    arg(f"{op}_f64", op, ties((5, 4), np.float64), 1)
    arg(f"{op}_f16", op, ties((4, 6), np.float16, values=3), 1)
    arg(f"{op}_i8", op, ties((5, 6), np.int8), 0)
    arg(f"{op}_i32", op, ties((3, 8), np.int32), -1)
    arg(f"{op}_i64", op, ties((4, 3), np.int64) * 2**40, 1)
# NaN: torch ranks it above every number for argmax and below for argmin,
# so the first NaN wins either way.
xn = ties((4, 6))
xn[0, [2, 4]] = nan
xn[1, :] = nan
xn[2, 5] = nan
for op in ("argmax", "argmin"):
    arg(f"{op}_nan", op, xn, 1)
    arg(f"{op}_nan_axis0", op, xn, 0)
# Rows made only of the accumulators' starting values still give index 0
# (or the first occurrence).
extremes = np.array([[-inf, -inf, -inf], [inf, inf, inf], [-inf, inf, -inf],
                     [inf, -inf, inf]], np.float32)
imin, imax = np.iinfo(np.int32).min, np.iinfo(np.int32).max
iextremes = np.array([[imin, imin, imin], [imax, imax, imax],
                      [imin, imax, imax], [imax, imin, imin]], np.int32)
for op in ("argmax", "argmin"):
    arg(f"{op}_infinities", op, extremes, 1)
    arg(f"{op}_int_extremes", op, iextremes, 1)
    # No rows at all: an empty result (the reduced axis itself is not empty).
    arg(f"{op}_no_rows", op, np.zeros((0, 5), np.float32), 1)


# --- cumsum / cumprod / cummax, inclusive and exclusive ---

def cummax_values(t, axis):
    return torch.cummax(t, dim=axis).values


SCANS = {"cumsum": (torch.cumsum, 0), "cumprod": (torch.cumprod, 1),
         "cummax": (cummax_values, None)}


def exclusive_ref(inclusive, identity, axis):
    """out[i] = inclusive[i - 1], out[0] = identity."""
    def ref(t):
        full = inclusive(t, axis)
        first = torch.full_like(full.narrow(axis, 0, 1), identity)
        rest = full.narrow(axis, 0, t.shape[axis] - 1)
        return torch.cat([first, rest], dim=axis)
    return ref


def scan(name, op, x, axis, exclusive=False, tol=None):
    fn, identity = SCANS[op]
    if identity is None:  # cummax: the smallest value of the type
        identity = -inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    ref = exclusive_ref(fn, identity, axis) if exclusive else \
        (lambda t: fn(t, axis))
    if tol is None and op == "cumsum" and x.dtype == np.float32:
        tol = F32_SUM
    s.case(name, f"%r = rlx.{op} %a0 axis = {axis}"
           f"{' exclusive' if exclusive else ''} : {type_of(x)}", [x], ref,
           out=type_of(x), tol=tol)


xs = rng.uniform(-1, 1, (3, 5, 7)).astype(np.float32)
xp = rng.uniform(0.7, 1.4, (3, 5, 7)).astype(np.float32)  # for cumprod
for op in ("cumsum", "cumprod", "cummax"):
    x = xp if op == "cumprod" else xs
    for axis in (0, 1, 2, -1, -2):
        for excl in (False, True):
            scan(f"{op}_axis{axis}{'_excl' if excl else ''}".replace(
                "-", "neg"), op, x, axis, excl)
    scan(f"{op}_rank1", op, x[0, 0], 0)
    scan(f"{op}_rank1_excl", op, x[1, 2], -1, exclusive=True)
    scan(f"{op}_rank4", op, x.reshape(3, 5, 1, 7)[:, :3], 1)
    scan(f"{op}_rank4_excl", op, x.reshape(3, 5, 1, 7)[:, :3], -1, True)
    scan(f"{op}_size1_axis", op, x[:, :1], 1)
    scan(f"{op}_size1_axis_excl", op, x[:, :1], 1, exclusive=True)
    scan(f"{op}_empty_axis", op, np.zeros((3, 0, 2), np.float32), 1)
    scan(f"{op}_no_rows_excl", op, np.zeros((0, 4), np.float32), 1, True)
    scan(f"{op}_f64", op, x.astype(np.float64), 1)
    scan(f"{op}_f64_excl", op, x.astype(np.float64), 2, exclusive=True)
    # f16 carries the running value in f32: each output is rounded once.
    scan(f"{op}_f16", op, x.astype(np.float16), 2)
    scan(f"{op}_f16_excl", op, x.astype(np.float16), 0, exclusive=True)
# Integers: sums and products wrap like the type; cummax starts at the
# type's minimum.
xi = rng.integers(-1000, 1000, (4, 6)).astype(np.int32)
xi[0, :2] = [2**31 - 1, 5]
scan("cumsum_i32_wraps", "cumsum", xi, 1)
scan("cumsum_i32_excl", "cumsum", xi, 0, exclusive=True)
scan("cumsum_i8", "cumsum", ties((3, 9), np.int8, values=200), -1)
scan("cumprod_i64", "cumprod", ties((3, 8), np.int64, values=7), 1)
scan("cumprod_i64_excl", "cumprod", ties((3, 8), np.int64, values=7), 1, True)
for dtype in (np.int8, np.int32, np.int64):
    xt = ties((4, 5), dtype, values=9)
    scan(f"cummax_{np.dtype(dtype).name}", "cummax", xt, 1)
    scan(f"cummax_{np.dtype(dtype).name}_excl", "cummax", xt, -1, True)
# NaN propagates through cumsum/cumprod and stays the running max from its
# position on; -inf and the type's minimum leave cummax's start unchanged.
xnan = rng.uniform(-1, 1, (3, 6)).astype(np.float32)
xnan[0, 2] = xnan[1, 0] = xnan[2, 5] = nan
for op in ("cumsum", "cumprod", "cummax"):
    scan(f"{op}_nan", op, xnan, 1)
    scan(f"{op}_nan_excl", op, xnan, 1, exclusive=True)
scan("cummax_infinities", "cummax", extremes, 1)
scan("cummax_infinities_excl", "cummax", extremes, 1, exclusive=True)
scan("cummax_int_extremes_excl", "cummax", iextremes, 1, exclusive=True)


# --- topk: sorted, ties give the smaller index first, NaN ranks highest ---

def topk(name, x, k, smallest=False):
    shape = list(x.shape[:-1]) + [k]
    values, indices = ttype(shape, elem_of(x)), ttype(shape, "i64")

    # torch.topk orders ties arbitrarily; a stable sort states the contract.
    def ref(t):
        v, i = torch.sort(t, dim=-1, descending=not smallest, stable=True)
        return v[..., :k], i[..., :k]

    s.case(name, f"%r0, %r1 = rlx.topk %a0 k = {k}"
           f"{' smallest' if smallest else ''} : {type_of(x)} -> {values}, "
           f"{indices}", [x], ref, out=[values, indices])


xk = ties((4, 9))
for smallest in (False, True):
    tag = "_smallest" if smallest else ""
    for k in (1, 3, 9):
        topk(f"topk_k{k}{tag}", xk, k, smallest)
    topk(f"topk_rank1{tag}", ties((7,)), 4, smallest)
    topk(f"topk_rank3{tag}", ties((2, 3, 5)), 2, smallest)
    topk(f"topk_rank4{tag}", ties((2, 1, 3, 6)), 6, smallest)
    topk(f"topk_size1_axis{tag}", ties((3, 1)), 1, smallest)
    topk(f"topk_uniform{tag}", rng.standard_normal((3, 17)).astype(
        np.float32), 5, smallest)
    topk(f"topk_f16{tag}", ties((3, 8), np.float16), 4, smallest)
    topk(f"topk_f64{tag}", ties((3, 8), np.float64), 8, smallest)
    topk(f"topk_i8{tag}", ties((3, 8), np.int8), 5, smallest)
    topk(f"topk_i64{tag}", ties((3, 8), np.int64) * 2**40, 3, smallest)
    topk(f"topk_nan{tag}", xn, 6, smallest)
    topk(f"topk_infinities{tag}", extremes, 3, smallest)
    topk(f"topk_int_extremes{tag}", iextremes, 3, smallest)
    topk(f"topk_no_rows{tag}", np.zeros((2, 0, 5), np.float32), 2, smallest)

# bf16 cannot cross .npy: f32 arguments holding bf16-exact values are cast
# in, and value results cast back out to f32.
xb = ties((3, 8)) / 4  # quarters: exact in bf16
tb, tb3 = ttype(xb.shape, "bf16"), ttype((3, 3), "bf16")
cast_in = f"%x = rlx.cast %a0 : {type_of(xb)} -> {tb}\n  "
s.case("argmax_bf16", cast_in + f"%r = rlx.argmax %x axis = 1 : {tb} -> "
       "tensor<3xi64>", [xb], lambda t: torch.argmax(t, dim=1),
       out="tensor<3xi64>")
s.case("cumsum_bf16", cast_in + f"%y = rlx.cumsum %x axis = 1 : {tb}\n  "
       f"%r = rlx.cast %y : {tb} -> {type_of(xb)}", [xb],
       lambda t: torch.cumsum(t, dim=1), out=type_of(xb), tol="bf16")
s.case("topk_bf16_smallest", cast_in + f"%v, %r1 = rlx.topk %x k = 3 smallest"
       f" : {tb} -> {tb3}, tensor<3x3xi64>\n  "
       f"%r0 = rlx.cast %v : {tb3} -> tensor<3x3xf32>", [xb],
       lambda t: tuple(r[..., :3] for r in torch.sort(t, dim=-1, stable=True)),
       out=["tensor<3x3xf32>", "tensor<3x3xi64>"])
s.run()
