"""Attention written out in PyTorch, the reference of rlx.attention and
rlx.attention_backward (PyTorch 1.13 has no fused attention to compare with).

`attention(q, k, v, mask, ...)` computes, in the precision of its inputs
(float64 in the tests), softmax(softcap(q k^T * scale) + bias) v over the
keys the mask lets each query see, and the log-sum-exp of the visible
scores. A query that sees no key gets 0 and a log-sum-exp of -inf, and
autograd through it gives zero gradients there rather than NaN.
"""
import math

import numpy as np
import torch

LAYOUTS = ("bshd", "bhsd", "bsd")


def layout_shape(layout, batch, heads, seq, features):
    """The shape of q, k, v or out in `layout`."""
    if layout == "bshd":
        return (batch, seq, heads, features)
    if layout == "bhsd":
        return (batch, heads, seq, features)
    return (batch, seq, features)


def to_bhsd(t, layout):
    if layout == "bshd":
        return t.permute(0, 2, 1, 3)
    return t if layout == "bhsd" else t.unsqueeze(1)


def from_bhsd(t, layout):
    if layout == "bshd":
        return t.permute(0, 2, 1, 3)
    return t if layout == "bhsd" else t.squeeze(1)


def attention(q, k, v, mask, layout, heads, kv_heads, kind, window=None,
              scale=None, softcap=None):
    """(out in `layout`, logsumexp [B, H, S_q]). `mask` is the padding mask
    ([B, S_k], nonzero = valid) or the bias ([B|1, H|1, S_q, S_k]) for those
    kinds, otherwise None. Key/value head h // (heads // kv_heads) serves
    query head h."""
    group = heads // kv_heads
    Q = to_bhsd(q, layout)
    K = to_bhsd(k, layout).repeat_interleave(group, 1)
    V = to_bhsd(v, layout).repeat_interleave(group, 1)
    if scale is None:
        scale = 1 / math.sqrt(Q.shape[-1])
    scores = Q @ K.transpose(-1, -2) * scale
    if softcap is not None:
        scores = softcap * torch.tanh(scores / softcap)
    sq, sk = scores.shape[-2:]
    position = torch.arange(sq)[:, None] + (sk - sq)
    key = torch.arange(sk)[None, :]
    inf = float("inf")
    if kind == "causal":
        scores = scores.masked_fill(key > position, -inf)
    elif kind == "sliding_window":
        scores = scores.masked_fill(
            (key > position) | (key < position - window), -inf)
    elif kind == "padding":
        scores = scores.masked_fill((mask == 0)[:, None, None, :], -inf)
    elif kind == "bias":
        scores = scores + mask
    # Rows without a visible key: softmax over zeros, then multiplied by 0,
    # so neither the value nor the gradient is NaN.
    empty = torch.isneginf(scores).all(-1, keepdim=True)
    safe = torch.where(empty, torch.zeros_like(scores), scores)
    p = torch.softmax(safe, -1) * (~empty)
    lse = torch.logsumexp(scores.detach(), -1)
    return from_bhsd(p @ V, layout), lse


# --- test cases shared by the forward and backward suites ---------------------

# The grid of attention.py and attention_backward.py: every mask kind x GQA
# ratio x layout {bshd, bhsd}; each cell takes the next (S_q, S_k) (equal,
# S_q < S_k, decode S_q = 1, S_q > S_k where the first causal rows see no
# key, sizes past one 64 tile), the next (head_dim, v_head_dim) and softcap
# on or off in turn, so every mask kind meets every sequence shape and both
# softcap settings.
SEQUENCES = [(37, 37), (23, 41), (1, 37), (40, 23), (70, 150)]
HEAD_DIMS = [(16, 24), (24, 8), (8, 8)]
RATIOS = {1: (2, 2), 2: (4, 2), 8: (8, 1)}
MASKS = {"none": {}, "causal": {}, "sliding_window": {"window": 9},
         "padding": {}, "bias": {}}


def grid():
    """(cell index, case name, case keyword arguments) for every cell."""
    cell = 0
    for kind, extra in MASKS.items():
        for ratio, (heads, kv_heads) in RATIOS.items():
            for layout in ("bshd", "bhsd"):
                sq, sk = SEQUENCES[cell % len(SEQUENCES)]
                d, dv = HEAD_DIMS[cell % len(HEAD_DIMS)]
                softcap = 5.0 if cell % 2 else None
                name = (f"{kind}_gqa{ratio}_{layout}_q{sq}_k{sk}_d{d}_{dv}"
                        + ("_softcap" if softcap else ""))
                yield cell, name, dict(layout=layout, heads=heads,
                                       kv_heads=kv_heads, sq=sq, sk=sk, d=d,
                                       dv=dv, kind=kind, softcap=softcap,
                                       **extra)
                cell += 1


def random_inputs(rng, layout, batch, heads, kv_heads, sq, sk, d, dv, kind,
                  dtype, mask=None, bias_shape=None):
    """Standard-normal q, k, v in `layout` and the mask operand of `kind`:
    `mask` if given, else a random padding mask (70% valid keys) or a random
    bias of `bias_shape` (default [B, H, S_q, S_k]); None for other kinds."""
    def randn(*shape):
        return rng.standard_normal(shape).astype(dtype)
    q = randn(*layout_shape(layout, batch, heads, sq, d))
    k = randn(*layout_shape(layout, batch, kv_heads, sk, d))
    v = randn(*layout_shape(layout, batch, kv_heads, sk, dv))
    if mask is None and kind == "padding":
        mask = rng.random((batch, sk)) < 0.7
    elif mask is None and kind == "bias":
        mask = randn(*(bias_shape or (batch, heads, sq, sk)))
    return q, k, v, mask


def attributes(heads, kv_heads, kind, window=None, scale=None, softcap=None):
    """The attribute text of rlx.attention / rlx.attention_backward."""
    text = f"heads = {heads} kv_heads = {kv_heads} mask = {kind}"
    if window is not None:
        text += f" window = {window}"
    if scale is not None:
        text += f" scale = {scale:e}"
    if softcap is not None:
        text += f" softcap = {softcap:e}"
    return text


def add_forward_case(suite, rng, name, *, layout, batch, heads, kv_heads, sq,
                     sk, d, dv, kind, window=None, scale=None, softcap=None,
                     with_lse=False, dtype=np.float32, mask=None,
                     bias_shape=None, tol=None, config=None):
    """Adds to `suite` (an rlx_testing.Suite) a function of one rlx.attention
    on random inputs (random_inputs), checked against attention(); its
    logsumexp too when `with_lse` (f64 for f64 inputs, else f32). `config`:
    the text of a #rlx.lowering_config to give the op."""
    from rlx_testing import ttype, type_of
    q, k, v, mask = random_inputs(rng, layout, batch, heads, kv_heads, sq, sk,
                                  d, dv, kind, dtype, mask, bias_shape)
    inputs = [q, k, v] + ([] if mask is None else [mask])
    attrs = attributes(heads, kv_heads, kind, window, scale, softcap)
    out = [type_of(np.empty(layout_shape(layout, batch, heads, sq, dv),
                            dtype=dtype))]
    if with_lse:
        attrs += " with_logsumexp"
        out.append(ttype((batch, heads, sq),
                         "f64" if dtype == np.float64 else "f32"))
    if config:
        attrs += (" {rlx.lowering_config = #rlx.lowering_config<" + config +
                  ">}")
    operands = ", ".join(f"%a{i}" for i in range(len(inputs)))
    results = "%r" if len(out) == 1 else "%r0, %r1"
    body = (f"{results} = rlx.attention {layout} {operands} {attrs} : "
            f"({', '.join(type_of(x) for x in inputs)}) -> "
            f"({', '.join(out)})")

    def ref(q, k, v, *mask):
        result, lse = attention(q, k, v, mask[0] if mask else None, layout,
                                heads, kv_heads, kind, window, scale, softcap)
        return (result, lse) if with_lse else result
    suite.case(name, body, inputs, ref, out=out[0] if len(out) == 1 else out,
               tol=tol)
