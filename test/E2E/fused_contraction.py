# RUN: %oracle_python %s
# REQUIRES: torch
# The fused contractions (rlx.matmul_bias_act, rlx.matmul_residual,
# rlx.conv_bias_act) as --rlx-fuse-patterns forms them from the unfused
# graphs: each function is compiled fused and with --no-fuse, the outputs
# must be identical bit for bit in the strict floating-point mode
# (--strict-fp; the default mode's fused module is checked against PyTorch
# only) and match PyTorch (F.linear, F.conv1d,
# F.conv2d, activations) in float64, with every intermediate rounded to f16
# in the f16 reference, as the graph stores it. The fused op must form, and
# a fused matmul_bias_act must compile to no more loop nests than a bare
# matmul.
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

from rlx_testing import Report, ttype
from rlx_testing.fusion import Case, compiled, run_case

# Every ActivationKind and its PyTorch counterpart.
ACTIVATIONS = {
    "gelu": F.gelu,
    "gelu_approx": lambda t: F.gelu(t, approximate="tanh"),
    "silu": F.silu,
    "relu": F.relu,
    "sigmoid": torch.sigmoid,
    "tanh": torch.tanh,
    "elu": F.elu,
    "mish": F.mish,
    "softplus": lambda t: torch.log1p(torch.exp(-t.abs())) + t.clamp(min=0),
    "hard_swish": F.hardswish,
    "hard_sigmoid": F.hardsigmoid,
    "softsign": F.softsign,
    "log_sigmoid": F.logsigmoid,
}

ELEM = {np.float32: "f32", np.float16: "f16"}


class Module:
    """Functions of one dtype in one .mlir file, and their cases."""

    def __init__(self, dtype):
        self.dtype, self.elem = dtype, ELEM[dtype]
        self.functions, self.cases = [], []
        self.rng = np.random.default_rng(4)
        # Every intermediate is stored in the element type.
        self.rnd = ((lambda t: t.to(torch.float16).to(torch.float64))
                    if dtype == np.float16 else (lambda t: t))

    def t(self, shape):
        return ttype(shape, self.elem)

    def uniform(self, shape, scale=1.0):
        return (self.rng.uniform(-1, 1, shape) * scale).astype(self.dtype)

    def add(self, name, args, body, result, draws, reference, fused_op):
        """args: [(name, shape)]; body: rlx ops ending in %y of `result`."""
        params = ", ".join(f"%{a}: {self.t(s)}" for a, s in args)
        self.functions.append(
            f"func.func @{name}({params}) -> {self.t(result)} {{\n{body}"
            f"  return %y : {self.t(result)}\n}}\n")
        self.cases.append((name, draws, reference, fused_op))

    def linear(self, name, x_shape, w_shape, activation=None,
               bias_first=False):
        """matmul + bias [N] [+ activation]."""
        k, n = w_shape[-2], w_shape[-1]
        out = list(torch.matmul(torch.zeros(x_shape),
                                torch.zeros(w_shape)).shape)
        rnd = self.rnd
        add = (f"%b, %m : ({self.t([n])}, {self.t(out)})" if bias_first else
               f"%m, %b : ({self.t(out)}, {self.t([n])})")
        body = (f"  %m = rlx.matmul %x, %w : ({self.t(x_shape)}, "
                f"{self.t(w_shape)}) -> {self.t(out)}\n"
                f"  %{'s' if activation else 'y'} = rlx.add {add} -> "
                f"{self.t(out)}\n")
        if activation:
            body += f"  %y = rlx.{activation} %s : {self.t(out)}\n"
        act = ACTIVATIONS[activation] if activation else (lambda t: t)

        def reference(x, w, b):
            return act(rnd(rnd(torch.matmul(x, w)) + b))
        draws = [[self.uniform(x_shape), self.uniform(w_shape, k ** -0.5),
                  self.uniform([n])] for _ in range(2)]
        self.add(name, [("x", x_shape), ("w", w_shape), ("b", [n])], body,
                 out, draws, reference, "rlx.matmul_bias_act")

    def matmul_residual(self, name, x_shape, w_shape):
        k = w_shape[-2]
        out = list(torch.matmul(torch.zeros(x_shape),
                                torch.zeros(w_shape)).shape)
        rnd = self.rnd
        body = (f"  %m = rlx.matmul %x, %w : ({self.t(x_shape)}, "
                f"{self.t(w_shape)}) -> {self.t(out)}\n"
                f"  %y = rlx.add %r, %m : ({self.t(out)}, {self.t(out)}) -> "
                f"{self.t(out)}\n")
        draws = [[self.uniform(x_shape), self.uniform(w_shape, k ** -0.5),
                  self.uniform(out)] for _ in range(2)]
        self.add(name, [("x", x_shape), ("w", w_shape), ("r", out)], body,
                 out, draws, lambda x, w, r: rnd(torch.matmul(x, w)) + r,
                 "rlx.matmul_residual")

    def conv(self, name, x_shape, w_shape, stride, padding, dilation=None,
             groups=1, bias_form="1c11", residual=False, activation=None):
        """conv + bias (`bias_form`: "1c11" reshape to [1, C, 1...], "c11"
        reshape to [C, 1...] expanded to the result shape, "arg" a [C, 1...]
        argument) [+ residual] [+ activation]."""
        r = len(x_shape) - 2
        dilation = dilation or [1] * r
        c = w_shape[0]
        pads = []
        for i in reversed(range(r)):
            pads += [padding[2 * i], padding[2 * i + 1]]
        torch_conv = {1: F.conv1d, 2: F.conv2d}[r]

        def conv(x, w):
            return torch_conv(F.pad(x, tuple(pads)), w, stride=stride,
                              dilation=dilation, groups=groups)
        out = list(conv(torch.zeros(x_shape, dtype=torch.float64),
                        torch.zeros(w_shape, dtype=torch.float64)).shape)
        arr = lambda v: "[" + ", ".join(map(str, v)) + "]"
        body = (f"  %c = rlx.conv %x, %w stride = {arr(stride)} padding = "
                f"{arr(padding)} dilation = {arr(dilation)} groups = {groups}"
                f" : ({self.t(x_shape)}, {self.t(w_shape)}) -> "
                f"{self.t(out)}\n")
        bias_shape, bias = [c], "%bv"
        if bias_form == "1c11":
            view = [1, c] + [1] * r
            body += (f"  %bv = rlx.reshape %b : {self.t([c])} -> "
                     f"{self.t(view)}\n")
        elif bias_form == "c11":
            view = out
            body += (f"  %b3 = rlx.reshape %b : {self.t([c])} -> "
                     f"{self.t([c] + [1] * r)}\n"
                     f"  %bv = rlx.expand %b3 : {self.t([c] + [1] * r)} -> "
                     f"{self.t(out)}\n")
        else:
            bias_shape = view = [c] + [1] * r
            bias = "%b"
        steps = ["s"] + (["t"] if residual else []) + \
            (["a"] if activation else [])
        steps[-1] = "y"
        body += (f"  %{steps[0]} = rlx.add %c, {bias} : ({self.t(out)}, "
                 f"{self.t(view)}) -> {self.t(out)}\n")
        if residual:
            body += (f"  %{steps[1]} = rlx.add %{steps[0]}, %r : "
                     f"({self.t(out)}, {self.t(out)}) -> {self.t(out)}\n")
        if activation:
            body += (f"  %y = rlx.{activation} %{steps[-2]} : "
                     f"{self.t(out)}\n")
        rnd = self.rnd
        act = ACTIVATIONS[activation] if activation else (lambda t: t)

        def reference(x, w, b, *res):
            y = rnd(rnd(conv(x, w)) + b.reshape([1, c] + [1] * r))
            if res:
                y = rnd(y + res[0])
            return act(y)
        fan_in = int(np.prod(w_shape[1:]))
        args = [("x", x_shape), ("w", w_shape), ("b", bias_shape)] + \
            ([("r", out)] if residual else [])
        draws = [[self.uniform(x_shape), self.uniform(w_shape, fan_in ** -0.5),
                  self.uniform(bias_shape)] +
                 ([self.uniform(out)] if residual else []) for _ in range(2)]
        self.add(name, args, body, out, draws, reference, "rlx.conv_bias_act")


def build(dtype):
    m = Module(dtype)
    m.linear("linear_gelu", [40, 24], [24, 7], "gelu")
    m.linear("linear_batch_bcast_silu", [3, 1, 4, 16], [2, 16, 9], "silu",
             bias_first=True)
    m.linear("linear_odd", [33, 65], [65, 17])
    m.linear("linear_rhs_batch_relu", [4, 8], [3, 8, 5], "relu")
    for kind in ACTIVATIONS:
        m.linear(f"act_{kind}", [3, 6], [6, 5], kind)
    m.matmul_residual("matmul_residual", [2, 5, 12], [12, 6])
    m.matmul_residual("matmul_residual_bcast", [7, 10], [3, 10, 4])
    m.conv("conv2d_bias_relu", [2, 3, 9, 9], [4, 3, 3, 3], [1, 1],
           [1, 1, 1, 1], activation="relu")
    m.conv("conv2d_groups_residual_gelu_approx", [1, 4, 11, 10], [6, 2, 3, 3],
           [2, 1], [1, 0, 2, 1], [1, 2], groups=2, bias_form="c11",
           residual=True, activation="gelu_approx")
    m.conv("conv2d_depthwise_hard_swish", [1, 4, 7, 7], [4, 1, 3, 3], [2, 2],
           [1, 1, 1, 1], groups=4, activation="hard_swish")
    m.conv("conv2d_bias_only", [2, 2, 6, 5], [3, 2, 2, 2], [1, 1],
           [0, 0, 0, 0])
    m.conv("conv1d_residual_tanh", [2, 3, 13], [5, 3, 4], [2], [1, 2],
           bias_form="arg", residual=True, activation="tanh")
    m.conv("conv1d_residual", [1, 2, 8], [4, 2, 3], [1], [1, 1],
           residual=True)
    # A bare matmul, to compare loop-nest counts with.
    x, w = [40, 24], [24, 7]
    m.functions.append(
        f"func.func @bare_matmul(%x: {m.t(x)}, %w: {m.t(w)}) -> "
        f"{m.t([40, 7])} {{\n  %y = rlx.matmul %x, %w : ({m.t(x)}, {m.t(w)})"
        f" -> {m.t([40, 7])}\n  return %y : {m.t([40, 7])}\n}}\n")
    return m


def main():
    report = Report()
    with tempfile.TemporaryDirectory() as tmp:
        for dtype, tol in ((np.float32, (1e-5, 1e-5)),
                           (np.float16, (2e-3, 2e-3))):
            m = build(dtype)
            src = f"{tmp}/fused_{m.elem}.mlir"
            with open(src, "w") as f:
                f.write("\n".join(m.functions))
            for name, draws, reference, fused_op in m.cases:
                run_case(Case(f"{name}_{m.elem}", src, name, draws, reference,
                              tol, fused_ops=[fused_op]), tmp, report)
            try:
                nests = compiled(src, tmp, True)[1]
                fused, bare = nests["linear_gelu"], nests["bare_matmul"]
                report.record(
                    f"linear_gelu_{m.elem} loop nests ({fused}) <= "
                    f"bare_matmul_{m.elem} ({bare})",
                    None if fused <= bare else "more loop nests")
            except Exception as e:
                report.record(f"loop nests {m.elem}",
                              f"{type(e).__name__}: {e}")
    report.finish()


if __name__ == "__main__":
    main()
