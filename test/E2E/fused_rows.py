# RUN: %oracle_python %s
# The GPU's row kernels (a block per row) run on the CPU, threads taking
# turns between barriers (rlx-compile --gpu-blocks-on-cpu):
# RUN: env RLX_TEST_TARGET=gpu-blocks-descending %oracle_python %s
# REQUIRES: torch
# Row, reduction and contraction regions, and the residual norms: each
# function is compiled fused (row ops decomposed and fused with their
# neighbours into one row region per row pass, a reduction region, or a
# matmul with its operands' elementwise prologue and its epilogue) and with
# --no-fuse (each row op alone in its own row region). Outputs must be identical bit
# for bit in the strict floating-point mode (--strict-fp; the default mode's
# fused module is checked against PyTorch only) and match PyTorch in float64 (f16: intermediates the graph stores
# rounded to f16 in the reference too); fusion must reduce the loop-nest
# count, and rlx.residual_layer_norm / rlx.residual_rms_norm must form.
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

from rlx_testing import Report, target_args, ttype
from rlx_testing.fusion import Case, run_case


class Module:
    def __init__(self, dtype):
        self.dtype = dtype
        self.elem = {np.float32: "f32", np.float16: "f16"}[dtype]
        self.rng = np.random.default_rng(11)
        self.functions, self.cases = [], []
        self.rnd = ((lambda t: t.to(torch.float16).to(torch.float64))
                    if dtype == np.float16 else (lambda t: t))

    def t(self, shape, elem=None):
        return ttype(shape, elem or self.elem)

    def randn(self, shape, scale=1.0, offset=0.0):
        return (self.rng.standard_normal(shape) * scale + offset).astype(
            self.dtype)

    def add(self, name, args, body, results, draws, reference, fused_ops=(),
            fewer_nests=True):
        params = ", ".join(f"%{a}: {t}" for a, t in args)
        outs = ", ".join(t for _, t in results)
        rets = ", ".join(v for v, _ in results)
        self.functions.append(
            f"func.func @{name}({params}) -> ({outs}) {{\n{body}\n"
            f"  return {rets} : {outs}\n}}\n")
        self.cases.append((name, draws, reference, fused_ops, fewer_nests))

    def masked_softmax(self, name, rows, cols):
        t = self.t([rows, cols])
        body = (f"  %c = rlx.constant dense<0.125> : {self.t([])}\n"
                f"  %s = rlx.mul %x, %c : ({t}, {self.t([])}) -> {t}\n"
                f"  %a = rlx.add %s, %m : ({t}, {t}) -> {t}\n"
                f"  %y = rlx.softmax %a axis = 1 : {t}\n"
                f"  %z = rlx.mul %y, %v : ({t}, {t}) -> {t}")
        r = self.rnd

        def reference(x, m, v):
            a = r(r(x * 0.125) + m)
            return r(r(torch.softmax(a, 1)) * v)
        draws = [[self.randn([rows, cols], 4.0), self.randn([rows, cols]),
                  self.randn([rows, cols])] for _ in range(2)]
        self.add(name, [("x", t), ("m", t), ("v", t)], body, [("%z", t)],
                 draws, reference)

    def centered_rows(self, name, rows, cols):
        # A reduction region alone when unfused, a stage of a row region
        # when fused: rows long enough that float sums are split into
        # blocks and lanes, which both must do alike in the strict mode.
        t, s = self.t([rows, cols]), self.t([rows, 1])
        body = (f"  %s = rlx.reduce sum %x axes = [1] keep_dim : {t} -> {s}\n"
                f"  %y = rlx.sub %x, %s : ({t}, {s}) -> {t}")
        r = self.rnd

        def reference(x):
            return r(x - r(x.sum(1, keepdim=True)))
        draws = [[self.randn([rows, cols])] for _ in range(2)]
        self.add(name, [("x", t)], body, [("%y", t)], draws, reference)

    def residual_norm(self, name, rows, cols, rms, beta=True):
        t, p = self.t([rows, cols]), self.t([cols])
        norm = "rms_norm" if rms else "layer_norm"
        params = "%g, %b" if beta else "%g"
        ptypes = f"{p}, {p}" if beta else p
        body = (f"  %h = rlx.add %x, %r : ({t}, {t}) -> {t}\n"
                f"  %n = rlx.{norm} %h, {params} axis = -1 eps = 1.0e-5 : "
                f"({t}, {ptypes}) -> {t}\n"
                f"  %y = rlx.gelu %n : {t}")
        r = self.rnd

        def reference(x, res, g, b=None):
            h = r(x + res)
            if rms:
                n = h * torch.rsqrt((h * h).mean(-1, keepdim=True) + 1e-5) * g
                n = n + b if b is not None else n
            else:
                n = F.layer_norm(h, [cols], g, b, 1e-5)
            return r(F.gelu(r(n))), h
        args = [("x", t), ("r", t), ("g", p)] + ([("b", p)] if beta else [])
        draws = [[self.randn([rows, cols], 2.0, 1.0), self.randn([rows, cols]),
                  self.randn([cols])] + ([self.randn([cols])] if beta else [])
                 for _ in range(2)]
        self.add(name, args, body, [("%y", t), ("%h", t)], draws, reference,
                 fused_ops=[f"rlx.residual_{norm}"])

    def cross_entropy(self, name, rows, cols):
        t, out = self.t([rows, cols]), self.t([rows])
        body = (f"  %l = rlx.softmax_cross_entropy %x, %p : ({t}, {t}) -> "
                f"{out}\n"
                f"  %y = rlx.reduce mean %l axes = [0] : {out} -> "
                f"{self.t([])}")

        def reference(x, p):
            loss = -(p * torch.log_softmax(x, 1)).sum(1)
            return self.rnd(self.rnd(loss).mean())
        draws = [[self.randn([rows, cols], 3.0),
                  np.abs(self.randn([rows, cols]))] for _ in range(2)]
        # The loss is one row region fused or not, and the mean reduces
        # another axis: fusion has nothing to merge.
        self.add(name, [("x", t), ("p", t)], body, [("%y", self.t([]))],
                 draws, reference, fewer_nests=False)

    def mse(self, name, shape, axes):
        t = self.t(shape)
        kept = [s for d, s in enumerate(shape) if d not in axes]
        out = self.t(kept)
        body = (f"  %d = rlx.sub %a, %b : ({t}, {t}) -> {t}\n"
                f"  %q = rlx.mul %d, %d : ({t}, {t}) -> {t}\n"
                f"  %y = rlx.reduce mean %q axes = {list(axes)} : {t} -> "
                f"{out}")
        r = self.rnd

        def reference(a, b):
            d = r(a - b)
            return r(r(d * d).mean(dim=tuple(axes)))
        draws = [[self.randn(shape), self.randn(shape)] for _ in range(2)]
        self.add(name, [("a", t), ("b", t)], body, [("%y", out)], draws,
                 reference)


    def prologue_linear(self, name, m, k, n):
        """relu((gelu(x * s)) @ tanh(w) + b): both operands computed in the
        contraction region's prologue."""
        tx, ts, tw, tb = (self.t([m, k]), self.t([k]), self.t([k, n]),
                          self.t([n]))
        to = self.t([m, n])
        body = (f"  %xs = rlx.mul %x, %s : ({tx}, {ts}) -> {tx}\n"
                f"  %xa = rlx.gelu %xs : {tx}\n"
                f"  %wt = rlx.tanh %w : {tw}\n"
                f"  %p = rlx.matmul %xa, %wt : ({tx}, {tw}) -> {to}\n"
                f"  %a = rlx.add %p, %b : ({to}, {tb}) -> {to}\n"
                f"  %y = rlx.relu %a : {to}")
        r = self.rnd

        def reference(x, s, w, b):
            lhs = r(F.gelu(r(x * s)))
            return r(F.relu(r(r(lhs @ r(torch.tanh(w))) + b)))
        draws = [[self.randn([m, k]), self.randn([k]), self.randn([k, n]),
                  self.randn([n])] for _ in range(2)]
        self.add(name, [("x", tx), ("s", ts), ("w", tw), ("b", tb)], body,
                 [("%y", to)], draws, reference,
                 fused_ops=["rlx.matmul_bias_act"])


def build(dtype):
    m = Module(dtype)
    m.masked_softmax("masked_softmax", 16, 64)
    m.masked_softmax("masked_softmax_odd", 7, 33)
    # The GPU's row kernels sum a row in another order than its reduction
    # kernels, so long rows are bit-identical fused and unfused on the CPU
    # only.
    if not target_args():
        m.centered_rows("centered_rows", 6, 1024)
        m.centered_rows("centered_rows_odd", 3, 1000)
    m.residual_norm("residual_layer_norm", 12, 48, rms=False)
    m.residual_norm("residual_rms_norm", 5, 31, rms=True, beta=False)
    m.residual_norm("residual_rms_norm_beta", 9, 16, rms=True)
    m.cross_entropy("cross_entropy_mean", 8, 37)
    m.mse("mse_all", [6, 20], [0, 1])
    m.mse("mse_leading_axis", [9, 5, 7], [0])
    m.prologue_linear("prologue_linear", 48, 24, 20)
    m.prologue_linear("prologue_linear_odd", 13, 7, 5)
    return m


def main():
    report = Report()
    with tempfile.TemporaryDirectory() as tmp:
        # Row sums reassociate nothing (both compile the same loops), but the
        # f32 reference is float64: a few ulp of the row's sums.
        for dtype, tol in ((np.float32, (2e-5, 2e-5)),
                           (np.float16, (2e-3, 2e-3))):
            m = build(dtype)
            src = f"{tmp}/rows_{m.elem}.mlir"
            with open(src, "w") as f:
                f.write("\n".join(m.functions))
            for name, draws, reference, fused_ops, fewer_nests in m.cases:
                run_case(Case(f"{name}_{m.elem}", src, name, draws,
                              reference, tol, fewer_nests=fewer_nests,
                              fused_ops=fused_ops), tmp, report)
    report.finish()


if __name__ == "__main__":
    main()
