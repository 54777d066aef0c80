# RUN: %oracle_python %s
# RUN: env RLX_TEST_TARGET=gpu-blocks-descending %oracle_python %s
# Dynamic shapes for the row ops beyond softmax/layer_norm/rms_norm and their
# backward ops: group_norm, layer_norm2d, batch_norm_inference (batch and
# spatial sizes `?`), ada_layer_norm and gated_residual (batch and sequence
# `?`, modulation per batch row), rope in the three layouts (positions and
# batch `?`, the tables' length tied to the positions), the two softmax
# cross-entropy losses (rows `?`), and the backward op of each. One compiled
# module per function, run at sizes 1, odd and larger than a tile, against
# PyTorch float64 (autograd for the backward ops). The second RUN line runs
# the GPU's kernels on the CPU.
import numpy as np
import torch
import torch.nn.functional as F
from rlx_testing import Suite

rng = np.random.default_rng(1515)
s = Suite()
# Row statistics over up to a few hundred f32 terms.
F32_TOL = (2e-5, 2e-6)


def randn(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def vjp(fn, dy, *inputs):
    """Gradients of sum(dy * fn(*inputs)) for every input."""
    inputs = [x.clone().requires_grad_(True) for x in inputs]
    fn(*inputs).backward(dy)
    return tuple(x.grad for x in inputs)


# --- channel norms: [N, C, *spatial] with N and spatial sizes `?` -------------

C, GROUPS, EPS = 6, 3, 1e-5
gamma, beta = randn(C), randn(C)
mean, var = randn(C), rng.uniform(0.2, 2.0, C).astype(np.float32)
NCHW = "tensor<?x6x?x?xf32>"
NCHW_RUNS = ((1, 1, 1), (2, 3, 5), (3, 9, 17))

s.dynamic_case(
    "channel_norms",
    f"""%r0 = rlx.group_norm %a0, %a1, %a2 groups = {GROUPS} eps = 1.0e-5 : ({NCHW}, tensor<6xf32>, tensor<6xf32>) -> {NCHW}
  %r1 = rlx.layer_norm2d %a0, %a1, %a2 eps = 1.0e-5 : ({NCHW}, tensor<6xf32>, tensor<6xf32>) -> {NCHW}
  %r2 = rlx.batch_norm_inference %a0, %a1, %a2, %a3, %a4 eps = 1.0e-5 : ({NCHW}, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> {NCHW}""",
    [NCHW] + ["tensor<6xf32>"] * 4, [NCHW] * 3,
    [[randn(n, C, h, w), gamma, beta, mean, var] for n, h, w in NCHW_RUNS],
    lambda x, g, b, m, v: (
        F.group_norm(x, GROUPS, g, b, EPS),
        (F.layer_norm(x.permute(0, 2, 3, 1), (C,), g, b, EPS)
         .permute(0, 3, 1, 2)),
        F.batch_norm(x, m, v, g, b, training=False, eps=EPS)),
    tol=F32_TOL)


def channel_norm_grads(x, dy, g, m, v):
    gn = vjp(lambda x, g, b: F.group_norm(x, GROUPS, g, b, EPS), dy, x, g,
             torch.zeros_like(g))
    bn = vjp(lambda x, g, b: F.batch_norm(x, m, v, g, b, training=False,
                                          eps=EPS), dy, x, g,
             torch.zeros_like(g))
    return gn + bn


s.dynamic_case(
    "channel_norms_backward",
    f"""%r0, %r1, %r2 = rlx.group_norm_backward %a1, %a0, %a2 groups = {GROUPS} eps = 1.0e-5 : ({NCHW}, {NCHW}, tensor<6xf32>) -> ({NCHW}, tensor<6xf32>, tensor<6xf32>)
  %r3, %r4, %r5 = rlx.batch_norm_inference_backward %a1, %a0, %a2, %a3, %a4 eps = 1.0e-5 : ({NCHW}, {NCHW}, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> ({NCHW}, tensor<6xf32>, tensor<6xf32>)""",
    [NCHW, NCHW] + ["tensor<6xf32>"] * 3,
    [NCHW, "tensor<6xf32>", "tensor<6xf32>"] * 2,
    [[randn(n, C, h, w), randn(n, C, h, w), gamma, mean, var]
     for n, h, w in NCHW_RUNS],
    channel_norm_grads, tol=F32_TOL)

# --- ada_layer_norm, gated_residual: [B, T, D] with B and T `?` ---------------

D = 16
BTD, MOD = f"tensor<?x?x{D}xf32>", f"tensor<?x1x{D}xf32>"
BTD_RUNS = ((1, 1), (2, 7), (3, 40))


def ada(kind):
    def ref(x, scale, shift):
        if kind == "layer":
            normed = F.layer_norm(x, (D,), eps=1e-6)
        else:
            normed = x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-6)
        return normed * (1 + scale) + shift
    return ref


s.dynamic_case(
    "modulation",
    f"""%r0 = rlx.ada_layer_norm layer %a0, %a1, %a2 eps = 1.0e-6 : ({BTD}, {MOD}, {MOD}) -> {BTD}
  %r1 = rlx.ada_layer_norm rms %a0, %a1, %a2 eps = 1.0e-6 : ({BTD}, {MOD}, {MOD}) -> {BTD}
  %r2 = rlx.gated_residual %a0, %a3, %a1 : ({BTD}, {BTD}, {MOD}) -> {BTD}""",
    [BTD, MOD, MOD, BTD], [BTD] * 3,
    [[randn(b, t, D), randn(b, 1, D), randn(b, 1, D), randn(b, t, D)]
     for b, t in BTD_RUNS],
    lambda x, sc, sh, u: (ada("layer")(x, sc, sh), ada("rms")(x, sc, sh),
                          x + sc * u),
    tol=F32_TOL)


def modulation_grads(x, dy, sc, u):
    zeros = torch.zeros_like(sc)
    layer = vjp(ada("layer"), dy, x, sc, zeros)
    rms = vjp(ada("rms"), dy, x, sc, zeros)
    gated = vjp(lambda x, u, g: x + g * u, dy, torch.zeros_like(u), u, sc)
    return layer + rms + gated


s.dynamic_case(
    "modulation_backward",
    f"""%r0, %r1, %r2 = rlx.ada_layer_norm_backward layer %a1, %a0, %a2 eps = 1.0e-6 : ({BTD}, {BTD}, {MOD}) -> ({BTD}, {MOD}, {MOD})
  %r3, %r4, %r5 = rlx.ada_layer_norm_backward rms %a1, %a0, %a2 eps = 1.0e-6 : ({BTD}, {BTD}, {MOD}) -> ({BTD}, {MOD}, {MOD})
  %r6, %r7, %r8 = rlx.gated_residual_backward %a1, %a3, %a2 : ({BTD}, {BTD}, {MOD}) -> ({BTD}, {BTD}, {MOD})""",
    [BTD, BTD, MOD, BTD], [BTD, MOD, MOD] * 2 + [BTD, BTD, MOD],
    [[randn(b, t, D), randn(b, t, D), randn(b, 1, D), randn(b, t, D)]
     for b, t in BTD_RUNS],
    modulation_grads, tol=F32_TOL)

# --- rope: positions (and batch) `?`, the tables' length tied to them ---------

HEAD_DIM, N_ROT = 8, 6


def tables(seq):
    angles = np.arange(seq)[:, None] * rng.uniform(0.1, 1.0, N_ROT // 2)
    return np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)


def rope_bshd(style):
    """rope on [B, S, H, D] heads, written from its definition."""
    half = N_ROT // 2

    def ref(x, cos, sin):
        rot, rest = x[..., :N_ROT], x[..., N_ROT:]
        c, sn = cos[:, None, :], sin[:, None, :]
        if style == "neox":
            a, b = rot[..., :half], rot[..., half:]
            out = torch.cat([a * c - b * sn, b * c + a * sn], -1)
        else:
            a, b = rot[..., 0::2], rot[..., 1::2]
            out = torch.stack([a * c - b * sn, b * c + a * sn], -1)
            out = out.flatten(-2)
        return torch.cat([out, rest], -1)
    return ref


def rope_layouts(style):
    """The reference in the three layouts: bsd [B, S, 3*D], bshd
    [B, S, 2, D] and bhsd [B, 2, S, D]."""
    ref = rope_bshd(style)

    def all_layouts(bsd, bshd, bhsd, cos, sin):
        b, t, _ = bsd.shape
        return (ref(bsd.reshape(b, t, 3, HEAD_DIM), cos, sin).reshape(bsd.shape),
                ref(bshd, cos, sin),
                ref(bhsd.transpose(1, 2), cos, sin).transpose(1, 2))
    return all_layouts


BSD, BSHD, BHSD = ("tensor<?x?x24xf32>", "tensor<?x?x2x8xf32>",
                   "tensor<?x2x?x8xf32>")
TABLE = "tensor<?x3xf32>"
ROPE_RUNS = ((1, 1), (2, 5), (3, 33))
for op in ("rope", "rope_backward"):
    for style in ("neox", "gptj"):
        body = "\n  ".join(
            f"%r{i} = rlx.{op} {style} {layout} %a{i}, %a3, %a4 head_dim = "
            f"{HEAD_DIM}, n_rot = {N_ROT} : ({t}, {TABLE}, {TABLE}) -> {t}"
            for i, (layout, t) in enumerate((("bsd", BSD), ("bshd", BSHD),
                                             ("bhsd", BHSD))))
        forward = rope_layouts(style)
        if op == "rope":
            ref = forward
        else:
            def ref(dy0, dy1, dy2, cos, sin, forward=forward):
                x = [torch.zeros_like(d, requires_grad=True)
                     for d in (dy0, dy1, dy2)]
                outs = forward(*x, cos, sin)
                torch.autograd.backward(outs, [dy0, dy1, dy2])
                return tuple(t.grad for t in x)
        s.dynamic_case(
            f"{op}_{style}", body, [BSD, BSHD, BHSD, TABLE, TABLE],
            [BSD, BSHD, BHSD],
            [[randn(b, t, 24), randn(b, t, 2, HEAD_DIM),
              randn(b, 2, t, HEAD_DIM), *tables(t)] for b, t in ROPE_RUNS],
            ref, tol=F32_TOL)

# --- losses: rows `?` ---------------------------------------------------------

CLASSES = 10
LOGITS, ROWS = f"tensor<?x{CLASSES}xf32>", "tensor<?xf32>"


def soft_targets(n):
    t = rng.uniform(0, 1, (n, CLASSES)).astype(np.float32)
    return t / t.sum(1, keepdims=True)


def losses(logits, targets, labels, dloss):
    def soft(l):
        return F.cross_entropy(l, targets, reduction="none")

    def hard(l):
        return F.cross_entropy(l, labels, reduction="none")
    return (soft(logits), hard(logits), vjp(soft, dloss, logits)[0],
            vjp(hard, dloss, logits)[0])


s.dynamic_case(
    "losses",
    f"""%r0 = rlx.softmax_cross_entropy %a0, %a1 : ({LOGITS}, {LOGITS}) -> {ROWS}
  %r1 = rlx.softmax_cross_entropy_with_labels %a0, %a2 : ({LOGITS}, tensor<?xi64>) -> {ROWS}
  %r2 = rlx.softmax_cross_entropy_backward %a0, %a1, %a3 : ({LOGITS}, {LOGITS}, {ROWS}) -> {LOGITS}
  %r3 = rlx.softmax_cross_entropy_with_labels_backward %a0, %a2, %a3 : ({LOGITS}, tensor<?xi64>, {ROWS}) -> {LOGITS}""",
    [LOGITS, LOGITS, "tensor<?xi64>", ROWS], [ROWS, ROWS, LOGITS, LOGITS],
    [[randn(n, CLASSES) * 3, soft_targets(n),
      rng.integers(0, CLASSES, n).astype(np.int64), randn(n)]
     for n in (1, 7, 130)],
    losses, tol=F32_TOL)

s.run()
