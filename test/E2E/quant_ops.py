# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# The quantization ops (RlxQuantOps.td) built with rlx.Graph, against
# PyTorch 1.13: quantize bit for bit (per tensor, per channel on axes 0 and
# 1, qint8 and quint8, ties at .5 rounded half to even, saturation),
# dequantize exactly, fake_quantize's forward exactly and its
# straight-through gradient exactly (autograd), fake_quantize_lsq's forward
# exactly and its three gradients against autograd (the input's exactly, the
# scale's and the zero point's, sums, within 1e-5 relative to the largest),
# at `?` batch sizes from one module, and f16/bf16 inputs.
import numpy as np
import torch

import rlx
from rlx_testing.checks import check, finish

rng = np.random.default_rng(18)
f32 = np.float32


def exact(name, got, want):
    got, want = np.asarray(got), np.asarray(want)
    ok = got.shape == want.shape and np.array_equal(got, want)
    detail = f"shapes {got.shape} {want.shape}" if got.shape != want.shape \
        else f"{np.count_nonzero(got != want)} of {want.size} differ"
    check(name, ok, detail)


def close(name, got, want, rtol):
    """Within rtol of the largest magnitude of `want` (sums of terms of both
    signs: no elementwise relative error is meaningful)."""
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    scale = max(np.abs(want).max(), 1e-30)
    ok = got.shape == want.shape and np.abs(got - want).max() <= rtol * scale
    check(name, ok, f"max error {np.abs(got - want).max()} of {scale}")


def channel_shape(rank, axis):
    shape = [1] * rank
    shape[axis] = -1
    return shape


# -- quantize and dequantize -------------------------------------------------

def quantize_graph(shape, scale_shape, axis, unsigned):
    g = rlx.Graph("quantize")
    x = g.tensor(shape, name="x")
    s = g.tensor(scale_shape, name="scale")
    z = g.tensor(scale_shape, "i32", name="zero_point")
    attributes = {"is_unsigned": True} if unsigned else {}
    if axis is not None:
        attributes["axis"] = axis
    q = g.quantize(x, s, z, **attributes)
    g.output(q, g.dequantize(q, s, z, **attributes))
    return g.compile()


def torch_quantize(x, scale, zero_point, axis, unsigned):
    dtype = torch.quint8 if unsigned else torch.qint8
    if axis is None:
        return torch.quantize_per_tensor(torch.from_numpy(x), float(scale),
                                         int(zero_point), dtype)
    # f32 scales held exactly in the double tensor torch takes.
    return torch.quantize_per_channel(
        torch.from_numpy(x), torch.from_numpy(scale.astype(np.float64)),
        torch.from_numpy(zero_point.astype(np.int64)), axis, dtype)


def check_quantize(name, x, scale, zero_point, axis, unsigned, function):
    q, d = function(x, scale, zero_point)
    want = torch_quantize(x, scale, zero_point, axis, unsigned)
    stored = q.view(np.uint8) if unsigned else q
    exact(f"quantize_{name}", stored, want.int_repr().numpy())
    exact(f"dequantize_{name}", d, want.dequantize().numpy())


# Per tensor, signed and unsigned, at two `?` batch sizes from one module.
for unsigned, zero_point in [(False, 3), (True, 128)]:
    function = quantize_graph([None, 33], [], None, unsigned)
    for batch in (1, 64):
        x = (rng.standard_normal((batch, 33)) * 8).astype(f32)
        for scale in (0.1, 0.0123, 1 / 3):
            check_quantize(f"tensor_u{int(unsigned)}_{batch}_{scale:.4f}", x,
                           np.array(scale, f32), np.array(zero_point, np.int32),
                           None, unsigned, function)

# Per channel on axes 0 and 1 (and -1), signed and unsigned.
x = (rng.standard_normal((6, 33, 5)) * 8).astype(f32)
for axis in (0, 1, -1):
    channels = x.shape[axis]
    scale = rng.uniform(0.01, 0.5, channels).astype(f32)
    for unsigned in (False, True):
        zero_point = rng.integers(100, 156, channels) if unsigned else \
            rng.integers(-20, 20, channels)
        function = quantize_graph([None, 33, 5], [channels], axis, unsigned)
        check_quantize(f"channel_axis{axis}_u{int(unsigned)}", x, scale,
                       zero_point.astype(np.int32), axis % 3, unsigned,
                       function)

# Ties: (k + 0.5) * 2^-2 is exact, so x * (1 / scale) is exactly k + 0.5 and
# rounds to the even neighbour; an odd zero point is added after rounding.
function = quantize_graph([None], [], None, False)
ties = ((np.arange(-64, 64) + 0.5) * 0.25).astype(f32)
for zero_point in (0, 1, -3):
    check_quantize(f"ties_zp{zero_point}", ties, np.array(0.25, f32),
                   np.array(zero_point, np.int32), None, False, function)
q, _ = function(ties, np.array(0.25, f32), np.array(0, np.int32))
check("ties_half_to_even", list(q[62:66]) == [-2, 0, 0, 2], q[62:66])

# Saturation at both ends, signed and unsigned (torch's own conversion is
# undefined past the int32 range: stay inside it here).
big = np.array([-1e6, -300.0, -128.6, 126.6, 127.4, 300.0, 1e6], f32)
check_quantize("saturate", big, np.array(1.0, f32), np.array(0, np.int32),
               None, False, function)
function = quantize_graph([None], [], None, True)
check_quantize("saturate_unsigned", big, np.array(1.0, f32),
               np.array(10, np.int32), None, True, function)
# rlx saturates ±inf (torch's result is undefined) and quantizes NaN as 0.
special = np.array([np.inf, -np.inf, np.nan], f32)
q, d = function(special, np.array(0.5, f32), np.array(10, np.int32))
exact("inf_nan_unsigned", q.view(np.uint8), np.array([255, 0, 10], np.uint8))

# f16 and bf16 inputs are extended exactly: the result is the f32 one's.
for dtype in ("f16", "bf16"):
    g = rlx.Graph(f"quantize_{dtype}")
    xi = g.tensor([None, 8], name="x")
    s, z = g.tensor([], name="scale"), g.tensor([], "i32", name="zero_point")
    g.output(g.quantize(g.cast(xi, dtype=dtype), s, z))
    xs = (rng.standard_normal((16, 8)) * 5).astype(f32)
    rounded = torch.from_numpy(xs).to(torch.float16 if dtype == "f16" else
                                      torch.bfloat16).float().numpy()
    want = torch_quantize(rounded, f32(0.07), 2, None, False)
    exact(f"quantize_{dtype}", g.compile()(xs, np.array(0.07, f32),
                                           np.array(2, np.int32)),
          want.int_repr().numpy())

# f16 and bf16 scales: the product is exact in f32 and rounded once.
for dtype, torch_dtype in (("f16", torch.float16), ("bf16", torch.bfloat16)):
    g = rlx.Graph(f"dequantize_{dtype}")
    qi = g.tensor([None, 4], "i8", name="q")
    s, z = g.tensor([4], name="scale"), g.tensor([4], "i32", name="zero_point")
    g.output(g.cast(g.dequantize(qi, g.cast(s, dtype=dtype), z, axis=1),
                    dtype="f32"))
    qs = rng.integers(-128, 128, (9, 4)).astype(np.int8)
    scale = rng.uniform(0.01, 2, 4).astype(f32)
    zero_point = rng.integers(-10, 10, 4).astype(np.int32)
    rounded_scale = torch.from_numpy(scale).to(torch_dtype).double()
    want = ((torch.from_numpy(qs.astype(np.float64)) -
             torch.from_numpy(zero_point.astype(np.float64))) *
            rounded_scale).to(torch_dtype).float().numpy()
    exact(f"dequantize_{dtype}", g.compile()(qs, scale, zero_point), want)

# -- fake_quantize: forward and the straight-through gradient -----------------


def fake_quantize_graph(shape, scale_shape, quant_min, quant_max, axis):
    g = rlx.Graph("fake_quantize")
    x = g.tensor(shape, name="x")
    s = g.tensor(scale_shape, name="scale")
    z = g.tensor(scale_shape, "i32", name="zero_point")
    t = g.tensor(shape, name="t")
    attributes = {"axis": axis} if axis is not None else {}
    y = g.fake_quantize(x, s, z, quant_min=quant_min, quant_max=quant_max,
                        **attributes)
    forward = rlx.Graph("fake_quantize_forward")
    xf = forward.tensor(shape, name="x")
    sf = forward.tensor(scale_shape, name="scale")
    zf = forward.tensor(scale_shape, "i32", name="zero_point")
    forward.output(forward.fake_quantize(xf, sf, zf, quant_min=quant_min,
                                         quant_max=quant_max, **attributes))
    g.output(g.reduce(y * t, kind="sum", axes=list(range(len(shape)))))
    return forward.compile(), rlx.grad(g, wrt=[x]).compile()


cases = [("tensor_s8", None, -128, 127, 0.1, 3),
         ("tensor_u4", None, 0, 15, 0.2, 5),
         ("tensor_s4", None, -8, 7, 1 / 3, -2),
         ("channel_0", 0, -128, 127, None, None),
         ("channel_1", 1, 0, 255, None, None)]
for name, axis, quant_min, quant_max, scale, zero_point in cases:
    shape = [None, 12, 7]
    if axis is None:
        scale_shape, s = [], np.array(scale, f32)
        z = np.array(zero_point, np.int32)
    else:
        channels = 12 if axis == 1 else 5
        shape = [5, None, 7] if axis == 0 else shape
        scale_shape = [channels]
        s = rng.uniform(0.02, 0.3, channels).astype(f32)
        z = rng.integers(quant_min + 2, quant_min + 10, channels).astype(
            np.int32)
    forward, gradient = fake_quantize_graph(shape, scale_shape, quant_min,
                                            quant_max, axis)
    for size in (1, 5):
        concrete = [size if d is None else d for d in shape]
        x = (rng.standard_normal(concrete) * 8).astype(f32)
        t = rng.standard_normal(concrete).astype(f32)
        xt = torch.from_numpy(x).requires_grad_()
        if axis is None:
            y = torch.fake_quantize_per_tensor_affine(xt, float(s), int(z),
                                                      quant_min, quant_max)
        else:
            y = torch.fake_quantize_per_channel_affine(
                xt, torch.from_numpy(s), torch.from_numpy(z), axis, quant_min,
                quant_max)
        (y * torch.from_numpy(t)).sum().backward()
        exact(f"fake_quantize_{name}_{size}", forward(x, s, z),
              y.detach().numpy())
        _, dx = gradient(x, s, z, t)
        exact(f"fake_quantize_grad_{name}_{size}", dx, xt.grad.numpy())
        check(f"fake_quantize_mask_{name}_{size}",
              0 < np.count_nonzero(xt.grad.numpy() == 0) < x.size,
              "the cases should clamp some elements and not others")

# An f16 input: PyTorch computes in f32 and rounds the result to f16.
g = rlx.Graph("fake_quantize_f16")
x_in = g.tensor([None, 16], "f16", name="x")
s_in, z_in = g.tensor([], name="scale"), g.tensor([], "i32", name="zero_point")
g.output(g.fake_quantize(x_in, s_in, z_in, quant_min=-128, quant_max=127))
x = (rng.standard_normal((3, 16)) * 4).astype(np.float16)
want = torch.fake_quantize_per_tensor_affine(torch.from_numpy(x), 0.1, 3,
                                             -128, 127)
exact("fake_quantize_f16", g.compile()(x, np.array(0.1, f32),
                                       np.array(3, np.int32)), want.numpy())

# -- fake_quantize_lsq: forward and all three gradients -----------------------


def lsq_graph(shape, scale_shape, quant_min, quant_max, axis, grad_factor):
    g = rlx.Graph("lsq")
    x = g.tensor(shape, name="x")
    s = g.tensor(scale_shape, name="scale")
    z = g.tensor(scale_shape, name="zero_point")
    t = g.tensor(shape, name="t")
    attributes = {"axis": axis} if axis is not None else {}
    y = g.fake_quantize_lsq(x, s, z, quant_min=quant_min, quant_max=quant_max,
                            grad_factor=grad_factor, **attributes)
    g.output(g.reduce(y * t, kind="sum", axes=list(range(len(shape)))))
    forward = rlx.Graph("lsq_forward")
    xf = forward.tensor(shape, name="x")
    sf = forward.tensor(scale_shape, name="scale")
    zf = forward.tensor(scale_shape, name="zero_point")
    forward.output(forward.fake_quantize_lsq(
        xf, sf, zf, quant_min=quant_min, quant_max=quant_max,
        grad_factor=grad_factor, **attributes))
    return forward.compile(), rlx.grad(g, wrt=[x, s, z]).compile()


def torch_lsq(x, t, s, z, quant_min, quant_max, axis, grad_factor):
    """Forward and gradients by autograd. A per-tensor case goes through
    torch's per-channel op with one channel: its backward rounds the zero
    point as its forward does (the per-tensor op's backward truncates
    zero_point + 0.5 instead; they agree for the zero points of the
    per-tensor cases below but for the negative one, which documents it)."""
    xt = torch.from_numpy(x).requires_grad_()
    if axis is None:
        st = torch.from_numpy(s.reshape(1)).requires_grad_()
        zt = torch.from_numpy(z.reshape(1)).requires_grad_()
        y = torch._fake_quantize_learnable_per_channel_affine(
            xt.reshape(1, -1), st, zt, 0, quant_min, quant_max,
            grad_factor).reshape(x.shape)
    else:
        st = torch.from_numpy(s).requires_grad_()
        zt = torch.from_numpy(z).requires_grad_()
        y = torch._fake_quantize_learnable_per_channel_affine(
            xt, st, zt, axis, quant_min, quant_max, grad_factor)
    (y * torch.from_numpy(t)).sum().backward()
    return (y.detach().numpy(), xt.grad.numpy(),
            st.grad.numpy().reshape(s.shape), zt.grad.numpy().reshape(z.shape))


lsq_cases = [("tensor_s8", None, -128, 127, 0.05, 3.3, 1.0),
             ("tensor_u8", None, 0, 255, 0.04, 10.6, 0.5),
             ("tensor_s4_negative_zp", None, -8, 7, 0.3, -1.7, 1.0),
             ("channel_0", 0, -8, 7, None, None, 0.7),
             ("channel_1", 1, 0, 15, None, None, 1.0)]
for name, axis, quant_min, quant_max, scale, zero_point, grad_factor in \
        lsq_cases:
    shape = [None, 12, 7] if axis != 0 else [6, None, 7]
    if axis is None:
        scale_shape = []
        s, z = np.array(scale, f32), np.array(zero_point, f32)
    else:
        channels = 6 if axis == 0 else 12
        scale_shape = [channels]
        s = rng.uniform(0.05, 0.4, channels).astype(f32)
        z = rng.uniform(quant_min - 1, quant_min + 6, channels).astype(f32)
    forward, gradient = lsq_graph(shape, scale_shape, quant_min, quant_max,
                                  axis, grad_factor)
    for size in (2, 9):
        concrete = [size if d is None else d for d in shape]
        x = (rng.standard_normal(concrete) * 1.5).astype(f32)
        t = rng.standard_normal(concrete).astype(f32)
        y, dx, ds, dz = torch_lsq(x, t, s, z, quant_min, quant_max, axis,
                                  grad_factor)
        exact(f"lsq_{name}_{size}", forward(x, s, z), y)
        _, gx, gs, gz = gradient(x, s, z, t)
        exact(f"lsq_grad_x_{name}_{size}", gx, dx)
        close(f"lsq_grad_scale_{name}_{size}", gs, ds, 1e-5)
        close(f"lsq_grad_zero_point_{name}_{size}", gz, dz, 1e-5)

# The per-tensor op itself agrees where its backward's zero point is the
# forward's (a positive zero point off the ties).
x = (rng.standard_normal((7, 12)) * 1.5).astype(f32)
t = rng.standard_normal((7, 12)).astype(f32)
xt = torch.from_numpy(x).requires_grad_()
st = torch.tensor([0.05], requires_grad=True)
zt = torch.tensor([3.3], requires_grad=True)
(torch._fake_quantize_learnable_per_tensor_affine(xt, st, zt, -128, 127, 1.0)
 * torch.from_numpy(t)).sum().backward()
_, gradient = lsq_graph([None, 12], [], -128, 127, None, 1.0)
_, gx, gs, gz = gradient(x, np.array(0.05, f32), np.array(3.3, f32), t)
exact("lsq_per_tensor_op_grad_x", gx, xt.grad.numpy())
# torch sums the per-tensor terms in f32 (rlx in f32 too, in another order).
close("lsq_per_tensor_op_grad_scale", gs, st.grad.numpy().reshape(()), 3e-5)
close("lsq_per_tensor_op_grad_zero_point", gz, zt.grad.numpy().reshape(()),
      1e-5)

# f16 parameters and input: computed in f32, each result rounded once to
# f16; against the f32 computation on the same (f16) values.
shape = [None, 16]
g = rlx.Graph("lsq_f16")
x_in = g.tensor(shape, "f16", name="x")
s_in, z_in = g.tensor([], "f16", name="scale"), g.tensor([], "f16",
                                                         name="zero_point")
g.output(g.fake_quantize_lsq(x_in, s_in, z_in, quant_min=0, quant_max=255))
x = (rng.standard_normal((4, 16)) * 2).astype(np.float16)
s, z = np.array(0.05, np.float16), np.array(100.0, np.float16)
y, *_ = torch_lsq(x.astype(f32), np.zeros((4, 16), f32), s.astype(f32),
                  z.astype(f32), 0, 255, None, 1.0)
exact("lsq_f16", g.compile()(x, s, z), y.astype(np.float16))

finish()
