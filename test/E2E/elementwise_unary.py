# RUN: %oracle_python %s
# REQUIRES: torch
# The 29 unary activations on random inputs plus edge values (zeros, large
# magnitudes, infinities, NaN) in f32, f64 and f16, against torch in float64;
# the ops that also take integers (relu, neg, abs, sign) on i32 as well. Each
# case also runs folded (constant inputs).
import numpy as np
import torch
import torch.nn.functional as F
from rlx_testing import Suite, elem_of, type_of

inf, nan = float("inf"), float("nan")
rng = np.random.default_rng(0)
# Edges every activation defines: signed zeros, large values (where the naive
# formulas overflow in f32), the f32 extremes, infinities and NaN.
EDGES = [0.0, -0.0, 20.0, -20.0, 90.0, -90.0, 1e4, -1e4, 3e38, -3e38,
         inf, -inf, nan]


def values(edges, low=-6.0, high=6.0, n=48):
    """[8, k] f32: the edges, then uniform random values in [low, high)."""
    x = np.concatenate([np.array(edges, np.float64),
                        rng.uniform(low, high, n)]).astype(np.float32)
    return np.pad(x, (0, -len(x) % 8), constant_values=1.0).reshape(8, -1)


def softplus(x):  # F.softplus returns x above 20 (off by 2e-9) or overflows
    return torch.clamp(x, min=0) + torch.log1p(torch.exp(-x.abs()))


POSITIVE = [0.0, -0.0, 1e-30, 1e-3, 1.0, 1e4, 3e38, inf, -1.0, nan]
ROUNDING = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, -0.49999997,
            8388607.5, -8388607.5, 1e20, -1e20, 0.0, -0.0, inf, -inf, nan]
# name: (torch reference, input values)
OPS = {
    "gelu": (F.gelu, values(EDGES)),
    "gelu_approx": (lambda x: F.gelu(x, approximate="tanh"), values(EDGES)),
    "silu": (F.silu, values(EDGES)),
    "relu": (torch.relu, values(EDGES)),
    "sigmoid": (torch.sigmoid, values(EDGES)),
    "tanh": (torch.tanh, values(EDGES)),
    "exp": (torch.exp, values(EDGES + [88.0, 89.0, -87.0, -104.0])),
    "log": (torch.log, values(POSITIVE, 1e-3, 100.0)),
    "sqrt": (torch.sqrt, values(POSITIVE, 0.0, 100.0)),
    "rsqrt": (torch.rsqrt, values(POSITIVE, 1e-3, 100.0)),
    "neg": (torch.neg, values(EDGES)),
    "abs": (torch.abs, values(EDGES)),
    "sin": (torch.sin, values(EDGES + [np.pi, 1e6])),
    "cos": (torch.cos, values(EDGES + [np.pi / 2, 1e6])),
    "tan": (torch.tan, values(EDGES + [np.pi / 2, 1.5], -1.5, 1.5)),
    "atan": (torch.atan, values(EDGES)),
    "recip": (torch.reciprocal, values(EDGES + [1e-30, 4e38 / 3])),
    "round": (torch.round, values(ROUNDING, -20, 20)),
    "floor": (torch.floor, values(ROUNDING, -20, 20)),
    "ceil": (torch.ceil, values(ROUNDING, -20, 20)),
    # torch.sign(NaN) is 0; rlx's sign leaves NaN (like numpy): no NaN here.
    "sign": (torch.sign, values(EDGES[:-1] + [1e-40, -1e-40])),
    "softplus": (softplus, values(EDGES)),
    "elu": (F.elu, values(EDGES)),
    "erf": (torch.erf, values(EDGES, -4, 4)),
    # x*6 overflows f32 above 5.6e37 (torch's f32 kernel too): no 3e38.
    "hard_swish": (F.hardswish,
                   values(EDGES[:8] + EDGES[10:] + [-3.0, 3.0, -1.5], -5, 5)),
    "hard_sigmoid": (F.hardsigmoid, values(EDGES + [-3.0, 3.0], -5, 5)),
    "mish": (F.mish, values(EDGES)),
    "softsign": (F.softsign, values(EDGES)),
    "log_sigmoid": (F.logsigmoid, values(EDGES)),
}
INT_OPS = {"relu": torch.relu, "neg": torch.neg, "abs": torch.abs,
           "sign": torch.sign}

s = Suite(fold=True)
for op, (ref, x32) in OPS.items():
    exact = op in ("relu", "neg", "abs", "round", "floor", "ceil", "sign")
    # f64 gets the same values, f16 the values it holds.
    x64 = x32.astype(np.float64)
    with np.errstate(over="ignore"):
        x16 = x32.astype(np.float16)
    for x in (x32, x64, x16):
        s.case(f"{op}_{elem_of(x)}", f"%r = rlx.{op} %a0 : {type_of(x)}",
               [x], ref, out=type_of(x), tol="exact" if exact else None)

ints = np.concatenate([[0, 1, -1, 2**31 - 1, -2**31 + 1],
                       rng.integers(-1000, 1000, 19)]).astype(np.int32)
ints = ints.reshape(3, 8)
for op, ref in INT_OPS.items():
    s.case(f"{op}_i32", f"%r = rlx.{op} %a0 : {type_of(ints)}", [ints], ref,
           out=type_of(ints))
s.run()
