# RUN: %oracle_python %s
# REQUIRES: torch
# Convolutions, transposed convolutions, pooling and nearest resampling
# against torch.nn.functional: 1-D/2-D/3-D, stride > kernel, symmetric and
# asymmetric padding (checked against F.pad + the op), groups 1, 2 and
# depthwise, dilation 2, odd sizes, batch 1, 1x1 kernels, ceil_mode and
# count_include_pad both ways, NaN through max, f16 (accumulated in f32)
# and f64.
import numpy as np
import torch
import torch.nn.functional as F
from rlx_testing import Suite, elem_of, type_of, ttype
from rlx_testing import spatial
from rlx_testing.spatial import arr

rng = np.random.default_rng(11)
s = Suite()
# Sums of up to a few hundred products of values in [-1, 1): the error is a
# few ulp of the terms, not of the (possibly cancelled) result.
F32_SUM = (1e-5, 1e-5)
F16_SUM = (1e-3, 1e-3)


def rand(shape, dt):
    return rng.uniform(-1, 1, shape).astype(dt)


def tol_for(dt):
    return {np.float32: F32_SUM, np.float16: F16_SUM}.get(dt)


def conv(name, x_shape, w_shape, stride=None, padding=None, dilation=None,
         groups=1, dt=np.float32):
    r = len(x_shape) - 2
    stride, dilation = stride or [1] * r, dilation or [1] * r
    padding = padding or [0] * (2 * r)
    x, w = rand(x_shape, dt), rand(w_shape, dt)

    def ref(x, w):
        return spatial.conv(x, w, stride, padding, dilation, groups)
    out = ttype(ref(torch.zeros(x_shape, dtype=torch.float64),
                    torch.zeros(w_shape, dtype=torch.float64)).shape,
                elem_of(x))
    s.case(name, f"%r = rlx.conv %a0, %a1 stride = {arr(stride)} padding = "
           f"{arr(padding)} dilation = {arr(dilation)} groups = {groups} : "
           f"({type_of(x)}, {type_of(w)}) -> {out}", [x, w], ref, out=out,
           tol=tol_for(dt))


def conv_transpose(name, x_shape, w_shape, stride=None, padding=None,
                   output_padding=None, dilation=None, groups=1,
                   dt=np.float32):
    r = len(x_shape) - 2
    stride, dilation = stride or [1] * r, dilation or [1] * r
    padding = padding or [0] * (2 * r)
    output_padding = output_padding or [0] * r
    x, w = rand(x_shape, dt), rand(w_shape, dt)

    def ref(x, w):
        return spatial.conv_transpose(x, w, stride, padding, output_padding,
                                      dilation, groups)
    out = ttype(ref(torch.zeros(x_shape, dtype=torch.float64),
                    torch.zeros(w_shape, dtype=torch.float64)).shape,
                elem_of(x))
    s.case(name, f"%r = rlx.conv_transpose %a0, %a1 stride = {arr(stride)} "
           f"padding = {arr(padding)} output_padding = {arr(output_padding)} "
           f"dilation = {arr(dilation)} groups = {groups} : "
           f"({type_of(x)}, {type_of(w)}) -> {out}", [x, w], ref, out=out,
           tol=tol_for(dt))


def pool(name, kind, x_shape, kernel, stride, padding=None, ceil_mode=False,
         count_include_pad=False, dt=np.float32, asymmetric_ref=False):
    r = len(x_shape) - 2
    padding = padding or [0] * (2 * r)
    x = rand(x_shape, dt)

    def ref(x):
        return spatial.pool(x, kind, kernel, stride, padding, ceil_mode,
                            count_include_pad, pad_by_hand=asymmetric_ref)
    out = ttype(ref(torch.zeros(x_shape, dtype=torch.float64)).shape,
                elem_of(x))
    flags = (" ceil_mode" if ceil_mode else "") + \
        (" count_include_pad" if count_include_pad else "")
    s.case(name, f"%r = rlx.pool {kind} %a0 kernel = {arr(kernel)} stride = "
           f"{arr(stride)} padding = {arr(padding)}{flags} : {type_of(x)} -> "
           f"{out}", [x], ref, out=out, tol=tol_for(dt))


def global_pool(name, kind, x_shape, dt=np.float32):
    r = len(x_shape) - 2
    x = rand(x_shape, dt)
    out = ttype(list(x_shape[:2]) + [1] * r, elem_of(x))
    s.case(name, f"%r = rlx.global_pool {kind} %a0 : {type_of(x)} -> {out}",
           [x], lambda x: spatial.global_pool(x, kind), out=out,
           tol=tol_for(dt))


def nearest_input(shape, dt):
    if np.dtype(dt).kind == "f":
        return rand(shape, dt)
    return rng.integers(-100, 100, shape).astype(dt)


def resize_nearest2x(name, x_shape, dt=np.float32):
    x = nearest_input(x_shape, dt)
    out = ttype(list(x_shape[:2]) + [2 * d for d in x_shape[2:]], elem_of(x))
    s.case(name, f"%r = rlx.resize_nearest2x %a0 : {type_of(x)} -> {out}",
           [x], lambda x: F.interpolate(x.double(), scale_factor=2,
                                        mode="nearest"), out=out, tol="exact")


def interpolate(name, x_shape, size, dt=np.float32):
    x = nearest_input(x_shape, dt)
    out = ttype(list(x_shape[:2]) + list(size), elem_of(x))
    s.case(name, f"%r = rlx.interpolate_nearest %a0 size = {arr(size)} : "
           f"{type_of(x)} -> {out}", [x],
           lambda x: F.interpolate(x.double(), size=tuple(size),
                                   mode="nearest"), out=out, tol="exact")


# conv: groups = 1 (named conv ops), depthwise (named depthwise ops), other
# groupings (2-D: the NGCHW named op; 1-D/3-D: a generic).
conv("conv1d", (2, 4, 9), (6, 4, 3))
conv("conv1d_stride_pad_dil_groups2", (2, 4, 11), (6, 2, 3), [2], [1, 2], [2],
     groups=2)
conv("conv1d_depthwise", (1, 3, 10), (3, 1, 4), [1], [2, 1], groups=3)
conv("conv2d", (2, 3, 8, 8), (5, 3, 3, 3), padding=[1, 1, 1, 1])
conv("conv2d_stride_gt_kernel", (1, 2, 11, 10), (4, 2, 2, 2), [3, 4])
conv("conv2d_asymmetric_pad", (1, 3, 7, 6), (2, 3, 3, 2), [2, 1],
     [2, 0, 1, 3])
conv("conv2d_groups2", (2, 4, 7, 9), (6, 2, 3, 3), [1, 2], [1, 1, 0, 2],
     groups=2)
conv("conv2d_depthwise", (1, 5, 9, 8), (5, 1, 3, 3), [2, 2], [1, 1, 1, 1],
     groups=5)
conv("conv2d_depthwise_multiplier2", (1, 3, 6, 6), (6, 1, 3, 3),
     padding=[1, 1, 1, 1], groups=3)
conv("conv2d_dilation2", (1, 2, 12, 11), (3, 2, 3, 3), [1, 1], [2, 2, 2, 2],
     [2, 2])
conv("conv2d_1x1", (3, 8, 5, 7), (4, 8, 1, 1))
conv("conv2d_odd", (1, 3, 13, 7), (2, 3, 5, 3), [2, 3], [2, 2, 1, 0], [1, 2])
conv("conv2d_f16", (1, 8, 9, 9), (4, 8, 3, 3), [1, 1], [1, 1, 1, 1],
     dt=np.float16)
conv("conv2d_f16_groups2", (1, 4, 6, 6), (4, 2, 3, 3), groups=2,
     dt=np.float16)
conv("conv2d_f64", (2, 3, 6, 5), (4, 3, 2, 3), [1, 2], [0, 1, 1, 0],
     dt=np.float64)
conv("conv3d", (1, 2, 5, 6, 4), (3, 2, 3, 3, 2), [1, 2, 1],
     [1, 1, 0, 1, 1, 0])
conv("conv3d_groups2_dilation2", (2, 4, 6, 5, 5), (4, 2, 2, 2, 2), [1, 1, 2],
     [0, 0, 1, 0, 0, 1], [2, 1, 1], groups=2)
conv("conv3d_depthwise", (1, 3, 4, 4, 4), (3, 1, 2, 2, 2), [2, 2, 2],
     groups=3)

# conv_transpose: spread-and-pad input, flipped per-group weight.
conv_transpose("conv_transpose1d", (2, 3, 6), (3, 2, 3), [2], [1, 1], [1])
conv_transpose("conv_transpose2d", (1, 4, 5, 5), (4, 3, 3, 3), [2, 2],
               [1, 1, 1, 1], [1, 0])
conv_transpose("conv_transpose2d_groups2_dilation2", (2, 4, 4, 3),
               (4, 3, 3, 2), [2, 3], [1, 1, 0, 0], [1, 0], [2, 2], groups=2)
conv_transpose("conv_transpose2d_depthwise", (1, 3, 4, 5), (3, 1, 3, 3),
               [1, 2], [0, 0, 1, 1], groups=3)
conv_transpose("conv_transpose2d_crop", (1, 2, 6, 5), (2, 2, 3, 3), [2, 1],
               [3, 3, 2, 2])
conv_transpose("conv_transpose2d_asymmetric_pad", (1, 2, 4, 4), (2, 3, 3, 2),
               [2, 2], [0, 2, 1, 0], [1, 1])
conv_transpose("conv_transpose2d_stride_gt_kernel", (1, 2, 3, 3),
               (2, 2, 2, 2), [3, 3], output_padding=[2, 1])
conv_transpose("conv_transpose2d_1x1", (2, 4, 3, 5), (4, 2, 1, 1))
conv_transpose("conv_transpose2d_f16", (1, 6, 4, 4), (6, 2, 3, 3), [2, 2],
               [1, 1, 1, 1], [1, 1], dt=np.float16)
conv_transpose("conv_transpose3d", (1, 2, 3, 4, 3), (2, 2, 2, 3, 2),
               [2, 1, 2], [0, 0, 1, 1, 0, 0], [1, 0, 0])
conv_transpose("conv_transpose3d_groups2", (1, 4, 3, 3, 3), (4, 1, 2, 2, 2),
               [1, 2, 1], dilation=[1, 1, 2], groups=2)

# Pooling.
pool("max_pool2d", "max", (2, 3, 8, 8), [3, 3], [2, 2], [1, 1, 1, 1])
pool("max_pool2d_ceil", "max", (1, 2, 7, 6), [3, 2], [2, 2], [1, 1, 0, 0],
     ceil_mode=True)
pool("max_pool2d_ceil_last_window_dropped", "max", (1, 1, 5, 5), [2, 2],
     [2, 2], [1, 1, 1, 1], ceil_mode=True)
pool("max_pool2d_stride_gt_kernel", "max", (1, 3, 10, 9), [2, 2], [3, 4])
pool("max_pool2d_asymmetric_pad", "max", (1, 2, 6, 7), [2, 3], [2, 2],
     [1, 0, 0, 1], asymmetric_ref=True)
pool("max_pool2d_f16", "max", (1, 4, 6, 6), [2, 2], [2, 2], dt=np.float16)
pool("avg_pool2d_include_pad", "avg", (2, 3, 7, 8), [3, 3], [2, 2],
     [1, 1, 1, 1], count_include_pad=True)
pool("avg_pool2d_exclude_pad", "avg", (2, 3, 7, 8), [3, 3], [2, 2],
     [1, 1, 1, 1])
pool("avg_pool2d_ceil_include_pad", "avg", (1, 2, 6, 7), [3, 2], [2, 2],
     [1, 1, 1, 1], ceil_mode=True, count_include_pad=True)
pool("avg_pool2d_ceil_exclude_pad", "avg", (1, 2, 6, 7), [3, 2], [2, 2],
     [1, 1, 1, 1], ceil_mode=True)
pool("avg_pool2d_ceil_no_pad", "avg", (1, 2, 5, 7), [2, 3], [2, 2],
     ceil_mode=True, count_include_pad=True)
pool("avg_pool2d_asymmetric_pad", "avg", (1, 2, 6, 7), [2, 3], [2, 2],
     [1, 0, 0, 1], count_include_pad=True, asymmetric_ref=True)
pool("avg_pool2d_1x1", "avg", (1, 2, 4, 5), [1, 1], [2, 1])
pool("avg_pool2d_f16", "avg", (1, 4, 7, 7), [3, 3], [2, 2], [1, 1, 1, 1],
     ceil_mode=True, dt=np.float16)
pool("max_pool1d", "max", (2, 3, 9), [3], [2], [1, 1], ceil_mode=True)
pool("avg_pool1d", "avg", (2, 3, 9), [4], [3], [2, 2], ceil_mode=True)
pool("max_pool3d", "max", (1, 2, 5, 6, 4), [2, 3, 2], [2, 2, 1],
     [1, 1, 1, 1, 0, 0], ceil_mode=True)
pool("avg_pool3d", "avg", (2, 2, 5, 4, 5), [3, 2, 2], [2, 2, 2],
     [1, 1, 0, 0, 1, 1], count_include_pad=True)
pool("avg_pool3d_ceil_exclude_pad", "avg", (1, 2, 5, 5, 4), [2, 2, 3],
     [2, 2, 2], [1, 1, 0, 0, 1, 1], ceil_mode=True)

# NaN propagates through max pooling (PyTorch semantics).
nan_input = rand((1, 2, 4, 4), np.float32)
nan_input[0, 1, 2, 1] = np.nan
s.case("max_pool2d_nan", "%r = rlx.pool max %a0 kernel = [2, 2] stride = "
       "[2, 2] padding = [0, 0, 0, 0] : tensor<1x2x4x4xf32> -> "
       "tensor<1x2x2x2xf32>", [nan_input],
       lambda x: F.max_pool2d(x, 2, 2), out="tensor<1x2x2x2xf32>")
s.case("global_max_pool2d_nan", "%r = rlx.global_pool max %a0 : "
       "tensor<1x2x4x4xf32> -> tensor<1x2x1x1xf32>", [nan_input],
       lambda x: F.adaptive_max_pool2d(x, 1), out="tensor<1x2x1x1xf32>")

global_pool("global_avg_pool2d", "avg", (2, 3, 5, 7))
global_pool("global_max_pool2d", "max", (2, 3, 5, 7))
global_pool("global_avg_pool1d", "avg", (1, 4, 9))
global_pool("global_max_pool3d", "max", (1, 2, 3, 4, 5))
global_pool("global_avg_pool2d_f16", "avg", (1, 8, 6, 6), dt=np.float16)

resize_nearest2x("resize_nearest2x", (2, 3, 4, 5))
resize_nearest2x("resize_nearest2x_i32", (1, 2, 3, 1), np.int32)
interpolate("interpolate_up_odd", (1, 2, 5, 3), [7, 10])
interpolate("interpolate_down", (2, 1, 9, 8), [4, 3])
interpolate("interpolate_mixed_1d", (1, 3, 7), [12])
interpolate("interpolate_3d", (1, 2, 3, 4, 5), [5, 2, 6])
interpolate("interpolate_same", (1, 1, 4, 4), [4, 4], np.int32)
s.run()
