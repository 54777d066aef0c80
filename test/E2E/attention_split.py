# RUN: %oracle_python %s
# RUN: env RLX_TEST_TARGET=gpu-blocks-descending %oracle_python %s
# rlx.attention whose keys are split across thread tiles (split-K, as
# flash-decoding does): each split runs the online softmax over its keys into
# partial states of its own, and the partials merge after the loop
# (rlx.online_attention's PartialReductionOpInterface). Checked against
# attention written out in PyTorch float64 (rlx_testing.attention).
#
# The CPU schedule splits keys where batches x heads x query tiles make fewer
# than 16 thread tiles, in parts of at least 256 keys: decode steps (one
# query, few heads) and short speculative steps (a few queries). Cases: GQA,
# both layouts, keys not a multiple of the split (a short last split), a
# sliding window that hides every split but the last (partials that saw no
# key merge as empty), padding that masks whole splits or every key of a
# batch (output 0, logsumexp -inf), a bias, softcap, f16 inputs; then
# schedules given on the op (a causal prefill whose upper splits see no key,
# splits of one key tile) and a schedule without split, for comparison.
import numpy as np
from rlx_testing import Suite
from rlx_testing.attention import add_forward_case

rng = np.random.default_rng(7)
s = Suite()

# f32: a score is a sum of d products and an output a sum over S_k keys,
# merged from partial sums; errors of a few 1e-7 relative.
F32_TOL = (1e-5, 2e-6)
F16_TOL = (1e-3, 1e-4)


def case(name, layout="bshd", batch=1, heads=2, kv_heads=1, sq=1, sk=2048,
         d=64, dv=64, kind="causal", with_lse=True, dtype=np.float32,
         tol=None, **kwargs):
    add_forward_case(s, rng, name, layout=layout, batch=batch, heads=heads,
                     kv_heads=kv_heads, sq=sq, sk=sk, d=d, dv=dv, kind=kind,
                     with_lse=with_lse, dtype=dtype,
                     tol=tol or {np.float32: F32_TOL,
                                 np.float16: F16_TOL}[dtype],
                     **kwargs)


# --- schedules the CPU chooses --------------------------------------------------

case("decode_gqa_causal")                                   # 8 splits of 256
case("decode_bhsd_one_head", layout="bhsd", heads=1, sk=1000, d=32, dv=48,
     kind="none")                                           # 256 x 3 + 232
case("decode_bsd", layout="bsd", heads=1, kv_heads=1, sk=777, d=16, dv=16,
     kind="none", with_lse=False, scale=0.5)
case("decode_sliding_window", heads=2, kv_heads=2, sk=1500,
     kind="sliding_window", window=100)
case("speculative_causal", batch=2, heads=2, kv_heads=2, sq=4, sk=1024,
     softcap=10.0)                                          # 4 tiles x 4
no_split_keys = rng.random((2, 1300)) < 0.7
no_split_keys[0, :600] = False
no_split_keys[1] = False
case("decode_padding_masked_splits", batch=2, heads=2, kv_heads=2, sk=1300,
     kind="padding", mask=no_split_keys)
case("decode_bias", heads=4, kv_heads=2, sk=600, d=32, dv=32, kind="bias",
     bias_shape=(1, 4, 1, 600))
case("decode_f16", heads=2, kv_heads=2, sk=1024, kind="causal",
     dtype=np.float16, with_lse=False)

# --- schedules given on the op -----------------------------------------------------

# Causal prefill: 4 query tiles x 4 splits of 32 keys; the splits above a
# query tile's diagonal see no key.
case("prefill_causal_given_splits", heads=2, kv_heads=2, sq=100, sk=100,
     d=16, dv=16, config="distribution = [1, 1, 32, 32], "
     "cache = [0, 0, 0, 16], vector = [0, 0, 0, 0]")
# Splits of one key tile each, and a sliding window.
case("prefill_window_given_splits", layout="bhsd", heads=2, kv_heads=1,
     sq=40, sk=70, d=8, dv=8, kind="sliding_window", window=9,
     config="distribution = [1, 1, 0, 8], cache = [0, 0, 0, 8], "
     "vector = [0, 0, 0, 0]")
# The same decode step with its keys in one thread tile.
case("decode_given_no_split", sk=1000, config="distribution = [1, 1, 1, 0], "
     "cache = [0, 0, 0, 64], vector = [0, 0, 0, 0]")

s.run()
