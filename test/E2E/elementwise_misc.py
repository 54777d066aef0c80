# RUN: %oracle_python %s
# REQUIRES: torch
# where (broadcasting), cast between f32/f16/f64/i32/i64/i8/i16/i1 (rounding,
# saturation, NaN -> 0, -> i1 is != 0), clamp with one or two bounds, fma
# (single rounding) and stop_gradient.
import math

import numpy as np
import torch
from rlx_testing import Suite, elem_of, type_of, ttype

inf, nan = float("inf"), float("nan")
rng = np.random.default_rng(2)
s = Suite(fold=True)

# --- where ------------------------------------------------------------------
cond = rng.random((2, 1, 4)) < 0.5
a = rng.standard_normal((3, 1)).astype(np.float32)
b = np.array(nan, np.float32)
for name, ins in (("where_f32_bcast", [cond, a, b]),
                  ("where_i32_bcast", [cond, np.arange(4, dtype=np.int32),
                                       np.array([[-7]], np.int32)]),
                  ("where_i1", [cond[0], cond[1], ~cond[0]]),
                  ("where_rank0_cond", [np.array(True), a, a.T])):
    shape = np.broadcast_shapes(*[x.shape for x in ins])
    out = ttype(shape, elem_of(ins[1]))
    s.case(name, f"%r = rlx.where %a0, %a1, %a2 : ({type_of(ins[0])}, "
           f"{type_of(ins[1])}, {type_of(ins[2])}) -> {out}", ins,
           torch.where, out=out, tol="exact")

# --- cast -------------------------------------------------------------------
# Sources per element type; the numpy reference below is the op's spec.
FLOATS = [0.0, -0.0, 0.1, 1.5, -1.5, 2.5, -2.7, 100.3, -129.9, 300.0,
          -300.0, 65504.0, 65520.0, 70000.0, -70000.0, 3e9, -3e9, 1e10,
          -1e10, 1e19, -1e19, 2147483520.0, 16777217.0, 1e-8, 1e-30,
          1 + 2**-11 + 2**-30,  # f64 -> f16 must round once: to 1 + 2**-10
          inf, -inf, nan]
INTS = [0, 1, -1, 2, -2, 100, -100, 127, -128, 300, -300, 65519, 65521,
        16777217, 2**31 - 1, -2**31, 2**40 + 1, -(2**53) - 1, 2**63 - 1,
        -2**63]
TYPES = {"f32": np.float32, "f16": np.float16, "f64": np.float64,
         "i32": np.int32, "i64": np.int64, "i8": np.int8, "i16": np.int16,
         "i1": np.bool_}


def source(name):
    dt = TYPES[name]
    if name == "i1":
        return np.array([False, True, True, False])
    if name[0] == "f":
        with np.errstate(over="ignore"):
            return np.array(FLOATS, np.float64).astype(dt)
    info = np.iinfo(dt)
    return np.array([v for v in INTS if info.min <= v <= info.max], dt)


def cast_ref(x, to):
    """Floats round to nearest even (once); float -> int truncates toward
    zero and saturates, NaN -> 0; -> i1 is x != 0; i1 -> 0/1; ints are
    signed."""
    dt = TYPES[to]
    if to == "i1":
        return x != 0
    if to[0] == "f":
        with np.errstate(over="ignore"):
            return x.astype(dt)  # numpy rounds once, from the exact value
    info = np.iinfo(dt)
    if x.dtype.kind == "f":
        return np.array([0 if math.isnan(v) else
                         min(max(math.trunc(v) if math.isfinite(v) else v,
                                 info.min), info.max) for v in x.tolist()],
                        dt)
    return x.astype(dt)


for src in TYPES:
    for dst in TYPES:
        if src == dst:
            continue
        x = source(src)
        if src[0] == "i" and dst[0] == "i" and "i1" not in (src, dst):
            # Integer narrowing is not specified by the op: in range only.
            info = np.iinfo(TYPES[dst])
            x = x[(x >= info.min) & (x <= info.max)]
        want = cast_ref(x, dst)
        s.case(f"cast_{src}_to_{dst}",
               f"%r = rlx.cast %a0 : {type_of(x)} -> {ttype(x.shape, dst)}",
               [x], lambda _x, want=want: want, out=ttype(x.shape, dst),
               tol="exact")

# --- clamp ------------------------------------------------------------------
xf = np.concatenate([rng.uniform(-4, 4, 20),
                     [nan, inf, -inf, -1.0, 2.0, 0.0]]).astype(np.float32)
xi = np.arange(-6, 7, dtype=np.int32)
for name, x, bounds, lo, hi in (
        ("clamp_f32_both", xf, "min = -1.0 : f64, max = 2.0 : f64", -1, 2),
        ("clamp_f32_min", xf, "min = -1.0 : f64", -1, None),
        ("clamp_f32_max", xf, "max = 0.5 : f64", None, 0.5),
        ("clamp_i32_both", xi, "min = -2.0 : f64, max = 3.0 : f64", -2, 3),
        # Integer bounds truncate toward zero: [-2.5, 3.7] -> [-2, 3].
        ("clamp_i32_frac", xi, "min = -2.5 : f64, max = 3.7 : f64", -2, 3),
        ("clamp_i32_max", xi, "max = -4.0 : f64", None, -4),
        ("clamp_i8_min", xi.astype(np.int8), "min = 1.9 : f64", 1, None),
        # Bounds outside the type's range clamp nothing on that side.
        ("clamp_i8_wide", np.array([-128, -5, 0, 7, 127], np.int8),
         "min = -1000.0 : f64, max = 1000.0 : f64", None, None),
        ("clamp_i32_wide", np.array([-2**31, -5, 2**31 - 1], np.int32),
         "min = -1.0e10 : f64, max = 3.0e9 : f64", None, None),
        ("clamp_i64_huge", np.array([-2**63, 0, 2**63 - 1], np.int64),
         "min = -1.0e30 : f64, max = 5.0e18 : f64", None, 5 * 10**18)):
    s.case(name, f"%r = rlx.clamp %a0 {{{bounds}}} : {type_of(x)}", [x],
           lambda t, lo=lo, hi=hi: t if lo is None and hi is None else
           torch.clamp(t, lo, hi), out=type_of(x),
           tol="exact")

# --- fma --------------------------------------------------------------------
fa = rng.standard_normal((2, 1, 4)).astype(np.float32)
fb = rng.standard_normal((3, 1)).astype(np.float32)
fc = np.array(0.25, np.float32)
s.case("fma_f32_bcast", "%r = rlx.fma %a0, %a1, %a2 : (tensor<2x1x4xf32>, "
       "tensor<3x1xf32>, tensor<f32>) -> tensor<2x3x4xf32>", [fa, fb, fc],
       lambda a, b, c: a * b + c, out="tensor<2x3x4xf32>")
# (1+e)^2 - (1+2e) = e^2 exactly, but rounding the product first gives 0.
for name, elem, dt, e in (("fma_f32_single_rounding", "f32", np.float32,
                           2.0**-12),
                          ("fma_f64_single_rounding", "f64", np.float64,
                           2.0**-27)):
    one_e = np.array([1 + e, 2.0, 3.0], dt)
    c = np.array([-(1 + 2 * e), 0.5, -6.0], dt)
    want = np.array([e * e, 2.0 * 2.0 + 0.5, 3.0], dt)
    t = f"tensor<3x{elem}>"
    s.case(name, f"%r = rlx.fma %a0, %a1, %a2 : ({t}, {t}, {t}) -> {t}",
           [one_e, one_e, c], lambda *_, want=want: want, out=t, tol="exact")

# --- stop_gradient ----------------------------------------------------------
for name, x in (("stop_gradient_f32", xf), ("stop_gradient_i32", xi),
                ("stop_gradient_i1", cond),
                ("stop_gradient_f16_rank0", np.array(1.5, np.float16))):
    s.case(name, f"%r = rlx.stop_gradient %a0 : {type_of(x)}", [x],
           lambda t: t, out=type_of(x), tol="exact")
s.run()
