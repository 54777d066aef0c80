# RUN: %oracle_python %s
# REQUIRES: torch
# --rlx-autodiff on functions with `?` sizes: each loss is compiled once and
# its <name>_grad run at several sizes from that one module, the loss and
# gradients against torch.autograd in float64: a perceptron with a `?`
# batch (a mean over the batch: the count is read at run time), a
# broadcast/reshape/transpose/where/max mix with `?` rows, a CNN with a `?`
# batch (conv, relu, max pool, layer_norm, gelu, cross-entropy against
# labels), the other spatial adjoints with a `?` batch (transposed
# convolution, average and global pooling, nearest upsampling), every
# spatial adjoint with `?` image sizes, windows, pads, a kv_append and topk
# along `?` axes, an embedding and a running sum over `?` batch and tokens,
# and
# examples/transformer_block.mlir with `?` batch and tokens
# (rms_norm, narrow, rope, causal GQA attention, silu gating).
import os
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

from rlx_testing import Report, compare, ptx, run_function
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


# `?` image sizes through every spatial adjoint: a strided convolution with
# asymmetric padding (several image sizes give its output size, so its
# input gradient takes the sizes from the input), a ceil-mode max pool, a
# strided transposed convolution, an average pool without the padding in
# its divisor, global max and average pools.
IMAGE = """
func.func @image(%x: tensor<?x2x?x?xf64>, %w: tensor<3x2x3x3xf64>,
                 %wt: tensor<3x2x2x2xf64>)
    -> tensor<f64> attributes {rlx.differentiate = array<i64: 0, 1, 2>} {
  %c = rlx.conv %x, %w stride = [2, 2] padding = [1, 1, 1, 0] dilation = [1, 1] groups = 1
      : (tensor<?x2x?x?xf64>, tensor<3x2x3x3xf64>) -> tensor<?x3x?x?xf64>
  %r = rlx.tanh %c : tensor<?x3x?x?xf64>
  %p = rlx.pool max %r kernel = [3, 3] stride = [2, 2] padding = [1, 1, 1, 1] ceil_mode
      : tensor<?x3x?x?xf64> -> tensor<?x3x?x?xf64>
  %t = rlx.conv_transpose %p, %wt stride = [2, 2] padding = [0, 0, 0, 0]
      output_padding = [0, 0] dilation = [1, 1] groups = 1
      : (tensor<?x3x?x?xf64>, tensor<3x2x2x2xf64>) -> tensor<?x2x?x?xf64>
  %a = rlx.pool avg %t kernel = [2, 2] stride = [1, 1] padding = [1, 1, 0, 0]
      : tensor<?x2x?x?xf64> -> tensor<?x2x?x?xf64>
  %s = rlx.sin %a : tensor<?x2x?x?xf64>
  %m = rlx.global_pool max %s : tensor<?x2x?x?xf64> -> tensor<?x2x1x1xf64>
  %g = rlx.global_pool avg %c : tensor<?x3x?x?xf64> -> tensor<?x3x1x1xf64>
  %gg = rlx.mul %g, %g : (tensor<?x3x1x1xf64>, tensor<?x3x1x1xf64>) -> tensor<?x3x1x1xf64>
  %ms = rlx.reduce sum %m axes = [0, 1, 2, 3] : tensor<?x2x1x1xf64> -> tensor<f64>
  %gs = rlx.reduce sum %gg axes = [0, 1, 2, 3] : tensor<?x3x1x1xf64> -> tensor<f64>
  %loss = rlx.add %ms, %gs : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %loss : tensor<f64>
}
"""


def image_reference(x, w, wt):
    c = F.conv2d(F.pad(x, (1, 0, 1, 1)), w, stride=2)
    p = F.max_pool2d(torch.tanh(c), 3, stride=2, padding=1, ceil_mode=True)
    t = F.conv_transpose2d(p, wt, stride=2)
    a = F.avg_pool2d(t, 2, stride=1, padding=(1, 0), count_include_pad=False)
    m = F.adaptive_max_pool2d(torch.sin(a), 1)
    g = F.adaptive_avg_pool2d(c, 1)
    return m.sum() + (g * g).sum()


# Windows, pads and writes along a `?` axis: narrow, a strided and a
# reversed slice, every pad mode (constant with a negative, cropping pad),
# a kv_append into a cache of `?` length, and topk over `?` rows.
WINDOWS = """
func.func @windows(%x: tensor<?x?x3xf64>, %u: tensor<?x2x3xf64>, %pos: tensor<i64>)
    -> tensor<f64> attributes {rlx.differentiate = array<i64: 0, 1>} {
  %n = rlx.narrow %x axis = 1, start = 1, length = 2 : tensor<?x?x3xf64> -> tensor<?x2x3xf64>
  %s = rlx.slice %x axis = 1, start = 0, length = 2, step = 2 : tensor<?x?x3xf64> -> tensor<?x2x3xf64>
  %v = rlx.slice %x axis = 1, start = 2, length = 2, step = -1 : tensor<?x?x3xf64> -> tensor<?x2x3xf64>
  %e = rlx.pad reflect %x pads = [0, 0, 2, 1, 0, 0] : tensor<?x?x3xf64> -> tensor<?x?x3xf64>
  %c = rlx.pad circular %x pads = [0, 0, 1, 3, 0, 0] : tensor<?x?x3xf64> -> tensor<?x?x3xf64>
  %r = rlx.pad replicate %x pads = [0, 0, 2, 2, 1, 0] : tensor<?x?x3xf64> -> tensor<?x?x4xf64>
  %z = rlx.pad constant %x pads = [0, 0, -1, 2, 0, 0] : tensor<?x?x3xf64> -> tensor<?x?x3xf64>
  %k = rlx.kv_append %x, %u at %pos axis = 1 : tensor<?x?x3xf64>, tensor<?x2x3xf64>, tensor<i64>
  %t, %i = rlx.topk %x k = 2 : tensor<?x?x3xf64> -> tensor<?x?x2xf64>, tensor<?x?x2xi64>
  %nv = rlx.mul %n, %v : (tensor<?x2x3xf64>, tensor<?x2x3xf64>) -> tensor<?x2x3xf64>
  %ns = rlx.add %nv, %s : (tensor<?x2x3xf64>, tensor<?x2x3xf64>) -> tensor<?x2x3xf64>
  %l0 = rlx.reduce sum %ns axes = [0, 1, 2] : tensor<?x2x3xf64> -> tensor<f64>
  %e2 = rlx.sin %e : tensor<?x?x3xf64>
  %l1 = rlx.reduce sum %e2 axes = [0, 1, 2] : tensor<?x?x3xf64> -> tensor<f64>
  %c2 = rlx.cos %c : tensor<?x?x3xf64>
  %l2 = rlx.reduce sum %c2 axes = [0, 1, 2] : tensor<?x?x3xf64> -> tensor<f64>
  %r2 = rlx.tanh %r : tensor<?x?x4xf64>
  %l3 = rlx.reduce sum %r2 axes = [0, 1, 2] : tensor<?x?x4xf64> -> tensor<f64>
  %z2 = rlx.mul %z, %z : (tensor<?x?x3xf64>, tensor<?x?x3xf64>) -> tensor<?x?x3xf64>
  %l4 = rlx.reduce sum %z2 axes = [0, 1, 2] : tensor<?x?x3xf64> -> tensor<f64>
  %k2 = rlx.sin %k : tensor<?x?x3xf64>
  %l5 = rlx.reduce sum %k2 axes = [0, 1, 2] : tensor<?x?x3xf64> -> tensor<f64>
  %t2 = rlx.exp %t : tensor<?x?x2xf64>
  %l6 = rlx.reduce sum %t2 axes = [0, 1, 2] : tensor<?x?x2xf64> -> tensor<f64>
  %a0 = rlx.add %l0, %l1 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %a1 = rlx.add %a0, %l2 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %a2 = rlx.add %a1, %l3 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %a3 = rlx.add %a2, %l4 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %a4 = rlx.add %a3, %l5 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %loss = rlx.add %a4, %l6 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %loss : tensor<f64>
}
"""


def windows_reference(x, u, pos):
    n = x[:, 1:3]
    s = x[:, 0:4:2]
    v = x[:, 1:3].flip(1)  # x[:, 2], x[:, 1]
    # torch pads list the last dimension first; reflect/replicate/circular
    # need a batch and a channel dimension before the padded ones.
    t = x.transpose(1, 2)  # [B, 3, S]: pad along the last axis
    e = F.pad(t, (2, 1), mode="reflect").transpose(1, 2)
    c = F.pad(t, (1, 3), mode="circular").transpose(1, 2)
    r = F.pad(x.unsqueeze(1), (1, 0, 2, 2), mode="replicate").squeeze(1)
    z = F.pad(x, (0, 0, -1, 2))
    length = x.shape[1]
    p = min(max(int(pos), 0), length - u.shape[1])
    k = torch.cat([x[:, :p], u, x[:, p + u.shape[1]:]], dim=1)
    top = torch.topk(x, 2, dim=-1).values
    return ((n * v + s).sum() + torch.sin(e).sum() + torch.cos(c).sum()
            + torch.tanh(r).sum() + (z * z).sum() + torch.sin(k).sum()
            + torch.exp(top).sum())


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


def check_ptx():
    """With RLX_TESTING_PTX: each module (its loss and gradient functions)
    compiled for those GPUs and its kernels assembled, nothing run."""
    report = Report()
    modules = {"mlp": MLP, "mix": MIX, "cnn": CNN, "image": IMAGE,
               "windows": WINDOWS, "embed": EMBED, "decoder": DECODER}
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in modules.items():
            ptx.check_module(text, tmp, name, report)
    report.finish()


def main():
    if ptx.chips():
        check_ptx()
        return
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

        so = compile_module(IMAGE, tmp, "image")
        w, wt = normal(3, 2, 3, 3), normal(3, 2, 2, 2)
        for n, h, wd in ((1, 7, 8), (2, 8, 9), (3, 13, 6)):
            check(report, so, "image", image_reference,
                  [normal(n, 2, h, wd), w, wt], [0, 1, 2], (1e-9, 1e-11),
                  tmp, f"{n}x{h}x{wd}")

        so = compile_module(WINDOWS, tmp, "windows")
        # Reflect needs 3 tokens, circular 3; positions inside the cache,
        # past its end (clamped) and negative (clamped to 0).
        for batch, seq, pos in ((1, 3, 1), (2, 6, 9), (3, 11, -2)):
            check(report, so, "windows", windows_reference,
                  [normal(batch, seq, 3), normal(batch, 2, 3),
                   np.array(pos, dtype=np.int64)], [0, 1], (1e-10, 1e-12),
                  tmp, f"{batch}x{seq} at {pos}")

        so = compile_module(DECODER, tmp, "decoder")
        w = normal(4, 2, 3, 3)
        for n in (1, 4):
            check(report, so, "decoder", decoder_reference,
                  [normal(n, 4, 3, 3), w], [0, 1], (1e-9, 1e-11), tmp,
                  f"batch {n}")
    report.finish()


if __name__ == "__main__":
    main()
