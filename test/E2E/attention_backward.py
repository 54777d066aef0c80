# RUN: %oracle_python %s 16 8
# RUN: %oracle_python %s 64 64
# RUN: env RLX_TEST_TARGET=gpu-blocks-ascending %oracle_python %s 32 32
# RUN: env RLX_TEST_TARGET=gpu-blocks-descending %oracle_python %s 32 32
# RUN: env RLX_TEST_TARGET=gpu-blocks-descending %oracle_python %s 16 8
# rlx.attention_backward against torch.autograd through attention written out
# in PyTorch float64 (rlx_testing.attention): dq, dk, dv (summed over the
# query heads of each GQA group) and the bias gradient (summed over the axes
# the bias broadcasts), for the gradient dout of a loss sum(out * dout). The
# op is given the reference's out and logsumexp rounded to the input type
# (logsumexp to the computation type). The first two RUN lines compile with
# (query, key) tiles of 16 x 8 and the default 64 x 64; the others run the
# GPU's kernel (a block per (batch, kv head)) on the CPU, threads taking
# turns between barriers in both orders (RLX_TEST_TARGET=gpu-blocks-*).
#
# The grid is attention.py's (rlx_testing.attention.grid). Then: bsd, f16, f64, the bias gradient with
# full and broadcast biases, rows that see no key (gradient 0), window 0 and
# an explicit scale.
import sys

import numpy as np
import torch
from rlx_testing import Suite, type_of
from rlx_testing.attention import (attention, attributes, grid, layout_shape,
                                   random_inputs)

query_tile, key_tile = (int(a) for a in sys.argv[1:3])
rng = np.random.default_rng(11)
s = Suite(compile_args=[f"--attention-query-tile={query_tile}",
                        f"--attention-key-tile={key_tile}"])
inf = float("inf")

# Each gradient element sums S_k (dq) or group * S_q (dk, dv) products of
# recomputed f32 probabilities and O(1) factors: a few 1e-7 relative each.
F32_TOL = (1e-4, 1e-5)
# f16 gradients: one rounding of the f32 result (half an ulp <= 4.9e-4),
# plus the f16 rounding of the out the op is given.
F16_TOL = (2e-3, 2e-3)


def randn(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


def case(name, layout="bshd", batch=2, heads=2, kv_heads=2, sq=5, sk=7,
         d=8, dv=8, kind="none", window=None, scale=None, softcap=None,
         dtype=np.float32, mask=None, bias_shape=None, bias_grad=False,
         tol=None):
    q, k, v, mask = random_inputs(rng, layout, batch, heads, kv_heads, sq, sk,
                                  d, dv, kind, dtype, mask, bias_shape)
    dout = randn(*layout_shape(layout, batch, heads, sq, dv), dtype=dtype)
    attrs = dict(layout=layout, heads=heads, kv_heads=kv_heads, kind=kind,
                 window=window, scale=scale, softcap=softcap)
    t = lambda a: None if a is None else torch.from_numpy(
        np.asarray(a).astype(np.float64) if np.asarray(a).dtype != bool
        else np.asarray(a))
    out, lse = attention(t(q), t(k), t(v), t(mask), **attrs)
    compute = np.float64 if dtype == np.float64 else np.float32
    inputs = [q, k, v, out.numpy().astype(dtype), dout,
              lse.numpy().astype(compute)]
    if mask is not None:
        inputs.append(mask)

    def ref(q, k, v, out, dout, lse, *mask):
        leaves = [q, k, v] + ([mask[0]] if bias_grad else [])
        for leaf in leaves:
            leaf.requires_grad_(True)
        forward, _ = attention(q, k, v, mask[0] if mask else None, **attrs)
        return torch.autograd.grad((forward * dout).sum(), leaves)

    text = attributes(heads, kv_heads, kind, window, scale, softcap)
    if bias_grad:
        text += " with_bias_grad"
    results = [type_of(q), type_of(k), type_of(v)]
    if bias_grad:
        results.append(type_of(mask))
    operands = ", ".join(f"%a{i}" for i in range(len(inputs)))
    names = ", ".join(f"%r{i}" for i in range(len(results)))
    body = (f"{names} = rlx.attention_backward {layout} {operands} {text} : "
            f"({', '.join(type_of(x) for x in inputs)}) -> "
            f"({', '.join(results)})")
    s.case(name, body, inputs, ref, out=results,
           tol=tol or {np.float32: F32_TOL, np.float16: F16_TOL}.get(dtype))


# --- the grid -----------------------------------------------------------------

for cell, name, kwargs in grid():
    case(name, bias_grad=kwargs["kind"] == "bias" and cell % 3 != 2, **kwargs)

# --- single head, dtypes, bias gradients, edges -------------------------------

case("bsd_causal", layout="bsd", heads=1, kv_heads=1, sq=19, sk=19,
     kind="causal")
case("f16_causal_gqa", heads=4, kv_heads=2, sq=33, sk=45, d=16, dv=24,
     kind="causal", dtype=np.float16)
case("f16_bias_grad", layout="bhsd", heads=2, kv_heads=1, sq=9, sk=17,
     kind="bias", bias_grad=True, softcap=20.0, dtype=np.float16)
case("f64_sliding", layout="bhsd", heads=8, kv_heads=2, sq=13, sk=27, d=16,
     dv=12, kind="sliding_window", window=5, dtype=np.float64,
     tol=(1e-9, 1e-11))
case("bias_grad_broadcast_batch", heads=4, kv_heads=2, sq=10, sk=14,
     kind="bias", bias_shape=(1, 4, 10, 14), bias_grad=True)
case("bias_grad_broadcast_heads", layout="bhsd", heads=4, kv_heads=4, sq=10,
     sk=14, kind="bias", bias_shape=(2, 1, 10, 14), bias_grad=True)
case("bias_grad_broadcast_both", layout="bsd", heads=1, kv_heads=1, sq=12,
     sk=20, kind="bias", bias_shape=(1, 1, 12, 20), bias_grad=True)
bias = randn(2, 2, 9, 20)
bias[0, 1, 3] = -inf
bias[1, 0, :, 5:] = -inf
case("bias_masked_rows", heads=2, kv_heads=2, sq=9, sk=20, kind="bias",
     mask=bias, bias_grad=True)
case("causal_queries_past_keys", heads=2, kv_heads=1, sq=29, sk=3,
     kind="causal")
no_keys = rng.random((2, 26)) < 0.5
no_keys[1] = False
case("padding_batch_without_keys", heads=2, kv_heads=1, sq=7, sk=26,
     kind="padding", mask=no_keys)
case("window_zero", heads=2, kv_heads=2, sq=17, sk=25,
     kind="sliding_window", window=0)
case("scale_explicit_softcap", heads=2, kv_heads=1, sq=11, sk=31,
     kind="causal", scale=0.3, softcap=2.0)

s.run()
