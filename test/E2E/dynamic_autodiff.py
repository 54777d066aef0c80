# RUN: %oracle_python %s
# REQUIRES: torch
# --rlx-autodiff on functions with `?` sizes: each loss is compiled once and
# its <name>_grad run at several sizes from that one module, the loss and
# gradients against torch.autograd in float64: a perceptron with a `?`
# batch (a mean over the batch: the count is read at run time), a
# broadcast/reshape/transpose/where/max mix with `?` rows, a CNN with a `?`
# batch (conv, relu, max pool, layer_norm, gelu, cross-entropy against
# labels), the other spatial adjoints with a `?` batch (transposed
# convolution, average and global pooling, nearest upsampling), an
# embedding and a running sum over `?` batch and tokens, and
# examples/transformer_block.mlir with `?` batch and tokens
# (rms_norm, narrow, rope, causal GQA attention, silu gating).
import os
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

from rlx_testing import Report, compare, run_function
from rlx_testing.examples import transformer_block_inputs

from autodiff import (block_reference, compile_module,
                      transformer_block_loss_module)

MLP = """
func.func @mlp(%x: tensor<?x5xf64>, %w1: tensor<5x7xf64>, %b1: tensor<7xf64>,
               %w2: tensor<7x3xf64>, %b2: tensor<3xf64>, %labels: tensor<?xi64>)
    -> tensor<f64> attributes {rlx.differentiate = array<i64: 0, 1, 2, 3, 4>} {
  %h = rlx.matmul %x, %w1 : (tensor<?x5xf64>, tensor<5x7xf64>) -> tensor<?x7xf64>
  %hb = rlx.add %h, %b1 : (tensor<?x7xf64>, tensor<7xf64>) -> tensor<?x7xf64>
  %a = rlx.tanh %hb : tensor<?x7xf64>
  %l = rlx.matmul %a, %w2 : (tensor<?x7xf64>, tensor<7x3xf64>) -> tensor<?x3xf64>
  %lb = rlx.add %l, %b2 : (tensor<?x3xf64>, tensor<3xf64>) -> tensor<?x3xf64>
  %ce = rlx.softmax_cross_entropy_with_labels %lb, %labels
      : (tensor<?x3xf64>, tensor<?xi64>) -> tensor<?xf64>
  %loss = rlx.reduce mean %ce axes = [0] : tensor<?xf64> -> tensor<f64>
  return %loss : tensor<f64>
}
"""


def mlp_reference(x, w1, b1, w2, b2, labels):
    return F.cross_entropy(torch.tanh(x @ w1 + b1) @ w2 + b2, labels)


# Rows of `?` length: broadcasts summed back over them, a where, a max over
# them (ties share), a mean over everything.
MIX = """
func.func @mix(%x: tensor<?x4xf64>, %v: tensor<4xf64>, %c: tensor<?x1xf64>)
    -> tensor<f64> attributes {rlx.differentiate = array<i64: 0, 1, 2>} {
  %t = rlx.transpose %x [1, 0] : tensor<?x4xf64> -> tensor<4x?xf64>
  %r = rlx.reshape %t : tensor<4x?xf64> -> tensor<4x1x?xf64>
  %s = rlx.reduce sum %r axes = [1] : tensor<4x1x?xf64> -> tensor<4x?xf64>
  %b = rlx.transpose %s [1, 0] : tensor<4x?xf64> -> tensor<?x4xf64>
  %p = rlx.mul %b, %v : (tensor<?x4xf64>, tensor<4xf64>) -> tensor<?x4xf64>
  %q = rlx.add %p, %c : (tensor<?x4xf64>, tensor<?x1xf64>) -> tensor<?x4xf64>
  %z = rlx.constant dense<0.0> : tensor<f64>
  %pos = rlx.gt %x, %z : (tensor<?x4xf64>, tensor<f64>) -> tensor<?x4xi1>
  %w = rlx.where %pos, %q, %x : (tensor<?x4xi1>, tensor<?x4xf64>, tensor<?x4xf64>) -> tensor<?x4xf64>
  %m = rlx.reduce max %w axes = [0] : tensor<?x4xf64> -> tensor<4xf64>
  %e = rlx.exp %w : tensor<?x4xf64>
  %a = rlx.reduce mean %e axes = [0, 1] : tensor<?x4xf64> -> tensor<f64>
  %ms = rlx.reduce sum %m axes = [0] : tensor<4xf64> -> tensor<f64>
  %loss = rlx.add %a, %ms : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %loss : tensor<f64>
}
"""


def mix_reference(x, v, c):
    q = x * v + c
    w = torch.where(x > 0, q, x)
    return torch.exp(w).mean() + torch.amax(w, dim=0).sum()


CNN = """
func.func @cnn(%x: tensor<?x3x8x8xf64>, %w: tensor<4x3x3x3xf64>,
               %g: tensor<36xf64>, %b: tensor<36xf64>, %wo: tensor<36x5xf64>,
               %labels: tensor<?xi64>)
    -> tensor<f64> attributes {rlx.differentiate = array<i64: 0, 1, 2, 3, 4>} {
  %c = rlx.conv %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1
      : (tensor<?x3x8x8xf64>, tensor<4x3x3x3xf64>) -> tensor<?x4x6x6xf64>
  %r = rlx.relu %c : tensor<?x4x6x6xf64>
  %p = rlx.pool max %r kernel = [2, 2] stride = [2, 2] padding = [0, 0, 0, 0]
      : tensor<?x4x6x6xf64> -> tensor<?x4x3x3xf64>
  %f = rlx.reshape %p : tensor<?x4x3x3xf64> -> tensor<?x36xf64>
  %n = rlx.layer_norm %f, %g, %b axis = -1 eps = 1.0e-5
      : (tensor<?x36xf64>, tensor<36xf64>, tensor<36xf64>) -> tensor<?x36xf64>
  %a = rlx.gelu %n : tensor<?x36xf64>
  %z = rlx.matmul %a, %wo : (tensor<?x36xf64>, tensor<36x5xf64>) -> tensor<?x5xf64>
  %l = rlx.softmax_cross_entropy_with_labels %z, %labels
      : (tensor<?x5xf64>, tensor<?xi64>) -> tensor<?xf64>
  %loss = rlx.reduce mean %l axes = [0] : tensor<?xf64> -> tensor<f64>
  return %loss : tensor<f64>
}
"""


def cnn_reference(x, w, g, b, wo, labels):
    r = F.relu(F.conv2d(x, w))
    p = F.max_pool2d(r, 2, 2).flatten(1)
    n = F.layer_norm(p, [36], g, b, 1e-5)
    return F.cross_entropy(F.gelu(n) @ wo, labels)


# The other spatial adjoints with a `?` batch: a grouped, strided transposed
# convolution, average pooling, global max and average pooling, nearest 2x
# upsampling.
DECODER = """
func.func @decoder(%x: tensor<?x4x3x3xf64>, %w: tensor<4x2x3x3xf64>)
    -> tensor<f64> attributes {rlx.differentiate = array<i64: 0, 1>} {
  %t = rlx.conv_transpose %x, %w stride = [2, 2] padding = [1, 1, 1, 1]
      output_padding = [1, 0] dilation = [1, 1] groups = 2
      : (tensor<?x4x3x3xf64>, tensor<4x2x3x3xf64>) -> tensor<?x4x6x5xf64>
  %u = rlx.resize_nearest2x %t : tensor<?x4x6x5xf64> -> tensor<?x4x12x10xf64>
  %p = rlx.pool avg %u kernel = [3, 3] stride = [2, 2] padding = [1, 1, 1, 1]
      : tensor<?x4x12x10xf64> -> tensor<?x4x6x5xf64>
  %s = rlx.sin %p : tensor<?x4x6x5xf64>
  %m = rlx.global_pool max %s : tensor<?x4x6x5xf64> -> tensor<?x4x1x1xf64>
  %a = rlx.global_pool avg %p : tensor<?x4x6x5xf64> -> tensor<?x4x1x1xf64>
  %r = rlx.mul %m, %a : (tensor<?x4x1x1xf64>, tensor<?x4x1x1xf64>) -> tensor<?x4x1x1xf64>
  %loss = rlx.reduce sum %r axes = [0, 1, 2, 3] : tensor<?x4x1x1xf64> -> tensor<f64>
  return %loss : tensor<f64>
}
"""


def decoder_reference(x, w):
    t = F.conv_transpose2d(x, w, stride=2, padding=1, output_padding=(1, 0),
                           groups=2)
    p = F.avg_pool2d(F.interpolate(t, scale_factor=2, mode="nearest"), 3,
                     stride=2, padding=1, count_include_pad=False)
    m = F.adaptive_max_pool2d(torch.sin(p), 1)
    return (m * F.adaptive_avg_pool2d(p, 1)).sum()


# An embedding of `?` batch and tokens (its gradient scatter-adds into the
# static table), a running sum along the `?` tokens and a gain.
EMBED = """
func.func @embed(%table: tensor<10x6xf64>, %ids: tensor<?x?xi64>, %w: tensor<6xf64>)
    -> tensor<f64> attributes {rlx.differentiate = array<i64: 0, 2>} {
  %e = rlx.gather %table, %ids axis = 0 : (tensor<10x6xf64>, tensor<?x?xi64>) -> tensor<?x?x6xf64>
  %c = rlx.cumsum %e axis = 1 : tensor<?x?x6xf64>
  %m = rlx.mul %c, %w : (tensor<?x?x6xf64>, tensor<6xf64>) -> tensor<?x?x6xf64>
  %t = rlx.tanh %m : tensor<?x?x6xf64>
  %loss = rlx.reduce mean %t axes = [0, 1, 2] : tensor<?x?x6xf64> -> tensor<f64>
  return %loss : tensor<f64>
}
"""


def embed_reference(table, ids, w):
    return torch.tanh(torch.cumsum(table[ids], dim=1) * w).mean()


def check(report, so, name, reference, inputs, wrt, tol, tmp, label):
    got = run_function(so, name + "_grad", inputs, os.path.join(tmp, name))
    args = [torch.tensor(a, dtype=torch.float64,
                         requires_grad=np.issubdtype(a.dtype, np.floating))
            if np.issubdtype(a.dtype, np.floating) else torch.from_numpy(a)
            for a in inputs]
    loss = reference(*args)
    loss.backward()
    wants = [loss.detach().numpy()] + [args[i].grad.numpy() for i in wrt]
    names = ["loss"] + [f"d{i}" for i in wrt]
    for what, g, want in zip(names, got, wants):
        report.record(f"{name} at {label} {what} vs autograd",
                      compare(g, want.astype(g.dtype), tol))


def main():
    report = Report()
    rng = np.random.default_rng(15)
    normal = lambda *s: rng.standard_normal(s)
    with tempfile.TemporaryDirectory() as tmp:
        so = compile_module(MLP, tmp, "mlp")
        weights = [normal(5, 7), normal(7), normal(7, 3), normal(3)]
        for n in (1, 6, 37):
            inputs = [normal(n, 5)] + weights + [rng.integers(0, 3, n)]
            check(report, so, "mlp", mlp_reference, inputs, [0, 1, 2, 3, 4],
                  (1e-10, 1e-12), tmp, f"batch {n}")

        so = compile_module(MIX, tmp, "mix")
        v = normal(4)
        for n in (1, 5, 33):
            # Rounded so that the max over rows has ties to share.
            x = np.round(normal(n, 4) * 2) / 2
            check(report, so, "mix", mix_reference, [x, v, normal(n, 1)],
                  [0, 1, 2], (1e-10, 1e-12), tmp, f"{n} rows")

        so = compile_module(
            transformer_block_loss_module((0, 1, 2, 5, 6, 7, 8), dynamic=True),
            tmp, "block")
        # f32 through a whole block against float64: a few 1e-6 relative.
        for batch, seq in ((1, 1), (2, 32), (3, 17)):
            check(report, so, "block", block_reference,
                  transformer_block_inputs(batch + seq, batch, seq),
                  [0, 1, 2, 5, 6, 7, 8], (2e-4, 2e-6), tmp,
                  f"{batch}x{seq}")
        so = compile_module(CNN, tmp, "cnn")
        weights = [normal(4, 3, 3, 3), normal(36), normal(36), normal(36, 5)]
        for n in (1, 3):
            inputs = [normal(n, 3, 8, 8)] + weights + [rng.integers(0, 5, n)]
            check(report, so, "cnn", cnn_reference, inputs, [0, 1, 2, 3, 4],
                  (1e-9, 1e-11), tmp, f"batch {n}")


        so = compile_module(EMBED, tmp, "embed")
        table, w = normal(10, 6), normal(6)
        for batch, seq in ((1, 1), (2, 9), (3, 40)):
            check(report, so, "embed", embed_reference,
                  [table, rng.integers(0, 10, (batch, seq)), w], [0, 2],
                  (1e-10, 1e-12), tmp, f"{batch}x{seq}")

        so = compile_module(DECODER, tmp, "decoder")
        w = normal(4, 2, 3, 3)
        for n in (1, 4):
            check(report, so, "decoder", decoder_reference,
                  [normal(n, 4, 3, 3), w], [0, 1], (1e-9, 1e-11), tmp,
                  f"batch {n}")
    report.finish()


if __name__ == "__main__":
    main()
