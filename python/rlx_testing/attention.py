"""Attention written out in PyTorch, the reference of rlx.attention and
rlx.attention_backward (PyTorch 1.13 has no fused attention to compare with).

`attention(q, k, v, mask, ...)` computes, in the precision of its inputs
(float64 in the tests), softmax(softcap(q k^T * scale) + bias) v over the
keys the mask lets each query see, and the log-sum-exp of the visible
scores. A query that sees no key gets 0 and a log-sum-exp of -inf, and
autograd through it gives zero gradients there rather than NaN.
"""
import math

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
