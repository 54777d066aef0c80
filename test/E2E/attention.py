# RUN: %oracle_python %s 16 8
# RUN: %oracle_python %s 64 64
# RUN: env RLX_TEST_TARGET=gpu-blocks-ascending %oracle_python %s 32 32
# RUN: env RLX_TEST_TARGET=gpu-blocks-descending %oracle_python %s 32 32
# RUN: env RLX_TEST_TARGET=gpu-blocks-descending %oracle_python %s 16 8
# rlx.attention against attention written out in PyTorch float64
# (rlx_testing.attention):
# softmax(softcap(q k^T * scale) + bias, masked keys at -inf) v, with a fully
# masked row giving 0, and logsumexp over the visible keys (-inf when none).
# The first two RUN lines compile with (query, key) tiles of 16 x 8 (many
# tiles, remainders, skipped causal and window tiles) and the default
# 64 x 64; the others run the GPU's kernel (a block per query tile, 32 x 32
# tiles by default there) on the CPU, threads taking turns between barriers
# in both orders (RLX_TEST_TARGET=gpu-blocks-*, rlx-compile
# --gpu-blocks-on-cpu).
#
# The grid (rlx_testing.attention.grid) is every mask kind x GQA ratio
# {1, 2, 8} x layout {bshd, bhsd}, cycling through sequence shapes, head dims
# and softcap so every mask kind meets each of them. Sizes are odd or otherwise not multiples of the tiles. Then: the
# single-head bsd layout, f16 and bf16 (computed in f32, logsumexp in f32)
# and f64, explicit and negative scales, window 0, float and all-zero
# padding masks, broadcast biases and a bias row of -inf (fully masked rows).
import sys

import numpy as np
from rlx_testing import Suite, type_of, ttype
from rlx_testing.attention import add_forward_case, attention, grid

query_tile, key_tile = (int(a) for a in sys.argv[1:3])
rng = np.random.default_rng(5)
s = Suite(compile_args=[f"--attention-query-tile={query_tile}",
                        f"--attention-key-tile={key_tile}"])
inf = float("inf")

# An f32 score is a dot product of head_dim terms and each output a sum of
# S_k terms; errors grow with both, to a few 1e-7 relative here.
F32_TOL = (1e-5, 2e-6)
# f16 outputs: one rounding of an f32 result (half an ulp <= 4.9e-4). The
# tolerance of a case applies to all its outputs, so the f32 logsumexp of
# f16 cases is held to this looser one.
F16_TOL = (1e-3, 1e-4)


def randn(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


def reference(layout, heads, kv_heads, kind, window, scale, softcap,
              with_lse):
    def ref(q, k, v, *mask):
        out, lse = attention(q, k, v, mask[0] if mask else None, layout,
                             heads, kv_heads, kind, window, scale, softcap)
        return (out, lse) if with_lse else out
    return ref


def case(name, layout="bshd", batch=2, heads=2, kv_heads=2, sq=5, sk=7,
         d=8, dv=8, kind="none", tol=None, dtype=np.float32, **kwargs):
    add_forward_case(s, rng, name, layout=layout, batch=batch, heads=heads,
                     kv_heads=kv_heads, sq=sq, sk=sk, d=d, dv=dv, kind=kind,
                     dtype=dtype,
                     tol=tol or {np.float32: F32_TOL,
                                 np.float16: F16_TOL}.get(dtype),
                     **kwargs)


# --- the grid -----------------------------------------------------------------

for cell, name, kwargs in grid():
    case(name, with_lse=cell % 3 != 2, **kwargs)

# --- single head, dtypes, attributes, edges -----------------------------------

case("bsd_causal", layout="bsd", heads=1, kv_heads=1, sq=19, sk=19,
     kind="causal", with_lse=True)
case("bsd_decode_bias", layout="bsd", heads=1, kv_heads=1, sq=1, sk=29,
     d=12, dv=20, kind="bias", bias_shape=(1, 1, 1, 29))
case("f16_causal_gqa", heads=4, kv_heads=2, sq=33, sk=45, d=16, dv=24,
     kind="causal", dtype=np.float16, with_lse=True)
case("f16_sliding_bhsd", layout="bhsd", heads=2, kv_heads=1, sq=21, sk=21,
     kind="sliding_window", window=4, softcap=20.0, dtype=np.float16)
case("f16_bias", heads=2, kv_heads=2, sq=9, sk=17, kind="bias",
     bias_shape=(1, 2, 9, 17), dtype=np.float16)
case("f64_padding", layout="bhsd", heads=8, kv_heads=2, sq=13, sk=27, d=16,
     dv=12, kind="padding", dtype=np.float64, with_lse=True)
case("scale_explicit", heads=2, kv_heads=1, sq=11, sk=31, kind="causal",
     scale=0.3, with_lse=True)
case("scale_negative_softcap", heads=2, kv_heads=2, sq=12, sk=12,
     scale=-0.7, softcap=2.0)
case("window_zero", heads=2, kv_heads=2, sq=17, sk=25,
     kind="sliding_window", window=0, with_lse=True)
case("window_past_start", layout="bhsd", heads=4, kv_heads=4, sq=30, sk=30,
     kind="sliding_window", window=100)
case("causal_queries_past_keys", heads=2, kv_heads=1, sq=29, sk=3,
     kind="causal", with_lse=True)
# Batch 1 sees no key at all: its rows are 0, its logsumexp -inf.
no_keys = rng.random((2, 26)) < 0.5
no_keys[1] = False
case("padding_batch_without_keys", heads=2, kv_heads=1, sq=7, sk=26,
     kind="padding", mask=no_keys, with_lse=True)
case("padding_float_mask", heads=2, kv_heads=2, sq=6, sk=19, kind="padding",
     mask=(rng.random((2, 19)) < 0.6).astype(np.float32))
case("bias_broadcast_batch", heads=4, kv_heads=2, sq=10, sk=14,
     kind="bias", bias_shape=(1, 4, 10, 14))
case("bias_broadcast_heads", layout="bhsd", heads=4, kv_heads=4, sq=10,
     sk=14, kind="bias", bias_shape=(2, 1, 10, 14), with_lse=True)
bias = randn(2, 2, 9, 20)
bias[0, 1, 3] = -inf
bias[1, 0, :, 5:] = -inf
case("bias_masked_rows", heads=2, kv_heads=2, sq=9, sk=20, kind="bias",
     mask=bias, with_lse=True)
# bf16 cannot cross .npy: f32 inputs exact in bf16 are cast in, the output
# cast back to f32; computed in f32 and rounded to bf16 once.
def bf16_round(x):
    """f32 -> nearest-even bf16, kept in an f32 array."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000)
    return bits.astype(np.uint32).view(np.float32)


bq, bk, bv = (bf16_round(randn(*shape)) for shape in
              [(2, 11, 4, 16), (2, 19, 2, 16), (2, 19, 2, 8)])
bf16 = {name: ttype(x.shape, "bf16") for name, x in
        [("q", bq), ("k", bk), ("v", bv)]}
bf16_out, lse_type = ttype((2, 11, 4, 8), "bf16"), ttype((2, 4, 11), "f32")
s.case("bf16_causal_gqa", f"""
  %q = rlx.cast %a0 : {type_of(bq)} -> {bf16['q']}
  %k = rlx.cast %a1 : {type_of(bk)} -> {bf16['k']}
  %v = rlx.cast %a2 : {type_of(bv)} -> {bf16['v']}
  %o, %r1 = rlx.attention bshd %q, %k, %v heads = 4 kv_heads = 2 mask = causal softcap = 4.0 with_logsumexp : ({bf16['q']}, {bf16['k']}, {bf16['v']}) -> ({bf16_out}, {lse_type})
  %r0 = rlx.cast %o : {bf16_out} -> {ttype((2, 11, 4, 8), "f32")}""",
       [bq, bk, bv],
       reference("bshd", 4, 2, "causal", None, None, 4.0, with_lse=True),
       out=[ttype((2, 11, 4, 8), "f32"), lse_type], tol="bf16")
# Scores of a few hundred: their f32 rounding (~3e-5 absolute) moves each
# probability by as much, relative.
case("large_scores", heads=2, kv_heads=2, sq=15, sk=15, scale=40.0,
     with_lse=True, tol=(1e-4, 1e-5))

s.run()
