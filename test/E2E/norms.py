# RUN: %oracle_python %s
# The GPU's row kernels (a block per row) run on the CPU, threads taking
# turns between barriers (rlx-compile --gpu-blocks-on-cpu):
# RUN: env RLX_TEST_TARGET=gpu-blocks-descending %oracle_python %s
# REQUIRES: torch
# Normalizations (layer_norm over the last and a middle axis, rms_norm,
# group_norm with 1, some and C groups, layer_norm2d, batch_norm_inference,
# ada_layer_norm, gated_residual), rope in both styles with full and partial
# rotation, and the two softmax cross-entropy losses, against
# torch.nn.functional in float64. Edge cases: constant rows (with and
# without eps), variance below eps, a large offset that breaks
# E[x^2] - E[x]^2 in f32, normalized axes of size 1, a batch of 1, odd sizes,
# f16, bf16, f64, large logits, out-of-range labels (NaN); the saved
# statistics of layer_norm and rms_norm.
import numpy as np
import torch
import torch.nn.functional as F
from rlx_testing import Suite, elem_of, type_of, ttype

nan = float("nan")
rng = np.random.default_rng(7)
s = Suite()
# An f32 row sum is off by ~sqrt(n) ulp of its terms; normalized outputs are
# O(1), so allow a few 1e-6 absolute.
F32_NORM = (1e-5, 5e-6)


def randn(*shape, dtype=np.float32, scale=1.0, offset=0.0):
    return (rng.standard_normal(shape) * scale + offset).astype(dtype)


def signature(*arrays, out=None):
    """`: (types) -> type` of an op on `arrays` giving the first one's type."""
    ins = ", ".join(type_of(a) for a in arrays)
    return f": ({ins}) -> {out or type_of(arrays[0])}"


def move_last(fn, axis):
    """Applies fn (which normalizes the last axis) along `axis` instead."""
    def ref(x, *rest):
        moved = fn(x.movedim(axis, -1), *rest)
        return moved.movedim(-1, axis)
    return ref


# --- layer_norm ---------------------------------------------------------------

def layer_norm(name, x, axis, eps=1e-5, tol=None):
    d = x.shape[axis]
    g, b = randn(d, dtype=x.dtype), randn(d, dtype=x.dtype)
    s.case(name, f"%r = rlx.layer_norm %a0, %a1, %a2 axis = {axis} "
           f"eps = {eps:e} {signature(x, g, b)}", [x, g, b],
           move_last(lambda t, g, b: F.layer_norm(t, [d], g, b, eps), axis),
           out=type_of(x),
           tol=tol if tol else F32_NORM if x.dtype == np.float32 else None)


layer_norm("layer_norm_last", randn(4, 16), -1)
layer_norm("layer_norm_last_positive_axis", randn(3, 2, 7), 2)
layer_norm("layer_norm_middle", randn(3, 5, 4), 1)
layer_norm("layer_norm_middle_negative", randn(2, 6, 3, 2), -3)
layer_norm("layer_norm_first", randn(9, 4), 0)
layer_norm("layer_norm_batch1_odd", randn(1, 13), -1)
layer_norm("layer_norm_axis_size1", randn(4, 1), -1)  # every row -> beta
layer_norm("layer_norm_rank1", randn(11), 0)
layer_norm("layer_norm_f64", randn(5, 33, dtype=np.float64), 1)
layer_norm("layer_norm_f16", randn(6, 24, dtype=np.float16), -1)
layer_norm("layer_norm_f16_middle", randn(3, 24, 5, dtype=np.float16), 1)
# Variance (1e-6) below eps (1e-5): eps dominates the denominator.
layer_norm("layer_norm_tiny_variance", randn(4, 16, scale=1e-3), -1)
# x - mean cancels ~4.7 of f64's 16 digits here, in the reference as well.
layer_norm("layer_norm_tiny_variance_f64",
           randn(4, 16, scale=1e-4, offset=5.0, dtype=np.float64), -1,
           eps=1e-9, tol=(1e-9, 1e-11))
# Rows of ~1000 +- 1: E[x^2] - E[x]^2 in f32 is off by 5-16% of the
# variance; the two-pass variance keeps the error at the rounding of the mean.
layer_norm("layer_norm_large_offset", randn(4, 16, offset=1e3), -1,
           tol=(1e-3, 1e-3))
const = randn(3, 8)
const[1] = 3.0
const[2] = -0.5
layer_norm("layer_norm_constant_rows", const, -1)  # -> beta
layer_norm("layer_norm_constant_rows_eps0", const, -1, eps=0.0)  # -> NaN



def stats_type(x, axis):
    """Type of the saved statistics: axis kept as 1, f32 for f16."""
    shape = [1 if i == axis % x.ndim else d for i, d in enumerate(x.shape)]
    return ttype(shape, "f32" if x.dtype == np.float16 else elem_of(x))


def layer_norm_statistics(name, x, axis, eps=1e-5):
    d = x.shape[axis]
    g, b = randn(d, dtype=x.dtype), randn(d, dtype=x.dtype)
    st = stats_type(x, axis)

    def ref(t, g, b):
        mean = t.mean(axis, keepdim=True)
        var = t.var(axis, unbiased=False, keepdim=True)
        y = move_last(lambda u, g, b: F.layer_norm(u, [d], g, b, eps),
                      axis)(t, g, b)
        return y, mean, torch.rsqrt(var + eps)
    s.case(name, f"%r0, %r1, %r2 = rlx.layer_norm %a0, %a1, %a2 axis = {axis} "
           f"eps = {eps:e} with_statistics : ({type_of(x)}, {type_of(g)}, "
           f"{type_of(b)}) -> ({type_of(x)}, {st}, {st})", [x, g, b], ref,
           out=[type_of(x), st, st],
           tol=F32_NORM if x.dtype == np.float32 else None)


layer_norm_statistics("layer_norm_statistics", randn(4, 16), -1)
layer_norm_statistics("layer_norm_statistics_middle", randn(2, 5, 3), 1)
# The statistics of an f16 input are f32: compared at f32 tolerance.
layer_norm_statistics("layer_norm_statistics_f16",
                      randn(3, 32, dtype=np.float16), 1)
layer_norm_statistics("layer_norm_statistics_rank1",
                      randn(9, dtype=np.float64), 0)

# --- rms_norm -----------------------------------------------------------------

def rms_ref(eps, with_beta):
    def ref(x, g, *beta):
        y = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * g
        return y + beta[0] if with_beta else y
    return ref


def rms_norm(name, x, axis, eps=1e-6, with_beta=False):
    d = x.shape[axis]
    params = [randn(d, dtype=x.dtype) for _ in range(2 if with_beta else 1)]
    operands = "%a1, %a2" if with_beta else "%a1"
    s.case(name, f"%r = rlx.rms_norm %a0, {operands} axis = {axis} "
           f"eps = {eps:e} {signature(x, *params)}", [x] + params,
           move_last(rms_ref(eps, with_beta), axis), out=type_of(x),
           tol=F32_NORM if x.dtype == np.float32 else None)


rms_norm("rms_norm_last", randn(4, 16), -1)
rms_norm("rms_norm_beta", randn(4, 16), 1, with_beta=True)
rms_norm("rms_norm_middle", randn(2, 7, 3), 1)
rms_norm("rms_norm_first_beta", randn(5, 3), -2, with_beta=True)
rms_norm("rms_norm_batch1", randn(1, 9), -1)
rms_norm("rms_norm_f64", randn(3, 20, dtype=np.float64), -1, with_beta=True)
rms_norm("rms_norm_f16", randn(4, 32, dtype=np.float16), -1)
zero = randn(3, 8)
zero[1] = 0.0
rms_norm("rms_norm_zero_row", zero, -1)  # 0 * rsqrt(eps) = 0
rms_norm("rms_norm_zero_row_eps0", zero, -1, eps=0.0)  # 0 * inf = NaN
rms_norm("rms_norm_tiny", randn(3, 8, scale=1e-4), -1, eps=1e-5)


def rms_norm_statistics(name, x, axis, eps=1e-6):
    g = randn(x.shape[axis], dtype=x.dtype)
    st = stats_type(x, axis)

    def ref(t, g):
        rstd = torch.rsqrt(t.pow(2).mean(axis, keepdim=True) + eps)
        return move_last(rms_ref(eps, False), axis)(t, g), rstd
    s.case(name, f"%r0, %r1 = rlx.rms_norm %a0, %a1 axis = {axis} "
           f"eps = {eps:e} with_statistics : ({type_of(x)}, {type_of(g)}) "
           f"-> ({type_of(x)}, {st})", [x, g], ref, out=[type_of(x), st],
           tol=F32_NORM if x.dtype == np.float32 else None)


rms_norm_statistics("rms_norm_statistics", randn(2, 3, 8), -1)
rms_norm_statistics("rms_norm_statistics_first", randn(6, 4), 0)
rms_norm_statistics("rms_norm_statistics_f16", randn(4, 16, dtype=np.float16),
                    1)

# --- group_norm, layer_norm2d, batch_norm_inference ---------------------------

def group_norm(name, x, groups, eps=1e-5):
    c = x.shape[1]
    g, b = randn(c, dtype=x.dtype), randn(c, dtype=x.dtype)
    s.case(name, f"%r = rlx.group_norm %a0, %a1, %a2 groups = {groups} "
           f"eps = {eps:e} {signature(x, g, b)}", [x, g, b],
           lambda t, g, b: F.group_norm(t, groups, g, b, eps), out=type_of(x),
           tol=F32_NORM if x.dtype == np.float32 else None)


group_norm("group_norm_nchw", randn(2, 6, 3, 4), 3)
group_norm("group_norm_groups_eq_channels", randn(2, 6, 3, 4), 6)
group_norm("group_norm_one_group", randn(2, 6, 3, 4), 1)
group_norm("group_norm_rank3", randn(3, 4, 5), 2)
group_norm("group_norm_rank2", randn(3, 4), 2)
group_norm("group_norm_batch1_odd", randn(1, 9, 5, 3), 3)
group_norm("group_norm_f16", randn(2, 8, 4, 4, dtype=np.float16), 4)
group_norm("group_norm_f64", randn(2, 4, 3, 3, dtype=np.float64), 2)
gconst = randn(2, 4, 2, 2)
gconst[0, 2:] = 1.5  # the second group of sample 0 is constant -> beta
group_norm("group_norm_constant_group", gconst, 2)


def layer_norm2d(name, x, eps=1e-6):
    c = x.shape[1]
    g, b = randn(c, dtype=x.dtype), randn(c, dtype=x.dtype)
    s.case(name, f"%r = rlx.layer_norm2d %a0, %a1, %a2 eps = {eps:e} "
           f"{signature(x, g, b)}", [x, g, b],
           move_last(lambda t, g, b: F.layer_norm(t, [c], g, b, eps), 1),
           out=type_of(x), tol=F32_NORM if x.dtype == np.float32 else None)


layer_norm2d("layer_norm2d", randn(2, 8, 3, 5))
layer_norm2d("layer_norm2d_batch1", randn(1, 5, 2, 3))
layer_norm2d("layer_norm2d_one_channel", randn(2, 1, 3, 3))  # -> beta
layer_norm2d("layer_norm2d_f16", randn(2, 16, 2, 2, dtype=np.float16))


def batch_norm(name, x, eps=1e-5):
    c = x.shape[1]
    g, b, m = (randn(c, dtype=x.dtype) for _ in range(3))
    v = rng.uniform(0.1, 2.0, c).astype(x.dtype)
    s.case(name, f"%r = rlx.batch_norm_inference %a0, %a1, %a2, %a3, %a4 "
           f"eps = {eps:e} {signature(x, g, b, m, v)}", [x, g, b, m, v],
           lambda t, g, b, m, v: F.batch_norm(t, m, v, g, b, training=False,
                                              eps=eps), out=type_of(x))


batch_norm("batch_norm_nchw", randn(2, 3, 4, 5))
batch_norm("batch_norm_rank2", randn(4, 7))
batch_norm("batch_norm_rank3_batch1", randn(1, 3, 5))
batch_norm("batch_norm_eps0", randn(2, 3, 2, 2), eps=0.0)
batch_norm("batch_norm_f16", randn(2, 4, 3, 3, dtype=np.float16))
batch_norm("batch_norm_f64", randn(2, 4, 3, dtype=np.float64))

# --- ada_layer_norm, gated_residual -------------------------------------------

def ada_ref(kind, eps):
    def ref(x, scale, shift):
        if kind == "layer":
            normed = F.layer_norm(x, [x.shape[-1]], eps=eps)
        else:
            normed = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
        return normed * (1 + scale) + shift
    return ref


def ada(name, kind, x, mod_shape, eps=1e-6):
    scale = randn(*mod_shape, dtype=x.dtype)
    shift = randn(*mod_shape, dtype=x.dtype)
    s.case(name, f"%r = rlx.ada_layer_norm {kind} %a0, %a1, %a2 "
           f"eps = {eps:e} {signature(x, scale, shift)}", [x, scale, shift],
           ada_ref(kind, eps), out=type_of(x),
           tol=F32_NORM if x.dtype == np.float32 else None)


ada("ada_layer", "layer", randn(2, 5, 8), (2, 1, 8))
ada("ada_rms", "rms", randn(2, 5, 8), (2, 1, 8))
ada("ada_layer_vector", "layer", randn(3, 7), (7,))
ada("ada_rms_full", "rms", randn(2, 3, 6), (2, 3, 6))
ada("ada_layer_f16", "layer", randn(2, 4, 16, dtype=np.float16), (2, 1, 16))


def gated(name, x, gate_shape):
    y, gate = randn(*x.shape, dtype=x.dtype), randn(*gate_shape, dtype=x.dtype)
    s.case(name, f"%r = rlx.gated_residual %a0, %a1, %a2 "
           f"{signature(x, y, gate)}", [x, y, gate],
           lambda x, y, g: x + g * y, out=type_of(x))


gated("gated_residual", randn(2, 5, 8), (2, 1, 8))
gated("gated_residual_vector", randn(3, 4), (4,))
gated("gated_residual_f16", randn(2, 3, 8, dtype=np.float16), (2, 1, 8))

# --- rope ---------------------------------------------------------------------

def to_bshd(x, layout, head_dim):
    """A rope input as [..., S, H, D] (a view; from_bshd undoes it)."""
    if layout == "bsd":
        return x.reshape(*x.shape[:-1], x.shape[-1] // head_dim, head_dim)
    return x.transpose(-3, -2) if layout == "bhsd" else x


def from_bshd(y, layout, shape):
    return (y.transpose(-3, -2) if layout == "bhsd" else y).reshape(shape)


def rope_ref(head_dim, n_rot, style, layout="bsd"):
    half = n_rot // 2

    def ref(x, cos, sin):
        heads = to_bshd(x, layout, head_dim)
        rot, rest = heads[..., :n_rot], heads[..., n_rot:]
        c, sn = cos[:, None, :], sin[:, None, :]  # [S, 1, half] over heads
        if style == "neox":
            a, b = rot[..., :half], rot[..., half:]
            out = torch.cat([a * c - b * sn, b * c + a * sn], -1)
        else:
            a, b = rot[..., 0::2], rot[..., 1::2]
            out = torch.stack([a * c - b * sn, b * c + a * sn], -1)
            out = out.flatten(-2)
        return from_bshd(torch.cat([out, rest], -1), layout, x.shape)
    return ref


def rope(name, style, x, head_dim, n_rot, layout="bsd"):
    seq = x.shape[-3 if layout == "bshd" else -2]
    angles = np.arange(seq)[:, None] * rng.uniform(0.1, 1.0, n_rot // 2)
    cos, sin = np.cos(angles).astype(x.dtype), np.sin(angles).astype(x.dtype)
    s.case(name, f"%r = rlx.rope {style} {layout} %a0, %a1, %a2 head_dim = "
           f"{head_dim}, n_rot = {n_rot} {signature(x, cos, sin)}",
           [x, cos, sin], rope_ref(head_dim, n_rot, style, layout),
           out=type_of(x))


for style in ("neox", "gptj"):
    rope(f"rope_{style}_full", style, randn(2, 5, 8), 8, 8)
    rope(f"rope_{style}_partial", style, randn(2, 5, 10), 10, 4)
    rope(f"rope_{style}_heads", style, randn(2, 5, 3 * 8), 8, 6)
    rope(f"rope_{style}_rank2_pair", style, randn(7, 6), 6, 2)
    # Each layout names its positions axis; S != H so a misread fails.
    rope(f"rope_{style}_bshd", style, randn(2, 5, 3, 8), 8, 8, "bshd")
    rope(f"rope_{style}_bshd_partial", style, randn(2, 4, 3, 10), 10, 6,
         "bshd")
    rope(f"rope_{style}_bhsd", style, randn(2, 3, 5, 8), 8, 8, "bhsd")
    rope(f"rope_{style}_bhsd_batched", style, randn(2, 2, 3, 5, 8), 8, 4,
         "bhsd")
    rope(f"rope_{style}_f16", style, randn(1, 4, 16, dtype=np.float16), 16, 8)
    rope(f"rope_{style}_f64", style, randn(2, 3, 12, dtype=np.float64), 6, 4)

# --- bf16 ---------------------------------------------------------------------
# bf16 cannot cross .npy: f32 arguments (exact in bf16) are cast in, the op
# runs on bf16 (statistics in f32) and its bf16 result is cast out to f32.

def bf16_round(x):
    """f32 -> nearest-even bf16, kept in an f32 array."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
    return bits.view(np.float32)


def bf16_case(name, op_body, inputs, ref):
    """op_body(bf16 operand names, bf16 types) defines %y in bf16."""
    inputs = [bf16_round(x) for x in inputs]
    types = [ttype(x.shape, "bf16") for x in inputs]
    casts = "\n  ".join(f"%b{i} = rlx.cast %a{i} : {type_of(x)} -> {t}"
                         for i, (x, t) in enumerate(zip(inputs, types)))
    out = type_of(inputs[0])
    body = (f"{casts}\n  {op_body([f'%b{i}' for i in range(len(inputs))], types)}"
            f"\n  %r = rlx.cast %y : {types[0]} -> {out}")
    s.case(name, body, inputs, ref, out=out, tol="bf16")


bf16_case("layer_norm_bf16",
          lambda v, t: f"%y = rlx.layer_norm {v[0]}, {v[1]}, {v[2]} axis = -1 "
          f"eps = 1.0e-05 : ({t[0]}, {t[1]}, {t[2]}) -> {t[0]}",
          [randn(3, 40), randn(40), randn(40)],
          lambda x, g, b: F.layer_norm(x, [40], g, b, 1e-5))
bf16_case("rope_gptj_bf16",
          lambda v, t: f"%y = rlx.rope gptj bsd {v[0]}, {v[1]}, {v[2]} "
          f"head_dim = 8, n_rot = 6 : ({t[0]}, {t[1]}, {t[2]}) -> {t[0]}",
          [randn(2, 4, 16), randn(4, 3), randn(4, 3)],
          rope_ref(8, 6, "gptj"))

# --- losses -------------------------------------------------------------------

def cross_entropy(name, logits, targets):
    s.case(name, f"%r = rlx.softmax_cross_entropy %a0, %a1 "
           f"{signature(logits, targets, out=ttype([len(logits)], elem_of(logits)))}",
           [logits, targets],
           lambda l, t: F.cross_entropy(l, t, reduction="none"),
           out=ttype([len(logits)], elem_of(logits)),
           tol=(1e-5, 1e-5) if logits.dtype == np.float32 else None)


def soft_targets(n, c, dtype=np.float32):
    t = rng.uniform(0, 1, (n, c))
    return (t / t.sum(1, keepdims=True)).astype(dtype)


cross_entropy("cross_entropy_soft", randn(4, 10, scale=3), soft_targets(4, 10))
cross_entropy("cross_entropy_one_hot", randn(3, 5),
              np.eye(5, dtype=np.float32)[[4, 0, 2]])
cross_entropy("cross_entropy_large", randn(3, 7, scale=1e4),
              soft_targets(3, 7))
cross_entropy("cross_entropy_batch1", randn(1, 9), soft_targets(1, 9))
cross_entropy("cross_entropy_f16", randn(5, 6, dtype=np.float16),
              soft_targets(5, 6, np.float16))
cross_entropy("cross_entropy_f64", randn(3, 4, dtype=np.float64),
              soft_targets(3, 4, np.float64))


def labels_ref(l, y):
    n, c = l.shape
    valid = (y >= 0) & (y < c)
    loss = F.cross_entropy(l, torch.where(valid, y, torch.zeros_like(y)),
                           reduction="none")
    return torch.where(valid, loss, torch.full_like(loss, nan))


def with_labels(name, logits, labels):
    out = ttype([len(logits)], elem_of(logits))
    s.case(name, f"%r = rlx.softmax_cross_entropy_with_labels %a0, %a1 "
           f"{signature(logits, labels, out=out)}", [logits, labels],
           labels_ref, out=out,
           tol=(1e-5, 1e-5) if logits.dtype == np.float32 else None)


with_labels("labels_i64", randn(6, 10, scale=3),
            rng.integers(0, 10, 6).astype(np.int64))
with_labels("labels_i32", randn(4, 3), np.array([2, 0, 1, 2], np.int32))
with_labels("labels_large", randn(3, 7, scale=1e4),
            np.array([0, 6, 3], np.int64))
with_labels("labels_batch1", randn(1, 5), np.array([4], np.int32))
with_labels("labels_out_of_range", randn(5, 4),
            np.array([-1, 4, 3, 2**31 - 1, -2**31], np.int32))
with_labels("labels_out_of_range_i64", randn(3, 4),
            np.array([2**40, 1, -2**40 + 1], np.int64))
with_labels("labels_f16", randn(4, 6, dtype=np.float16),
            np.array([5, 0, 1, 3], np.int64))

# --- size-0 dimensions ----------------------------------------------------------
# No rows, or rows of no elements with an empty result: nothing to compute,
# but it compiles and runs. (Empty rows into a non-empty result, such as a
# loss over 0 classes, are a verifier error: norm-invalid.mlir.)
s.case("softmax_no_rows", f"%r = rlx.softmax %a0 axis = 1 : "
       f"{ttype([0, 8], 'f32')}", [randn(0, 8)],
       lambda x: torch.softmax(x, 1), out=ttype([0, 8], "f32"))
s.case("softmax_empty_axis", f"%r = rlx.softmax %a0 axis = 1 : "
       f"{ttype([8, 0], 'f32')}", [randn(8, 0)],
       lambda x: torch.softmax(x, 1), out=ttype([8, 0], "f32"))
layer_norm("layer_norm_no_rows", randn(0, 16), -1)
empty_rows = [randn(3, 0), randn(0), randn(0)]
s.case("layer_norm_empty_axis", f"%r = rlx.layer_norm %a0, %a1, %a2 axis = -1 "
       f"eps = 1.0e-05 {signature(*empty_rows)}", empty_rows,
       lambda x, g, b: x, out=type_of(empty_rows[0]))
with_labels("labels_no_rows", randn(0, 5), np.zeros(0, np.int64))
s.run()
