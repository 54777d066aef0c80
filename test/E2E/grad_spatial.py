# RUN: %oracle_python %s
# RUN: env RLX_TEST_TARGET=gpu-blocks-descending %oracle_python %s
# REQUIRES: torch
# The spatial and indexing backward ops against torch.autograd in float64:
# each reference runs the forward op in PyTorch on float64 leaves and
# back-propagates grad_output. Convolutions and transposed convolutions
# (both gradients of each): 1-D/2-D/3-D, odd sizes, stride > 1, dilation,
# groups (grouped and depthwise), symmetric and asymmetric padding,
# output_padding, and input sizes the strided forward rounds down. Pooling:
# max (ties go to the first maximum and NaN wins, as PyTorch) and avg with
# count_include_pad both ways, ceil_mode, 1-D to 3-D; global pools. gather
# (repeated, negative and out-of-range indices; tables of rank 1 to 3,
# any axis), cumsum (inclusive, exclusive, any axis) and rope (neox and
# gptj, full and partial n_rot).
# f16 and f64 cases, and central finite differences of the forward as a
# second, independent reference for a few. The second RUN line compiles
# with the GPU's schedules: gather_backward's index-add and
# cumsum_backward's scan one line per iteration of a parallel loop (the
# scalar forms of rlx.index_add and rlx.associative_scan), pooling and convolution
# gradients as GPU kernels emulated on the CPU.
import sys

import numpy as np
import torch
from rlx_testing import Suite, elem_of, type_of, ttype
from rlx_testing import spatial
from rlx_testing.spatial import arr

rng = np.random.default_rng(6)
s = Suite(compile_args=sys.argv[1:])
# Gradient elements sum up to a few hundred products of O(1) values in an
# order other than PyTorch's: a few ulp of the terms, not of the result.
F32_SUM = (1e-5, 1e-5)
F16_SUM = (2e-3, 2e-3)
# Central differences of a float64 forward with h = 1e-6: exact for the
# linear ops up to cancellation (~1e-10), O(h^2) for rope.
FD_TOL = (1e-7, 1e-7)


def rand(shape, dt=np.float32):
    return rng.uniform(-1, 1, shape).astype(dt)


def tol_for(dt):
    return {np.float32: F32_SUM, np.float16: F16_SUM}.get(dt)


def vjp(forward, leaves, grad_output):
    """Gradients of sum(forward(*leaves) * grad_output) for float64 leaves."""
    leaves = [t.clone().double().requires_grad_(True) for t in leaves]
    out = forward(*leaves)
    out.backward(grad_output.double())
    return [t.grad for t in leaves]


def finite_difference(forward, leaves, grad_output, which, h=1e-6):
    """Central differences of sum(forward(*leaves) * grad_output) in leaf
    `which`, one element at a time."""
    leaves = [t.double().clone() for t in leaves]
    grad = torch.zeros_like(leaves[which])
    flat = leaves[which].view(-1)
    for j in range(flat.numel()):
        saved = flat[j].item()
        flat[j] = saved + h
        up = (forward(*leaves) * grad_output).sum().item()
        flat[j] = saved - h
        down = (forward(*leaves) * grad_output).sum().item()
        flat[j] = saved
        grad.view(-1)[j] = (up - down) / (2 * h)
    return grad


def weight_op_cases(name, op, attrs, forward, x_shape, w_shape, dt, fd):
    """Cases for `op`_backward_input (dx from dy and w) and
    `op`_backward_weight (dw from dy and x) against the vjp of `forward`, or
    its finite differences when `fd`."""
    y_shape = forward(torch.zeros(x_shape, dtype=torch.float64),
                      torch.zeros(w_shape, dtype=torch.float64)).shape
    x, w, dy = rand(x_shape, dt), rand(w_shape, dt), rand(y_shape, dt)
    x_type, w_type = type_of(x), type_of(w)
    tol = FD_TOL if fd else tol_for(dt)

    def input_ref(dy, w):
        x0 = torch.zeros(x_shape, dtype=torch.float64)
        if fd:
            return finite_difference(forward, [x0, w], dy, 0)
        return vjp(forward, [x0, w], dy)[0]

    def weight_ref(dy, x):
        w0 = torch.zeros(w_shape, dtype=torch.float64)
        if fd:
            return finite_difference(forward, [x, w0], dy, 1)
        return vjp(forward, [x, w0], dy)[1]

    s.case(name + "_input", f"%r = rlx.{op}_backward_input %a0, %a1 {attrs} "
           f": ({type_of(dy)}, {w_type}) -> {x_type}", [dy, w], input_ref,
           out=x_type, tol=tol)
    s.case(name + "_weight", f"%r = rlx.{op}_backward_weight %a0, %a1 "
           f"{attrs} : ({type_of(dy)}, {x_type}) -> {w_type}", [dy, x],
           weight_ref, out=w_type, tol=tol)


def conv(name, x_shape, w_shape, stride=None, padding=None, dilation=None,
         groups=1, dt=np.float32, fd=False):
    """A case for each of conv_backward_input and conv_backward_weight."""
    r = len(x_shape) - 2
    stride, dilation = stride or [1] * r, dilation or [1] * r
    padding = padding or [0] * (2 * r)
    attrs = (f"stride = {arr(stride)} padding = {arr(padding)} dilation = "
             f"{arr(dilation)} groups = {groups}")
    weight_op_cases(
        name, "conv", attrs,
        lambda x, w: spatial.conv(x, w, stride, padding, dilation, groups),
        x_shape, w_shape, dt, fd)


conv("conv1d", [2, 3, 11], [4, 3, 3])
conv("conv1d_stride_dilation", [2, 4, 17], [6, 2, 3], stride=[3],
     padding=[2, 1], dilation=[2], groups=2)
# 12 and 13 give the same output size at stride 2: the declared shape picks.
conv("conv1d_rounded_down", [1, 2, 13], [3, 2, 4], stride=[2], padding=[1, 1])
conv("conv2d", [2, 3, 7, 9], [5, 3, 3, 3], stride=[2, 1], padding=[1, 1, 1, 1])
conv("conv2d_asymmetric", [1, 4, 8, 7], [4, 2, 3, 2], stride=[2, 3],
     padding=[0, 2, 1, 0], dilation=[1, 2], groups=2)
conv("conv2d_depthwise", [2, 6, 9, 9], [6, 1, 3, 3], stride=[2, 2],
     padding=[1, 1, 1, 1], groups=6)
conv("conv2d_kernel1", [3, 5, 4, 6], [7, 5, 1, 1], stride=[1, 2])
conv("conv3d", [1, 4, 5, 6, 7], [6, 2, 2, 3, 2], stride=[1, 2, 2],
     padding=[1, 0, 0, 1, 1, 1], dilation=[2, 1, 1], groups=2)
conv("conv3d_plain", [2, 2, 4, 5, 3], [3, 2, 3, 3, 2], padding=[1] * 6)
conv("conv2d_f16", [1, 4, 9, 8], [6, 2, 3, 3], stride=[2, 2],
     padding=[1, 1, 1, 1], groups=2, dt=np.float16)
conv("conv2d_f64", [2, 3, 6, 7], [4, 3, 2, 3], stride=[2, 1],
     padding=[1, 0, 0, 1], dilation=[2, 1], dt=np.float64)
conv("conv2d_fd", [1, 4, 6, 5], [4, 2, 3, 2], stride=[2, 1],
     padding=[1, 0, 1, 1], dilation=[1, 2], groups=2, dt=np.float64, fd=True)

def conv_transpose(name, x_shape, w_shape, stride=None, padding=None,
                   output_padding=None, dilation=None, groups=1,
                   dt=np.float32, fd=False):
    """A case for each of conv_transpose_backward_input and _weight."""
    r = len(x_shape) - 2
    stride, dilation = stride or [1] * r, dilation or [1] * r
    padding = padding or [0] * (2 * r)
    output_padding = output_padding or [0] * r

    def forward(x, w):
        return spatial.conv_transpose(x, w, stride, padding, output_padding,
                                      dilation, groups)
    attrs = (f"stride = {arr(stride)} padding = {arr(padding)} "
             f"output_padding = {arr(output_padding)} dilation = "
             f"{arr(dilation)} groups = {groups}")
    weight_op_cases(name, "conv_transpose", attrs, forward, x_shape, w_shape,
                    dt, fd)


conv_transpose("convt1d", [2, 3, 7], [3, 4, 3], stride=[2], padding=[1, 1],
               output_padding=[1])
conv_transpose("convt1d_dilation_groups", [1, 4, 6], [4, 3, 3], stride=[3],
               padding=[2, 0], output_padding=[2], dilation=[2], groups=2)
conv_transpose("convt2d", [2, 4, 5, 6], [4, 3, 3, 2], stride=[2, 1],
               padding=[1, 0, 0, 1], output_padding=[1, 0])
conv_transpose("convt2d_output_padding_past_crop", [1, 2, 4, 5], [2, 2, 3, 3],
               stride=[3, 2], padding=[0, 1, 1, 0], output_padding=[2, 1],
               dilation=[1, 2])
conv_transpose("convt2d_depthwise", [2, 3, 5, 5], [3, 1, 3, 3],
               stride=[2, 2], padding=[1, 1, 1, 1], groups=3)
conv_transpose("convt3d", [1, 4, 3, 4, 3], [4, 1, 2, 3, 2],
               stride=[2, 1, 2], padding=[0, 1, 1, 1, 0, 0],
               output_padding=[1, 0, 1], groups=2)
conv_transpose("convt2d_f16", [1, 4, 5, 5], [4, 2, 3, 3], stride=[2, 2],
               padding=[1, 1, 1, 1], output_padding=[1, 1], groups=2,
               dt=np.float16)
conv_transpose("convt2d_fd", [1, 2, 3, 4], [2, 3, 3, 2], stride=[2, 2],
               padding=[1, 0, 0, 1], output_padding=[1, 1], dt=np.float64,
               fd=True)

def pool(name, kind, x_shape, kernel, stride, padding=None, ceil_mode=False,
         count_include_pad=False, dt=np.float32, x=None, fd=False):
    r = len(x_shape) - 2
    padding = padding or [0] * (2 * r)

    def forward(x):
        return spatial.pool(x, kind, kernel, stride, padding, ceil_mode,
                            count_include_pad)
    y_shape = forward(torch.zeros(x_shape, dtype=torch.float64)).shape
    x = rand(x_shape, dt) if x is None else x.astype(dt)
    dy = rand(y_shape, dt)

    def ref(dy, x):
        if fd:
            return finite_difference(forward, [x], dy, 0)
        return vjp(forward, [x], dy)[0]
    flags = (" ceil_mode" if ceil_mode else "") + \
        (" count_include_pad" if count_include_pad else "")
    s.case(name, f"%r = rlx.pool_backward {kind} %a0, %a1 kernel = "
           f"{arr(kernel)} stride = {arr(stride)} padding = {arr(padding)}"
           f"{flags} : {type_of(dy)}, {type_of(x)} -> {type_of(x)}", [dy, x],
           ref, out=type_of(x), tol=FD_TOL if fd else tol_for(dt))


pool("max1d", "max", [2, 3, 11], [3], [2], [1, 1])
pool("max2d_overlap", "max", [2, 3, 9, 8], [3, 3], [2, 1], [1, 1, 0, 1])
pool("max2d_ceil", "max", [1, 2, 8, 7], [3, 2], [2, 2], [1, 1, 0, 0],
     ceil_mode=True)
# Few distinct values: many ties, which go to the first maximum.
pool("max2d_ties", "max", [2, 2, 7, 7], [3, 3], [1, 2], [1, 1, 1, 1],
     x=rng.integers(0, 3, (2, 2, 7, 7)))
# NaN wins over every number; among NaNs the last one (PyTorch's CPU rule).
nan_input = rng.uniform(-1, 1, (1, 2, 7, 8))
nan_input[0, 0, 1, 2] = nan_input[0, 0, 2, 3] = nan_input[0, 1, 5, 5] = np.nan
pool("max2d_nan", "max", [1, 2, 7, 8], [3, 3], [2, 2], [1, 1, 1, 1],
     x=nan_input)
pool("max3d", "max", [1, 2, 5, 6, 7], [2, 3, 2], [2, 2, 1], [1, 0, 1, 1, 0, 1])
pool("max2d_f16", "max", [1, 3, 9, 9], [3, 3], [2, 2], [1, 1, 1, 1],
     dt=np.float16)
pool("max2d_fd", "max", [1, 2, 6, 7], [2, 3], [2, 2], [1, 1, 1, 1],
     dt=np.float64, fd=True)
pool("avg1d_count_pad", "avg", [2, 3, 10], [3], [2], [1, 1],
     count_include_pad=True)
pool("avg1d_no_count_pad", "avg", [2, 3, 10], [3], [2], [1, 1])
pool("avg2d_ceil_count_pad", "avg", [1, 2, 9, 8], [3, 3], [2, 2],
     [1, 1, 1, 1], ceil_mode=True, count_include_pad=True)
pool("avg2d_ceil", "avg", [1, 2, 9, 8], [3, 2], [2, 3], [1, 1, 1, 1],
     ceil_mode=True)
pool("avg2d_asymmetric", "avg", [2, 2, 7, 8], [3, 3], [2, 2], [1, 0, 0, 1],
     count_include_pad=True)
pool("avg3d", "avg", [1, 2, 5, 6, 5], [2, 3, 2], [1, 2, 2], [1, 1, 1, 1, 0, 0])
pool("avg2d_f64", "avg", [2, 3, 7, 7], [2, 3], [1, 2], [1, 1, 0, 0],
     dt=np.float64)


def global_pool(name, kind, x_shape, dt=np.float32, x=None):
    r = len(x_shape) - 2
    x = rand(x_shape, dt) if x is None else x.astype(dt)
    dy = rand(x_shape[:2] + [1] * r, dt)

    def ref(dy, x):
        return vjp(lambda x: spatial.global_pool(x, kind), [x], dy)[0]
    s.case(name, f"%r = rlx.global_pool_backward {kind} %a0, %a1 : "
           f"{type_of(dy)}, {type_of(x)} -> {type_of(x)}", [dy, x], ref,
           out=type_of(x), tol=tol_for(dt))


global_pool("global_max1d", "max", [2, 3, 9])
global_pool("global_max2d_ties", "max", [2, 3, 5, 4],
            x=rng.integers(0, 2, (2, 3, 5, 4)))
global_pool("global_max3d", "max", [1, 2, 3, 4, 5])
global_pool("global_avg1d", "avg", [2, 3, 9])
global_pool("global_avg2d_f16", "avg", [2, 3, 7, 5], dt=np.float16)
global_pool("global_avg3d", "avg", [1, 2, 3, 4, 5])


def gather(name, table_shape, indices, axis, dt=np.float32):
    indices = np.asarray(indices, dtype=np.int64)
    a = axis % len(table_shape)
    n = table_shape[a]
    y_shape = table_shape[:a] + list(indices.shape) + table_shape[a + 1:]
    dy = rand(y_shape, dt)
    # rlx.gather's rule: [-n, 0) wraps once, the rest clamps.
    rows = np.where(indices < 0, indices + n, indices).clip(0, n - 1)

    def ref(dy, indices):
        def forward(table):
            picked = table.index_select(a, torch.from_numpy(rows.ravel()))
            return picked.reshape(y_shape)
        return vjp(forward, [torch.zeros(table_shape, dtype=torch.float64)],
                   dy)[0]
    out = ttype(table_shape, elem_of(dy))
    s.case(name, f"%r = rlx.gather_backward %a0, %a1 axis = {axis} : "
           f"({type_of(dy)}, {type_of(indices)}) -> {out}", [dy, indices],
           ref, out=out, tol=tol_for(dt))


gather("gather_embedding", [10, 4], [[1, 3, 1], [9, 1, 0]], 0)
gather("gather_middle_axis", [2, 7, 3], [[0, -1, 6, 6], [2, -7, 3, 3]], 1)
gather("gather_out_of_range", [3, 6], [7, -8, 5, 0, -1, 100], -1)
gather("gather_scalar_index", [4, 5], 2, 0)
gather("gather_f16", [6, 8], [[5, 5, 5], [0, 2, 5]], 0, dt=np.float16)
gather("gather_rank1_table", [6], [5, 0, 5, -1], 0)
gather("gather_last_axis", [2, 3, 5], [[4, 0], [4, -1]], -1)


def cumsum(name, shape, axis, exclusive=False, dt=np.float32):
    dy = rand(shape, dt)

    def ref(dy):
        def forward(x):
            y = torch.cumsum(x, axis)
            return y - x if exclusive else y
        return vjp(forward, [torch.zeros(shape, dtype=torch.float64)], dy)[0]
    flag = " exclusive" if exclusive else ""
    s.case(name, f"%r = rlx.cumsum_backward %a0 axis = {axis}{flag} : "
           f"{type_of(dy)}", [dy], ref, out=type_of(dy), tol=tol_for(dt))


cumsum("cumsum_last", [3, 17], -1)
cumsum("cumsum_first_exclusive", [9, 4, 3], 0, exclusive=True)
cumsum("cumsum_middle", [2, 33, 5], 1)
cumsum("cumsum_f16_exclusive", [4, 21], 1, exclusive=True, dt=np.float16)


def rope_forward(style, head_dim, n_rot, layout):
    """rlx.rope in PyTorch, written from its definition, on a layout viewed
    as [..., S, H, D]."""
    half = n_rot // 2

    def forward(x, cos, sin):
        shape = x.shape
        if layout == "bsd":
            heads = x.reshape(*shape[:-1], shape[-1] // head_dim, head_dim)
        else:
            heads = x.transpose(-3, -2) if layout == "bhsd" else x
        c, s_ = cos[:, None, :], sin[:, None, :]   # [S, 1, half]
        if style == "neox":
            a, b = heads[..., :half], heads[..., half:n_rot]
        else:
            a, b = heads[..., 0:n_rot:2], heads[..., 1:n_rot:2]
        ra, rb = a * c - b * s_, b * c + a * s_
        if style == "neox":
            rotated = torch.cat([ra, rb], -1)
        else:
            rotated = torch.stack([ra, rb], -1).flatten(-2)
        out = torch.cat([rotated, heads[..., n_rot:]], -1)
        if layout == "bhsd":
            out = out.transpose(-3, -2)
        return out.reshape(shape)
    return forward


def rope(name, style, shape, head_dim, n_rot, dt=np.float32, fd=False,
         layout="bsd"):
    positions = shape[-3 if layout == "bshd" else -2]
    angles = rng.uniform(0, 2 * np.pi, (positions, n_rot // 2))
    cos, sin = np.cos(angles).astype(dt), np.sin(angles).astype(dt)
    dy = rand(shape, dt)
    forward = rope_forward(style, head_dim, n_rot, layout)

    def ref(dy, cos, sin):
        x0 = torch.zeros(shape, dtype=torch.float64)
        if fd:
            return finite_difference(forward, [x0, cos, sin], dy, 0)
        return vjp(lambda x: forward(x, cos, sin), [x0], dy)[0]
    s.case(name, f"%r = rlx.rope_backward {style} {layout} %a0, %a1, %a2 "
           f"head_dim = {head_dim}, n_rot = {n_rot} : ({type_of(dy)}, "
           f"{type_of(cos)}, {type_of(sin)}) -> {type_of(dy)}", [dy, cos, sin],
           ref, out=type_of(dy), tol=FD_TOL if fd else tol_for(dt))


rope("rope_neox", "neox", [2, 5, 24], 8, 8)
rope("rope_gptj", "gptj", [2, 5, 24], 8, 8)
rope("rope_neox_partial", "neox", [3, 7, 2 * 10], 10, 6)
rope("rope_gptj_partial", "gptj", [3, 7, 2 * 10], 10, 6)
rope("rope_gptj_bhsd_f16", "gptj", [1, 2, 5, 12], 12, 4, dt=np.float16,
     layout="bhsd")
rope("rope_neox_bshd", "neox", [2, 5, 3, 8], 8, 6, layout="bshd")
rope("rope_gptj_bshd", "gptj", [2, 5, 3, 8], 8, 8, layout="bshd")
rope("rope_neox_bhsd", "neox", [2, 3, 5, 8], 8, 8, layout="bhsd")
rope("rope_gptj_fd", "gptj", [1, 3, 8], 8, 6, dt=np.float64, fd=True)
rope("rope_neox_fd", "neox", [1, 3, 8], 8, 6, dt=np.float64, fd=True)
rope("rope_gptj_bshd_fd", "gptj", [1, 3, 2, 8], 8, 6, dt=np.float64, fd=True,
     layout="bshd")

s.run()
