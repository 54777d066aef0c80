# RUN: %oracle_python %s
# RUN: %oracle_python %s --no-fuse
# REQUIRES: torch
# The gradient rule of every differentiable rlx op that test/E2E/autodiff.py
# does not cover, through --rlx-autodiff, against torch.autograd in float64.
# Each case is a function whose loss is sum(op(args) * w) for a random w, so
# every element of the op's result gradient differs; all cases share one
# compiled module. Ties of max/min (reductions and binary ops) are tested on
# inputs with repeated values: the gradient is shared evenly among equal
# extrema, as torch.amax/amin and torch.maximum/minimum do (a NaN operand of
# max passes the gradient to both, as torch.maximum does); cummax with ties
# and a NaN, prod and cumprod with one and two zeros. The second RUN line
# compiles the module unfused.
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

from rlx_testing import TOOLS, Report, compare, run_function, ttype

rng = np.random.default_rng(5)
TOL = (1e-10, 1e-12)


def randn(*shape):
    return rng.standard_normal(shape)


class Case:
    def __init__(self, name, body, inputs, out_shape, reference, wrt):
        self.name, self.body, self.inputs = name, body, inputs
        self.out_shape, self.reference, self.wrt = out_shape, reference, wrt
        self.weight = randn(*out_shape)

    def function(self):
        args = [f"%a{i}: {type_of(x)}" for i, x in enumerate(self.inputs)]
        out = ttype(list(self.out_shape), "f64")
        axes = ", ".join(str(d) for d in range(len(self.out_shape)))
        wrt = ", ".join(str(i) for i in self.wrt)
        return (
            f"func.func @{self.name}({', '.join(args)}, %w: {out}) -> "
            f"tensor<f64> attributes {{rlx.differentiate = array<i64: {wrt}>}}"
            f" {{\n  {self.body}\n"
            f"  %p = rlx.mul %y, %w : ({out}, {out}) -> {out}\n"
            f"  %l = rlx.reduce sum %p axes = [{axes}] : {out} -> tensor<f64>\n"
            f"  return %l : tensor<f64>\n}}\n")

    def expected(self):
        args = [torch.tensor(x, requires_grad=i in self.wrt)
                for i, x in enumerate(self.inputs)]
        loss = (self.reference(*args) * torch.tensor(self.weight)).sum()
        loss.backward()
        return [loss.detach().numpy()] + [args[i].grad.numpy()
                                          for i in self.wrt]


def type_of(x):
    return ttype(list(x.shape), "f64" if x.dtype == np.float64 else
                 {np.dtype(np.int64): "i64", np.dtype(np.int32): "i32"}[x.dtype])


cases = []


def case(name, body, inputs, out_shape, reference, wrt=None):
    wrt = [i for i, x in enumerate(inputs) if x.dtype == np.float64] \
        if wrt is None else wrt
    cases.append(Case(name, body, inputs, out_shape, reference, wrt))


def t(*shape):
    return ttype(list(shape), "f64")


# --- norms -------------------------------------------------------------------

case("group_norm",
     f"%y = rlx.group_norm %a0, %a1, %a2 groups = 3 eps = 1.0e-5 : "
     f"({t(2, 6, 3, 3)}, {t(6)}, {t(6)}) -> {t(2, 6, 3, 3)}",
     [randn(2, 6, 3, 3), randn(6), randn(6)], (2, 6, 3, 3),
     lambda x, g, b: F.group_norm(x, 3, g, b, 1e-5))


def batch_norm_reference(x, g, b, m, v):
    c = (1, -1, 1, 1)
    return ((x - m.reshape(c)) * torch.rsqrt(v.reshape(c) + 1e-5)
            * g.reshape(c) + b.reshape(c))


case("batch_norm_inference",
     f"%y = rlx.batch_norm_inference %a0, %a1, %a2, %a3, %a4 eps = 1.0e-5 : "
     f"({t(2, 3, 4, 4)}, {t(3)}, {t(3)}, {t(3)}, {t(3)}) -> {t(2, 3, 4, 4)}",
     [randn(2, 3, 4, 4), randn(3), randn(3), randn(3),
      rng.uniform(0.5, 2.0, 3)], (2, 3, 4, 4), batch_norm_reference)

case("layer_norm2d",
     f"%y = rlx.layer_norm2d %a0, %a1, %a2 eps = 1.0e-5 : "
     f"({t(2, 4, 3, 3)}, {t(4)}, {t(4)}) -> {t(2, 4, 3, 3)}",
     [randn(2, 4, 3, 3), randn(4), randn(4)], (2, 4, 3, 3),
     lambda x, g, b: F.layer_norm(x.permute(0, 2, 3, 1), [4], g, b, 1e-5)
     .permute(0, 3, 1, 2))


def ada_reference(kind):
    def fn(x, scale, shift):
        if kind == "layer":
            n = F.layer_norm(x, x.shape[-1:], eps=1e-5)
        else:
            n = x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-5)
        return n * (1 + scale) + shift
    return fn


for kind in ["layer", "rms"]:
    case(f"ada_layer_norm_{kind}",
         f"%y = rlx.ada_layer_norm {kind} %a0, %a1, %a2 eps = 1.0e-5 : "
         f"({t(2, 3, 8)}, {t(2, 1, 8)}, {t(2, 1, 8)}) -> {t(2, 3, 8)}",
         [randn(2, 3, 8), randn(2, 1, 8), randn(2, 1, 8)], (2, 3, 8),
         ada_reference(kind))

for name, gate in [("gated_residual", (2, 1, 8)),
                   ("gated_residual_full", (2, 3, 8))]:
    case(name,
         f"%y = rlx.gated_residual %a0, %a1, %a2 : "
         f"({t(2, 3, 8)}, {t(2, 3, 8)}, {t(*gate)}) -> {t(2, 3, 8)}",
         [randn(2, 3, 8), randn(2, 3, 8), randn(*gate)], (2, 3, 8),
         lambda x, u, g: x + g * u)

# --- reductions and elementwise ------------------------------------------------

case("reduce_max",
     f"%y = rlx.reduce max %a0 axes = [1] : {t(3, 5, 4)} -> {t(3, 4)}",
     [randn(3, 5, 4)], (3, 4), lambda x: torch.amax(x, 1))
case("reduce_min_keep",
     f"%y = rlx.reduce min %a0 axes = [0, 2] keep_dim : {t(3, 5, 4)} -> "
     f"{t(1, 5, 1)}",
     [randn(3, 5, 4)], (1, 5, 1), lambda x: torch.amin(x, (0, 2), True))
# Two or three equal maxima per row.
ties = np.array([[1.0, 3.0, 3.0, -2.0], [0.5, 0.5, 0.5, 0.0],
                 [2.0, -1.0, 2.0, 2.0]])
case("reduce_max_ties",
     f"%y = rlx.reduce max %a0 axes = [1] : {t(3, 4)} -> {t(3)}",
     [ties], (3,), lambda x: torch.amax(x, 1))
case("reduce_prod",
     f"%y = rlx.reduce prod %a0 axes = [0, 2] : {t(3, 2, 4)} -> {t(2)}",
     [rng.uniform(0.5, 1.5, (3, 2, 4))], (2,),
     lambda x: torch.prod(x.permute(1, 0, 2).reshape(2, -1), 1))
# One zero in a group (its gradient is the product of the others), two in
# another (all gradients 0).
case("reduce_prod_zeros",
     f"%y = rlx.reduce prod %a0 axes = [1] keep_dim : {t(3, 4)} -> {t(3, 1)}",
     [np.array([[2.0, 0.0, 3.0, 0.5], [0.0, 1.5, 0.0, 2.0],
                [1.0, -2.0, 0.5, 3.0]])], (3, 1),
     lambda x: torch.prod(x, 1, keepdim=True))
case("max", f"%y = rlx.max %a0, %a1 : ({t(3, 4)}, {t(4)}) -> {t(3, 4)}",
     [randn(3, 4), randn(4)], (3, 4), torch.maximum)
case("min", f"%y = rlx.min %a0, %a1 : ({t(3, 4)}, {t(3, 1)}) -> {t(3, 4)}",
     [randn(3, 4), randn(3, 1)], (3, 4), torch.minimum)
case("max_ties", f"%y = rlx.max %a0, %a1 : ({t(2, 3)}, {t(2, 3)}) -> {t(2, 3)}",
     [np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 5.0]]),
      np.array([[1.0, 1.0, 4.0], [0.0, -1.0, 2.0]])], (2, 3), torch.maximum)
case("min_ties", f"%y = rlx.min %a0, %a1 : ({t(2, 3)}, {t(2, 3)}) -> {t(2, 3)}",
     [np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 5.0]]),
      np.array([[1.0, 1.0, 4.0], [0.0, -1.0, 2.0]])], (2, 3), torch.minimum)
# A NaN operand: the gradient goes to both, as torch.maximum's.
case("max_nan", f"%y = rlx.max %a0, %a1 : ({t(3)}, {t(3)}) -> {t(3)}",
     [np.array([np.nan, 1.0, 2.0]), np.array([0.0, np.nan, 1.0])], (3,),
     torch.maximum)
case("pow", f"%y = rlx.pow %a0, %a1 : ({t(3, 4)}, {t(3, 4)}) -> {t(3, 4)}",
     [rng.uniform(0.2, 2.0, (3, 4)), randn(3, 4)], (3, 4), torch.pow)
case("pow_zero_base",
     f"%y = rlx.pow %a0, %a1 : ({t(4)}, {t(4)}) -> {t(4)}",
     [np.array([0.0, 0.0, 1.5, 2.0]), np.array([2.0, 3.0, 0.5, -1.0])], (4,),
     torch.pow)
case("atan2", f"%y = rlx.atan2 %a0, %a1 : ({t(3, 4)}, {t(4)}) -> {t(3, 4)}",
     [randn(3, 4), randn(4)], (3, 4), torch.atan2)
case("mod", f"%y = rlx.mod %a0, %a1 : ({t(3, 4)}, {t(3, 4)}) -> {t(3, 4)}",
     [randn(3, 4) * 5, rng.uniform(0.6, 1.7, (3, 4)) *
      rng.choice([-1.0, 1.0], (3, 4))], (3, 4), torch.fmod)
case("fma",
     f"%y = rlx.fma %a0, %a1, %a2 : ({t(3, 4)}, {t(4)}, {t(3, 1)}) -> "
     f"{t(3, 4)}",
     [randn(3, 4), randn(4), randn(3, 1)], (3, 4), lambda a, b, c: a * b + c)
case("clamp", f"%y = rlx.clamp %a0 {{min = -0.5 : f64, max = 0.7 : f64}} : "
     f"{t(4, 5)}",
     [np.concatenate([randn(4, 4), [[-0.5], [0.7], [0.0], [2.0]]], 1)],
     (4, 5), lambda x: torch.clamp(x, -0.5, 0.7))
case("clamp_min", f"%y = rlx.clamp %a0 {{min = 0.0 : f64}} : {t(4, 5)}",
     [randn(4, 5)], (4, 5), lambda x: torch.clamp(x, min=0.0))

# --- data movement ---------------------------------------------------------------

case("concat",
     f"%y = rlx.concat %a0, %a1, %a2 axis = -1 : ({t(2, 3)}, {t(2, 5)}, "
     f"{t(2, 1)}) -> {t(2, 9)}",
     [randn(2, 3), randn(2, 5), randn(2, 1)], (2, 9),
     lambda a, b, c: torch.cat([a, b, c], -1))


def take(axis, indices):
    return lambda x: torch.index_select(x, axis, torch.tensor(indices))


case("slice_step",
     f"%y = rlx.slice %a0 axis = 1, start = 1, length = 4, step = 2 : "
     f"{t(3, 10)} -> {t(3, 4)}",
     [randn(3, 10)], (3, 4), take(1, [1, 3, 5, 7]))
case("slice_negative_step",
     f"%y = rlx.slice %a0 axis = 0, start = 9, length = 3, step = -3 : "
     f"{t(10, 2)} -> {t(3, 2)}",
     [randn(10, 2)], (3, 2), take(0, [9, 6, 3]))
case("slice_unit_step",
     f"%y = rlx.slice %a0 axis = 1, start = 2, length = 3, step = 1 : "
     f"{t(2, 6)} -> {t(2, 3)}",
     [randn(2, 6)], (2, 3), take(1, [2, 3, 4]))
for mode in ["constant", "reflect", "replicate", "circular"]:
    value = " value = 1.5" if mode == "constant" else ""
    case(f"pad_{mode}",
         f"%y = rlx.pad {mode} %a0 pads = [0, 0, 0, 0, 1, 2, 2, 1]{value} : "
         f"{t(2, 3, 4, 5)} -> {t(2, 3, 7, 8)}",
         [randn(2, 3, 4, 5)], (2, 3, 7, 8),
         lambda x, mode=mode: F.pad(x, (2, 1, 1, 2), mode, 1.5)
         if mode == "constant" else F.pad(x, (2, 1, 1, 2), mode))
# Negative pads crop: the cropped elements get no gradient.
case("pad_crop",
     f"%y = rlx.pad constant %a0 pads = [0, 0, -1, 2, 1, -2] : "
     f"{t(2, 4, 5)} -> {t(2, 5, 4)}",
     [randn(2, 4, 5)], (2, 5, 4), lambda x: F.pad(x, (1, -2, -1, 2)))
case("tile", f"%y = rlx.tile %a0 reps = [2, 1, 3] : {t(2, 3, 2)} -> "
     f"{t(4, 3, 6)}",
     [randn(2, 3, 2)], (4, 3, 6), lambda x: x.repeat(2, 1, 3))
case("reverse", f"%y = rlx.reverse %a0 axes = [0, -1] : {t(3, 4, 2)}",
     [randn(3, 4, 2)], (3, 4, 2), lambda x: torch.flip(x, (0, 2)))
case("roll", f"%y = rlx.roll %a0 shifts = [1, -2, 4] dims = [0, 1, 1] : "
     f"{t(3, 5)}",
     [randn(3, 5)], (3, 5), lambda x: torch.roll(x, (1, 2), (0, 1)))
case("trilu_upper", f"%y = rlx.trilu upper %a0 diagonal = 1 : {t(2, 4, 5)}",
     [randn(2, 4, 5)], (2, 4, 5), lambda x: torch.triu(x, 1))
case("trilu_lower", f"%y = rlx.trilu lower %a0 diagonal = -1 : {t(4, 5)}",
     [randn(4, 5)], (4, 5), lambda x: torch.tril(x, -1))
# Repeated and negative indices; indices shorter than the input outside the
# axis and longer along it.
gather_indices = rng.integers(-5, 5, (3, 6))
case("gather_elements",
     f"%y = rlx.gather_elements %a0, %a1 axis = 1 : ({t(4, 5)}, "
     f"{ttype([3, 6], 'i64')}) -> {t(3, 6)}",
     [randn(4, 5), gather_indices], (3, 6),
     lambda x, i: torch.gather(x, 1, i % 5))
# The gradients of a reversed read and a gather of one input, summed: the
# reverse folds into the sum, which rlx-tile-and-fuse must not fuse as an
# epilogue of the gather's one-hot reduction (it did, and indexed the
# reversed operand's tile out of bounds).
reverse_gather_indices = rng.integers(0, 4, (2, 4))
case("reverse_and_gather_elements",
     f"%r = rlx.reverse %a0 axes = [1] : {t(2, 4)}\n"
     f"  %g = rlx.gather_elements %a0, %a1 axis = 1 : ({t(2, 4)}, "
     f"{ttype([2, 4], 'i64')}) -> {t(2, 4)}\n"
     f"  %y = rlx.concat %r, %g axis = 0 : ({t(2, 4)}, {t(2, 4)}) -> "
     f"{t(4, 4)}",
     [randn(2, 4), reverse_gather_indices], (4, 4),
     lambda x, i: torch.cat([torch.flip(x, [1]), torch.gather(x, 1, i)], 0))
case("topk",
     f"%y, %i = rlx.topk %a0 k = 3 : {t(2, 3, 6)} -> {t(2, 3, 3)}, "
     f"{ttype([2, 3, 3], 'i64')}",
     [randn(2, 3, 6)], (2, 3, 3), lambda x: torch.topk(x, 3).values)
case("topk_smallest",
     f"%y, %i = rlx.topk %a0 k = 2 smallest : {t(4, 5)} -> {t(4, 2)}, "
     f"{ttype([4, 2], 'i64')}",
     [randn(4, 5)], (4, 2), lambda x: torch.topk(x, 2, largest=False).values)


def kv_append_reference(cache, update, position):
    start = min(max(int(position), 0), cache.shape[1] - update.shape[1])
    cache = cache.clone()
    cache[:, start:start + update.shape[1]] = update
    return cache


for name, position in [("kv_append", 2), ("kv_append_clamped", 7)]:
    case(name,
         f"%y = rlx.kv_append %a0, %a1 at %a2 axis = 1 : {t(2, 8, 3)}, "
         f"{t(2, 3, 3)}, tensor<i64>",
         [randn(2, 8, 3), randn(2, 3, 3), np.array(position)], (2, 8, 3),
         kv_append_reference)
case("cumprod", f"%y = rlx.cumprod %a0 axis = 0 : {t(5, 3)}",
     [rng.uniform(0.5, 1.5, (5, 3)) * rng.choice([-1.0, 1.0], (5, 3))],
     (5, 3), lambda x: torch.cumprod(x, 0))
# One zero in the first row, two in the second.
case("cumprod_zeros", f"%y = rlx.cumprod %a0 axis = -1 : {t(2, 5)}",
     [np.array([[1.5, 2.0, 0.0, 0.5, 3.0], [0.0, 2.0, -1.0, 0.0, 2.0]])],
     (2, 5), lambda x: torch.cumprod(x, -1))


def exclusive_cumprod(x):
    return torch.cat([torch.ones_like(x[:, :1]),
                      torch.cumprod(x, 1)[:, :-1]], 1)


case("cumprod_exclusive",
     f"%y = rlx.cumprod %a0 axis = 1 exclusive : {t(3, 4)}",
     [randn(3, 4)], (3, 4), exclusive_cumprod)
case("cummax", f"%y = rlx.cummax %a0 axis = 1 : {t(3, 6)}",
     [randn(3, 6)], (3, 6), lambda x: torch.cummax(x, 1).values)
# Equal running maxima: the last position reaching the maximum takes it.
case("cummax_ties", f"%y = rlx.cummax %a0 axis = 0 : {t(7)}",
     [np.array([1.0, 3.0, 3.0, 2.0, 3.0, 0.0, 4.0])], (7,),
     lambda x: torch.cummax(x, 0).values)
case("cummax_nan", f"%y = rlx.cummax %a0 axis = 0 : {t(5)}",
     [np.array([1.0, 2.0, np.nan, 0.5, 3.0])], (5,),
     lambda x: torch.cummax(x, 0).values)


def exclusive_cummax(x):
    head = torch.full_like(x[:1], -float("inf"))
    return torch.cat([head, torch.cummax(x, 0).values[:-1]])


case("cummax_exclusive", f"%y = rlx.cummax %a0 axis = 0 exclusive : {t(5, 2)}",
     [randn(5, 2)], (5, 2), exclusive_cummax)
case("dot_general",
     f"%y = rlx.dot_general %a0, %a1 batching_dims = [0] x [1], "
     f"contracting_dims = [2, 3] x [3, 0] : ({t(2, 3, 4, 5)}, {t(5, 2, 6, 4)})"
     f" -> {t(2, 3, 6)}",
     [randn(2, 3, 4, 5), randn(5, 2, 6, 4)], (2, 3, 6),
     lambda a, b: torch.einsum("bmkl,lbnk->bmn", a, b))
case("dot_general_no_batch",
     f"%y = rlx.dot_general %a0, %a1 batching_dims = [] x [], "
     f"contracting_dims = [0] x [1] : ({t(4, 3)}, {t(2, 4)}) -> {t(3, 2)}",
     [randn(4, 3), randn(2, 4)], (3, 2), lambda a, b: a.t() @ b.t())

# --- spatial -------------------------------------------------------------------------

case("conv_transpose",
     f"%y = rlx.conv_transpose %a0, %a1 stride = [2, 2] padding = [1, 1, 1, 1]"
     f" output_padding = [1, 0] dilation = [1, 1] groups = 2 : "
     f"({t(2, 4, 3, 3)}, {t(4, 2, 3, 3)}) -> {t(2, 4, 6, 5)}",
     [randn(2, 4, 3, 3), randn(4, 2, 3, 3)], (2, 4, 6, 5),
     lambda x, w: F.conv_transpose2d(x, w, stride=2, padding=1,
                                     output_padding=(1, 0), groups=2))
case("global_pool_avg",
     f"%y = rlx.global_pool avg %a0 : {t(2, 3, 4, 5)} -> {t(2, 3, 1, 1)}",
     [randn(2, 3, 4, 5)], (2, 3, 1, 1),
     lambda x: F.adaptive_avg_pool2d(x, 1))
case("global_pool_max",
     f"%y = rlx.global_pool max %a0 : {t(2, 3, 4, 5)} -> {t(2, 3, 1, 1)}",
     [randn(2, 3, 4, 5)], (2, 3, 1, 1),
     lambda x: F.adaptive_max_pool2d(x, 1))
case("resize_nearest2x",
     f"%y = rlx.resize_nearest2x %a0 : {t(2, 3, 3, 4)} -> {t(2, 3, 6, 8)}",
     [randn(2, 3, 3, 4)], (2, 3, 6, 8),
     lambda x: F.interpolate(x, scale_factor=2, mode="nearest"))
case("interpolate_nearest",
     f"%y = rlx.interpolate_nearest %a0 size = [3, 7] : {t(2, 3, 5, 4)} -> "
     f"{t(2, 3, 3, 7)}",
     [randn(2, 3, 5, 4)], (2, 3, 3, 7),
     lambda x: F.interpolate(x, size=(3, 7), mode="nearest"))


def main():
    report = Report()
    with tempfile.TemporaryDirectory() as tmp:
        src, so = os.path.join(tmp, "ops.mlir"), os.path.join(tmp, "ops.so")
        with open(src, "w") as f:
            f.write("\n".join(c.function() for c in cases))
        flags = ["--no-fuse"] if "--no-fuse" in sys.argv[1:] else []
        proc = subprocess.run([os.path.join(TOOLS, "rlx-compile"), src, "-o",
                               so] + flags, capture_output=True, text=True,
                              timeout=600)
        if proc.returncode != 0:
            print(proc.stderr[-4000:])
            report.record("compile", "rlx-compile failed")
            report.finish()
        for c in cases:
            got = run_function(so, c.name + "_grad", c.inputs + [c.weight],
                               os.path.join(tmp, c.name))
            labels = ["loss"] + [f"d{i}" for i in c.wrt]
            for label, g, want in zip(labels, got, c.expected()):
                report.record(f"{c.name} {label} vs autograd",
                              compare(g, want, TOL))
    report.finish()


if __name__ == "__main__":
    main()
