# RUN: %oracle_python %s
# REQUIRES: torch
# --rlx-autodiff (run by the CPU pipeline on functions marked
# rlx.differentiate): the loss and gradients of <name>_grad against
# torch.autograd in float64, and against central finite differences of the
# compiled forward function, for a two-layer perceptron with a
# cross-entropy loss written out (tanh, log_softmax, fan-out), a
# broadcast/reshape/transpose/where mix, and a small CNN through the
# closed-form backward ops (conv, relu, max pool, layer_norm, gelu,
# softmax cross-entropy against labels), and examples/transformer_block.mlir
# with a mean-square loss (rms_norm, narrow, rope, causal GQA attention,
# silu gating) against its PyTorch reference; a graph written with fused
# ops (matmul_bias_act, swiglu, residual_layer_norm, matmul_residual,
# conv_bias_act) and an rlx.region, which the pass unfuses first; and
# examples/cnn.mlir with a cross-entropy loss on its softmax, every
# parameter's gradient (batch-norm statistics included) against PyTorch;
# and a loss written as calls to other functions, which the pass inlines.
import os
import subprocess
import tempfile

import numpy as np
import torch

from rlx_testing import SRC_ROOT, TOOLS, Report, compare, run_function
from rlx_testing.examples import (cnn_inputs as example_cnn_inputs,
                                  transformer_block_inputs,
                                  transformer_block_reference)


def transformer_block_loss_module(wrt=(1, 2, 5, 6, 7, 8), dynamic=False):
    """examples/transformer_block.mlir with its output squared and averaged
    into a loss, differentiated with respect to the arguments `wrt` (by
    default every parameter but the rope tables); with `dynamic`, its batch
    and tokens are `?`."""
    with open(os.path.join(SRC_ROOT, "examples", "transformer_block.mlir")) as f:
        text = f.read()
    out = "tensor<2x32x128xf32>"
    if dynamic:
        text = text.replace("tensor<2x32x", "tensor<?x?x")
        text = text.replace("tensor<32x8xf32>", "tensor<?x8xf32>")
        out = "tensor<?x?x128xf32>"
    indices = ", ".join(map(str, wrt))
    text = text.replace("@transformer_block(", "@block(")
    text = text.replace(f"-> {out} {{", "-> tensor<f32> attributes "
                        f"{{rlx.differentiate = array<i64: {indices}>}} {{", 1)
    text = text.replace(
        f"  return %out : {out}",
        f"  %sq = rlx.mul %out, %out : ({out}, {out}) -> {out}\n"
        f"  %loss = rlx.reduce mean %sq axes = [0, 1, 2] : {out} -> "
        f"tensor<f32>\n  return %loss : tensor<f32>")
    return text


def block_reference(*args):
    return (transformer_block_reference(*args) ** 2).mean()


def cnn_example_loss_module():
    """examples/cnn.mlir with a cross-entropy loss against one-hot targets
    on its softmax output, differentiated with respect to every parameter
    (the batch-norm statistics included)."""
    with open(os.path.join(SRC_ROOT, "examples", "cnn.mlir")) as f:
        text = f.read()
    out = "tensor<2x10xf32>"
    text = text.replace("@cnn(", "@cnn_example(")
    text = text.replace("%b3: tensor<10xf32>)",
                        f"%b3: tensor<10xf32>, %t: {out})")
    text = text.replace(f"-> {out} {{", "-> tensor<f32> attributes "
                        "{rlx.differentiate = array<i64: 1, 2, 3, 4, 5, 6, 7, "
                        "8>} {", 1)
    text = text.replace(
        f"  return %prob : {out}",
        f"  %lp = rlx.log %prob : {out}\n"
        f"  %nll = rlx.mul %lp, %t : ({out}, {out}) -> {out}\n"
        f"  %s = rlx.reduce sum %nll axes = [0, 1] : {out} -> tensor<f32>\n"
        f"  %n = rlx.constant dense<-2.0> : tensor<f32>\n"
        f"  %loss = rlx.div %s, %n : (tensor<f32>, tensor<f32>) -> tensor<f32>"
        f"\n  return %loss : tensor<f32>")
    return text


def cnn_example_reference(x, w1, gamma, beta, mean, var, w2, w3, b3, t):
    import torch.nn.functional as F
    c = (1, -1, 1, 1)
    y = F.conv2d(x, w1, stride=1, padding=1)
    # batch_norm written out: autograd has no gradient for the statistics.
    y = ((y - mean.reshape(c)) * torch.rsqrt(var.reshape(c) + 1e-5)
         * gamma.reshape(c) + beta.reshape(c))
    y = F.max_pool2d(F.relu(y), kernel_size=2, stride=2)
    y = F.conv2d(y, w2, stride=2, padding=1)
    y = F.adaptive_avg_pool2d(y, 1).flatten(1)
    prob = torch.softmax(y @ w3 + b3, dim=-1)
    return -(torch.log(prob) * t).sum() / 2

FUSED = """
func.func @fused(%x: tensor<4x8xf64>, %w: tensor<8x12xf64>, %b: tensor<12xf64>,
                 %r: tensor<4x6xf64>, %g: tensor<6xf64>, %be: tensor<6xf64>,
                 %w2: tensor<6x6xf64>, %x2: tensor<1x2x6x6xf64>,
                 %k: tensor<3x2x3x3xf64>, %kb: tensor<3xf64>)
    -> tensor<f64> attributes {rlx.differentiate = array<i64: 1, 2, 3, 4, 5, 6, 8, 9>} {
  %h = rlx.matmul_bias_act %x, %w, %b activation = gelu
      : (tensor<4x8xf64>, tensor<8x12xf64>, tensor<12xf64>) -> tensor<4x12xf64>
  %s = rlx.swiglu %h : tensor<4x12xf64> -> tensor<4x6xf64>
  %n, %sum = rlx.residual_layer_norm %s, %r, %g, %be axis = -1 eps = 1.0e-5
      : (tensor<4x6xf64>, tensor<4x6xf64>, tensor<6xf64>, tensor<6xf64>)
        -> (tensor<4x6xf64>, tensor<4x6xf64>)
  %m = rlx.matmul_residual %n, %w2, %sum
      : (tensor<4x6xf64>, tensor<6x6xf64>, tensor<4x6xf64>) -> tensor<4x6xf64>
  %e = rlx.region elementwise ins(%m : tensor<4x6xf64>) -> tensor<4x6xf64> {
  ^bb0(%a: tensor<4x6xf64>):
    %0 = rlx.tanh %a : tensor<4x6xf64>
    %1 = rlx.mul %0, %a : (tensor<4x6xf64>, tensor<4x6xf64>) -> tensor<4x6xf64>
    rlx.yield %1 : tensor<4x6xf64>
  }
  %c = rlx.conv_bias_act %x2, %k, %kb stride = [1, 1] padding = [1, 1, 1, 1]
      dilation = [1, 1] groups = 1 activation = silu
      : (tensor<1x2x6x6xf64>, tensor<3x2x3x3xf64>, tensor<3xf64>) -> tensor<1x3x6x6xf64>
  %l1 = rlx.reduce mean %e axes = [0, 1] : tensor<4x6xf64> -> tensor<f64>
  %l2 = rlx.reduce mean %c axes = [0, 1, 2, 3] : tensor<1x3x6x6xf64> -> tensor<f64>
  %loss = rlx.add %l1, %l2 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %loss : tensor<f64>
}
"""


def fused_reference(x, w, b, r, g, be, w2, x2, k, kb):
    import torch.nn.functional as F
    h = F.gelu(x @ w + b)
    s = F.silu(h[:, 6:]) * h[:, :6]
    total = s + r
    n = F.layer_norm(total, [6], g, be, 1e-5)
    m = n @ w2 + total
    c = F.silu(F.conv2d(x2, k, kb, padding=1))
    return (torch.tanh(m) * m).mean() + c.mean()

MLP = """
func.func @mlp(%x: tensor<6x5xf64>, %w1: tensor<5x7xf64>, %b1: tensor<7xf64>,
               %w2: tensor<7x3xf64>, %b2: tensor<3xf64>, %t: tensor<6x3xf64>)
    -> tensor<f64> attributes {rlx.differentiate = array<i64: 1, 2, 3, 4>} {
  %h = rlx.matmul %x, %w1 : (tensor<6x5xf64>, tensor<5x7xf64>) -> tensor<6x7xf64>
  %hb = rlx.add %h, %b1 : (tensor<6x7xf64>, tensor<7xf64>) -> tensor<6x7xf64>
  %a = rlx.tanh %hb : tensor<6x7xf64>
  %l = rlx.matmul %a, %w2 : (tensor<6x7xf64>, tensor<7x3xf64>) -> tensor<6x3xf64>
  %lb = rlx.add %l, %b2 : (tensor<6x3xf64>, tensor<3xf64>) -> tensor<6x3xf64>
  %ls = rlx.log_softmax %lb axis = 1 : tensor<6x3xf64>
  %nl = rlx.mul %ls, %t : (tensor<6x3xf64>, tensor<6x3xf64>) -> tensor<6x3xf64>
  %s = rlx.reduce sum %nl axes = [1] : tensor<6x3xf64> -> tensor<6xf64>
  %m = rlx.reduce mean %s axes = [0] : tensor<6xf64> -> tensor<f64>
  %loss = rlx.neg %m : tensor<f64>
  return %loss : tensor<f64>
}
"""

MIX = """
func.func @mix(%x: tensor<2x3x4xf32>, %v: tensor<4xf32>, %c: tensor<2x3x4xf32>)
    -> tensor<f32> attributes {rlx.differentiate = array<i64: 0, 1>} {
  %t = rlx.transpose %x [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %r = rlx.reshape %t : tensor<4x2x3xf32> -> tensor<4x6xf32>
  %e = rlx.expand %v : tensor<4xf32> -> tensor<6x4xf32>
  %p = rlx.matmul %r, %e : (tensor<4x6xf32>, tensor<6x4xf32>) -> tensor<4x4xf32>
  %s = rlx.sigmoid %p : tensor<4x4xf32>
  %q = rlx.div %s, %p : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %z = rlx.constant dense<0.0> : tensor<f32>
  %pos = rlx.gt %x, %z : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xi1>
  %w = rlx.where %pos, %x, %c : (tensor<2x3x4xi1>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %ex = rlx.exp %w : tensor<2x3x4xf32>
  %a = rlx.reduce sum %q axes = [0, 1] : tensor<4x4xf32> -> tensor<f32>
  %b = rlx.reduce mean %ex axes = [0, 1, 2] : tensor<2x3x4xf32> -> tensor<f32>
  %loss = rlx.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %loss : tensor<f32>
}
"""


# A loss written with calls: one layer function called for both layers (with
# a nested call to its activation) and the loss in a function of its own;
# the pass inlines them into the gradient function.
CALLS = """
func.func private @act(%z: tensor<6x6xf64>) -> tensor<6x6xf64> {
  %s = rlx.sigmoid %z : tensor<6x6xf64>
  %a = rlx.mul %z, %s : (tensor<6x6xf64>, tensor<6x6xf64>) -> tensor<6x6xf64>
  return %a : tensor<6x6xf64>
}
func.func private @layer(%x: tensor<6x6xf64>, %w: tensor<6x6xf64>,
                         %b: tensor<6xf64>) -> tensor<6x6xf64> {
  %m = rlx.matmul %x, %w : (tensor<6x6xf64>, tensor<6x6xf64>) -> tensor<6x6xf64>
  %z = rlx.add %m, %b : (tensor<6x6xf64>, tensor<6xf64>) -> tensor<6x6xf64>
  %a = func.call @act(%z) : (tensor<6x6xf64>) -> tensor<6x6xf64>
  return %a : tensor<6x6xf64>
}
func.func private @mse(%p: tensor<6x6xf64>, %t: tensor<6x6xf64>) -> tensor<f64> {
  %d = rlx.sub %p, %t : (tensor<6x6xf64>, tensor<6x6xf64>) -> tensor<6x6xf64>
  %q = rlx.mul %d, %d : (tensor<6x6xf64>, tensor<6x6xf64>) -> tensor<6x6xf64>
  %l = rlx.reduce mean %q axes = [0, 1] : tensor<6x6xf64> -> tensor<f64>
  return %l : tensor<f64>
}
func.func @calls(%x: tensor<6x6xf64>, %w1: tensor<6x6xf64>, %b1: tensor<6xf64>,
                 %w2: tensor<6x6xf64>, %b2: tensor<6xf64>, %t: tensor<6x6xf64>)
    -> tensor<f64> attributes {rlx.differentiate = array<i64: 0, 1, 2, 3, 4>} {
  %h = func.call @layer(%x, %w1, %b1)
      : (tensor<6x6xf64>, tensor<6x6xf64>, tensor<6xf64>) -> tensor<6x6xf64>
  %y = func.call @layer(%h, %w2, %b2)
      : (tensor<6x6xf64>, tensor<6x6xf64>, tensor<6xf64>) -> tensor<6x6xf64>
  %l = func.call @mse(%y, %t) : (tensor<6x6xf64>, tensor<6x6xf64>) -> tensor<f64>
  return %l : tensor<f64>
}
"""


def calls_reference(x, w1, b1, w2, b2, t):
    import torch.nn.functional as F
    y = F.silu(F.silu(x @ w1 + b1) @ w2 + b2)
    return ((y - t) ** 2).mean()


CNN = """
func.func @cnn(%x: tensor<2x3x8x8xf64>, %w: tensor<4x3x3x3xf64>,
               %g: tensor<36xf64>, %b: tensor<36xf64>, %wo: tensor<36x5xf64>,
               %labels: tensor<2xi64>)
    -> tensor<f64> attributes {rlx.differentiate = array<i64: 1, 2, 3, 4>} {
  %c = rlx.conv %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1
      : (tensor<2x3x8x8xf64>, tensor<4x3x3x3xf64>) -> tensor<2x4x6x6xf64>
  %r = rlx.relu %c : tensor<2x4x6x6xf64>
  %p = rlx.pool max %r kernel = [2, 2] stride = [2, 2] padding = [0, 0, 0, 0]
      : tensor<2x4x6x6xf64> -> tensor<2x4x3x3xf64>
  %f = rlx.reshape %p : tensor<2x4x3x3xf64> -> tensor<2x36xf64>
  %n = rlx.layer_norm %f, %g, %b axis = -1 eps = 1.0e-5
      : (tensor<2x36xf64>, tensor<36xf64>, tensor<36xf64>) -> tensor<2x36xf64>
  %a = rlx.gelu %n : tensor<2x36xf64>
  %z = rlx.matmul %a, %wo : (tensor<2x36xf64>, tensor<36x5xf64>) -> tensor<2x5xf64>
  %l = rlx.softmax_cross_entropy_with_labels %z, %labels
      : (tensor<2x5xf64>, tensor<2xi64>) -> tensor<2xf64>
  %loss = rlx.reduce mean %l axes = [0] : tensor<2xf64> -> tensor<f64>
  return %loss : tensor<f64>
}
"""


def cnn_reference(x, w, g, b, wo, labels):
    import torch.nn.functional as F
    r = F.relu(F.conv2d(x, w))
    p = F.max_pool2d(r, 2, 2).reshape(2, 36)
    n = F.layer_norm(p, [36], g, b, 1e-5)
    z = F.gelu(n) @ wo
    return F.cross_entropy(z, labels.long())


def mlp_reference(x, w1, b1, w2, b2, t):
    a = torch.tanh(x @ w1 + b1)
    ls = torch.log_softmax(a @ w2 + b2, dim=1)
    return -(ls * t).sum(1).mean()


def mix_reference(x, v, c):
    r = x.permute(2, 0, 1).reshape(4, 6)
    p = r @ v.expand(6, 4)
    q = torch.sigmoid(p) / p
    w = torch.where(x > 0, x, c)
    return q.sum() + torch.exp(w).mean()


def compile_module(text, tmp, name):
    src, so = os.path.join(tmp, name + ".mlir"), os.path.join(tmp, name + ".so")
    with open(src, "w") as f:
        f.write(text)
    proc = subprocess.run([os.path.join(TOOLS, "rlx-compile"), src, "-o", so],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    return so


def check(report, tmp, name, text, reference, inputs, wrt, tol, fd_tol):
    so = compile_module(text, tmp, name)
    got = run_function(so, name + "_grad", inputs, os.path.join(tmp, name))
    args = [torch.tensor(a, dtype=torch.float64, requires_grad=True)
            for a in inputs]
    loss = reference(*args)
    loss.backward()
    wants = [loss.detach().numpy()] + [args[i].grad.numpy() for i in wrt]
    labels = ["loss"] + [f"d{i}" for i in wrt]
    for label, g, want in zip(labels, got, wants):
        report.record(f"{name} {label} vs autograd",
                      compare(g, want.astype(g.dtype), tol))
    # Central differences of the compiled forward at a few coordinates.
    rng = np.random.default_rng(3)
    for k, i in enumerate(wrt):
        for _ in range(2):
            flat = rng.integers(inputs[i].size)
            h = 1e-6 if inputs[i].dtype == np.float64 else 1e-2
            plus, minus = [a.copy() for a in inputs], [a.copy() for a in inputs]
            plus[i].flat[flat] += h
            minus[i].flat[flat] -= h
            fp = run_function(so, name, plus, os.path.join(tmp, name + "p"))[0]
            fm = run_function(so, name, minus, os.path.join(tmp, name + "m"))[0]
            fd = (float(fp) - float(fm)) / (2 * h)
            analytic = float(got[1 + k].flat[flat])
            ok = abs(fd - analytic) <= fd_tol * max(1.0, abs(fd))
            report.record(f"{name} d{i}[{flat}] vs finite difference",
                          None if ok else f"{analytic} vs {fd}")


def main():
    report = Report()
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        t = np.eye(3)[rng.integers(0, 3, 6)]
        mlp_inputs = [rng.standard_normal(s) for s in
                      [(6, 5), (5, 7), (7,), (7, 3), (3,)]] + [t]
        # float64 throughout: the gradients must match to rounding.
        check(report, tmp, "mlp", MLP, mlp_reference, mlp_inputs,
              [1, 2, 3, 4], (1e-10, 1e-12), 1e-6)
        cnn_inputs = [rng.standard_normal(s) for s in
                      [(2, 3, 8, 8), (4, 3, 3, 3), (36,), (36,), (36, 5)]]
        cnn_inputs.append(np.array([1, 4], dtype=np.int64))
        check(report, tmp, "cnn", CNN, cnn_reference, cnn_inputs,
              [1, 2, 3, 4], (1e-9, 1e-11), 1e-5)
        # f32 through a whole block against float64: a few 1e-6 relative.
        check(report, tmp, "block", transformer_block_loss_module(),
              block_reference, transformer_block_inputs(0),
              [1, 2, 5, 6, 7, 8], (2e-4, 2e-6), 5e-2)
        fused_inputs = [rng.standard_normal(s) for s in
                        [(4, 8), (8, 12), (12,), (4, 6), (6,), (6,), (6, 6),
                         (1, 2, 6, 6), (3, 2, 3, 3), (3,)]]
        check(report, tmp, "fused", FUSED, fused_reference, fused_inputs,
              [1, 2, 3, 4, 5, 6, 8, 9], (1e-10, 1e-12), 1e-6)
        cnn_example_inputs = example_cnn_inputs(1) + [
            np.eye(10, dtype=np.float32)[[3, 7]]]
        # f32 through the example against float64.
        check(report, tmp, "cnn_example", cnn_example_loss_module(),
              cnn_example_reference, cnn_example_inputs,
              [1, 2, 3, 4, 5, 6, 7, 8], (2e-4, 2e-6), 5e-2)
        mix_inputs = [rng.standard_normal(s).astype(np.float32)
                      for s in [(2, 3, 4), (4,), (2, 3, 4)]]
        # f32 sums of 16-24 terms: a few ulp each.
        check(report, tmp, "mix", MIX, mix_reference, mix_inputs, [0, 1],
              (1e-4, 1e-5), 2e-2)
        calls_inputs = [rng.standard_normal(s) for s in
                        [(6, 6), (6, 6), (6,), (6, 6), (6,), (6, 6)]]
        check(report, tmp, "calls", CALLS, calls_reference, calls_inputs,
              [0, 1, 2, 3, 4], (1e-10, 1e-12), 1e-6)
    report.finish()


if __name__ == "__main__":
    main()
