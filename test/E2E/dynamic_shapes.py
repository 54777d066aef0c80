# RUN: %oracle_python %s
# RUN: env RLX_TEST_TARGET=gpu-blocks-descending %oracle_python %s
# Dynamic shapes: functions whose arguments have `?` sizes, each compiled
# once and run at several sizes (1, odd, larger than a tile) from that one
# module, against PyTorch float64. One or more functions per op family that
# takes `?` sizes: elementwise with broadcasting, contractions (and their
# fused forms), reductions, rows (softmax, norms), data movement, fused
# regions, attention with a dynamic key length (a KV cache) and query
# length, and examples/transformer_block.mlir (rms_norm, rope, grouped-query
# attention, SwiGLU) with `?` batch and tokens. The second RUN line runs the
# GPU's kernels on the CPU.
import os
import re

import numpy as np
import torch
import torch.nn.functional as F
from rlx_testing import Suite
from rlx_testing.attention import attention
from rlx_testing.examples import (transformer_block_inputs,
                                  transformer_block_reference)

rng = np.random.default_rng(15)
s = Suite()
# Sums of up to a few hundred f32 terms.
F32_TOL = (1e-5, 2e-6)


def randn(*shape):
    return rng.standard_normal(shape).astype(np.float32)


# --- elementwise, broadcasting ------------------------------------------------

s.dynamic_case(
    "broadcast",
    """%0 = rlx.add %a0, %a1 : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %1 = rlx.mul %0, %a2 : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  %r = rlx.gelu %1 : tensor<?x?xf32>""",
    ["tensor<?x?xf32>", "tensor<?xf32>", "tensor<?x1xf32>"], "tensor<?x?xf32>",
    [[randn(m, n), randn(n), randn(m, 1)] for m, n in ((1, 1), (3, 17),
                                                        (64, 130))],
    lambda x, b, c: F.gelu((x + b) * c))

# --- contractions ---------------------------------------------------------------

w1, b1, w2 = randn(48, 96) * 0.2, randn(96), randn(96, 16) * 0.2
s.dynamic_case(
    "mlp",
    """%0 = rlx.matmul %a0, %a1 : (tensor<?x48xf32>, tensor<48x96xf32>) -> tensor<?x96xf32>
  %1 = rlx.add %0, %a2 : (tensor<?x96xf32>, tensor<96xf32>) -> tensor<?x96xf32>
  %2 = rlx.relu %1 : tensor<?x96xf32>
  %r = rlx.matmul %2, %a3 : (tensor<?x96xf32>, tensor<96x16xf32>) -> tensor<?x16xf32>""",
    ["tensor<?x48xf32>", "tensor<48x96xf32>", "tensor<96xf32>",
     "tensor<96x16xf32>"], "tensor<?x16xf32>",
    [[randn(m, 48), w1, b1, w2] for m in (1, 5, 67)],
    lambda x, w1, b1, w2: torch.relu(x @ w1 + b1) @ w2, tol=F32_TOL)

s.dynamic_case(
    "batched_matmul",
    "%r = rlx.matmul %a0, %a1 : (tensor<?x?x24xf32>, tensor<?x24x?xf32>) -> "
    "tensor<?x?x?xf32>",
    ["tensor<?x?x24xf32>", "tensor<?x24x?xf32>"], "tensor<?x?x?xf32>",
    [[randn(b, m, 24), randn(b, 24, n)] for b, m, n in ((1, 1, 1), (3, 9, 33),
                                                        (2, 70, 18))],
    lambda a, b: a @ b, tol=F32_TOL)

# --- reductions and rows ----------------------------------------------------------

s.dynamic_case(
    "reductions",
    """%r0 = rlx.reduce sum %a0 axes = [1] : tensor<?x?xf32> -> tensor<?xf32>
  %r1 = rlx.reduce max %a0 axes = [0] : tensor<?x?xf32> -> tensor<?xf32>
  %r2 = rlx.reduce mean %a0 axes = [1] keep_dim : tensor<?x?xf32> -> tensor<?x1xf32>""",
    ["tensor<?x?xf32>"],
    ["tensor<?xf32>", "tensor<?xf32>", "tensor<?x1xf32>"],
    [[randn(m, n)] for m, n in ((1, 1), (5, 77), (40, 300))],
    lambda x: (x.sum(1), x.amax(0), x.mean(1, keepdim=True)), tol=F32_TOL)

gamma, beta = randn(64), randn(64)
s.dynamic_case(
    "rows",
    """%r0 = rlx.softmax %a0 axis = -1 : tensor<?x?xf32>
  %r1 = rlx.layer_norm %a1, %a2, %a3 axis = -1 eps = 1.0e-5 : (tensor<?x?x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x?x64xf32>
  %r2 = rlx.rms_norm %a1, %a2 axis = -1 eps = 1.0e-6 : (tensor<?x?x64xf32>, tensor<64xf32>) -> tensor<?x?x64xf32>""",
    ["tensor<?x?xf32>", "tensor<?x?x64xf32>", "tensor<64xf32>",
     "tensor<64xf32>"],
    ["tensor<?x?xf32>", "tensor<?x?x64xf32>", "tensor<?x?x64xf32>"],
    [[randn(m, n), randn(b, t, 64), gamma, beta]
     for m, n, b, t in ((1, 1, 1, 1), (3, 45, 2, 7), (33, 260, 4, 19))],
    lambda x, y, g, b: (
        torch.softmax(x, -1), F.layer_norm(y, (64,), g, b, 1e-5),
        y * torch.rsqrt((y * y).mean(-1, keepdim=True) + 1e-6) * g),
    tol=F32_TOL)

# --- data movement ------------------------------------------------------------------

# expand to the run-time shape of another value, and numel of run-time sizes
# (in f32 and i64): what the gradients of sums and means over `?` axes use.
s.dynamic_case(
    "expand_like_numel",
    """%e = rlx.expand %a1 like %a0 : tensor<?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  %n = rlx.numel %a0 axes = [0, 1] : tensor<?x?xf32> -> tensor<f32>
  %m = rlx.numel %a0 axes = [0] : tensor<?x?xf32> -> tensor<i64>
  %mf = rlx.cast %m : tensor<i64> -> tensor<f32>
  %q = rlx.div %e, %n : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  %r = rlx.add %q, %mf : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>""",
    ["tensor<?x?xf32>", "tensor<?xf32>"], "tensor<?x?xf32>",
    [[randn(m, n), randn(n)] for m, n in ((1, 1), (3, 17), (64, 130))],
    lambda x, b: b.expand(x.shape) / x.numel() + x.shape[0])


def split_heads(x, past):
    b, t, _ = x.shape
    heads = x.reshape(b, t, 4, 8).permute(0, 2, 1, 3)
    return (heads, torch.cat([past, x], 1), x[:, 1:3, :],
            x.reshape(b * t, 32))


s.dynamic_case(
    "data_movement",
    """%r0 = rlx.reshape %a0 : tensor<?x?x32xf32> -> tensor<?x?x4x8xf32>
  %h = rlx.transpose %r0 [0, 2, 1, 3] : tensor<?x?x4x8xf32> -> tensor<?x4x?x8xf32>
  %r1 = rlx.concat %a1, %a0 axis = 1 : (tensor<?x?x32xf32>, tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
  %r2 = rlx.narrow %a0 axis = 1, start = 1, length = 2 : tensor<?x?x32xf32> -> tensor<?x2x32xf32>
  %r3 = rlx.reshape %a0 : tensor<?x?x32xf32> -> tensor<?x32xf32>
  return %h, %r1, %r2, %r3 : tensor<?x4x?x8xf32>, tensor<?x?x32xf32>, tensor<?x2x32xf32>, tensor<?x32xf32>""",
    ["tensor<?x?x32xf32>", "tensor<?x?x32xf32>"],
    ["tensor<?x4x?x8xf32>", "tensor<?x?x32xf32>", "tensor<?x2x32xf32>",
     "tensor<?x32xf32>"],
    [[randn(b, t, 32), randn(b, p, 32)] for b, t, p in ((1, 3, 1), (2, 5, 9),
                                                        (3, 40, 17))],
    split_heads)

# --- fused regions and fused ops ----------------------------------------------------

wqkv, gam = randn(32, 96) * 0.2, randn(32)
s.dynamic_case(
    "fused_block",
    """%n, %sum = rlx.residual_rms_norm %a0, %a1, %a2 axis = -1 eps = 1.0e-6 : (tensor<?x32xf32>, tensor<?x32xf32>, tensor<32xf32>) -> (tensor<?x32xf32>, tensor<?x32xf32>)
  %p = rlx.matmul %n, %a3 : (tensor<?x32xf32>, tensor<32x96xf32>) -> tensor<?x96xf32>
  %g = rlx.narrow %p axis = 1, start = 0, length = 48 : tensor<?x96xf32> -> tensor<?x48xf32>
  %u = rlx.narrow %p axis = 1, start = 48, length = 48 : tensor<?x96xf32> -> tensor<?x48xf32>
  %sg = rlx.silu %g : tensor<?x48xf32>
  %r0 = rlx.mul %sg, %u : (tensor<?x48xf32>, tensor<?x48xf32>) -> tensor<?x48xf32>
  %e = rlx.exp %sum : tensor<?x32xf32>
  %t = rlx.tanh %e : tensor<?x32xf32>
  %r1 = rlx.sub %t, %sum : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>""",
    ["tensor<?x32xf32>", "tensor<?x32xf32>", "tensor<32xf32>",
     "tensor<32x96xf32>"],
    ["tensor<?x48xf32>", "tensor<?x32xf32>"],
    [[randn(m, 32) * 0.5, randn(m, 32) * 0.5, gam, wqkv] for m in (1, 6, 70)],
    lambda x, res, g, w: (
        lambda y: (lambda p: (F.silu(p[:, :48]) * p[:, 48:],
                              torch.tanh(torch.exp(y)) - y))(
            (y * torch.rsqrt((y * y).mean(-1, keepdim=True) + 1e-6) * g) @ w))(
        x + res),
    tol=F32_TOL)

# --- attention: a KV cache of run-time length, a run-time query length ------------


def attention_ref(kind, heads, kv_heads):
    def ref(q, k, v):
        return attention(q, k, v, None, "bshd", heads, kv_heads, kind)[0]
    return ref


for kind in ("none", "causal"):
    s.dynamic_case(
        f"attention_{kind}",
        f"%r = rlx.attention bshd %a0, %a1, %a2 heads = 4 kv_heads = 2 "
        f"mask = {kind} : (tensor<1x?x4x16xf32>, tensor<1x?x2x16xf32>, "
        f"tensor<1x?x2x16xf32>) -> tensor<1x?x4x16xf32>",
        ["tensor<1x?x4x16xf32>", "tensor<1x?x2x16xf32>",
         "tensor<1x?x2x16xf32>"], "tensor<1x?x4x16xf32>",
        [[randn(1, sq, 4, 16), randn(1, sk, 2, 16), randn(1, sk, 2, 16)]
         for sq, sk in ((1, 1), (1, 37), (5, 5), (7, 130), (70, 70))],
        attention_ref(kind, 4, 2), tol=F32_TOL)

# --- a whole model: examples/transformer_block.mlir with `?` batch and tokens --


def example_body(path, sizes):
    """The body, argument types and result type of the one function in
    `path`, arguments renamed %a0, %a1, ... and each (static, dynamic) pair
    of type prefixes in `sizes` substituted."""
    with open(path) as f:
        text = f.read()
    for static, dynamic in sizes:
        text = text.replace(static, dynamic)
    signature, body = re.search(r"func\.func @\w+\((.*?)\)\s*->\s*[^{]*\{"
                                r"(.*)\}\s*$", text, re.S).groups()
    names = re.findall(r"%(\w+):", signature)
    types = re.findall(r":\s*(tensor<[^>]*>)", signature)
    body = re.sub(r"%a(\d+)\b", r"%a_\1", body)  # free the argument names
    for i, name in enumerate(names):
        body = re.sub(rf"%{name}\b", f"%a{i}", body)
    result = re.search(r"return [^:]*:\s*(tensor<[^>]*>)", body).group(1)
    return body, types, result


BLOCK_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                          "..", "examples", "transformer_block.mlir")
body, types, result = example_body(
    BLOCK_PATH, [("tensor<2x32x", "tensor<?x?x"),
                 ("tensor<32x8xf32>", "tensor<?x8xf32>")])
s.dynamic_case(
    "transformer_block", body, types, result,
    [transformer_block_inputs(i, batch, seq)
     for i, (batch, seq) in enumerate(((2, 32), (1, 1), (1, 7), (3, 19)))],
    transformer_block_reference, tol=(1e-4, 1e-5))

s.run()
