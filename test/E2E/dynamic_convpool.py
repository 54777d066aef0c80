# RUN: %oracle_python %s
# RUN: env RLX_TEST_TARGET=gpu-blocks-descending %oracle_python %s
# Dynamic shapes for convolutions, pooling and resampling: a `?` batch, then
# `?` batch and spatial sizes (channels and weights stay static; an
# interpolation to a fixed size needs static input sizes). 2-D convolution
# plain, grouped, depthwise, strided with dilation and with bias + ReLU
# (fused into conv_bias_act), 1-D and 3-D convolutions, a transposed
# convolution, max/avg pooling (2-D and 3-D, count_include_pad, ceil_mode),
# global pooling and both nearest resamplings; and examples/cnn.mlir with
# its batch `?`. One compiled module per function, run at several sizes
# against PyTorch float64. The second RUN line runs the GPU's kernels on
# the CPU.
import os
import re

import numpy as np
import torch.nn.functional as F
from rlx_testing import Suite
from rlx_testing import spatial
from rlx_testing.examples import cnn_inputs, cnn_reference

rng = np.random.default_rng(1517)
s = Suite()
F32_TOL = (2e-5, 2e-6)
BATCHES = (1, 3, 8)


def randn(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def ttype(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


# --- convolutions ---------------------------------------------------------------

w_plain, w_grouped, w_depth = (randn(8, 4, 3, 3) * 0.3, randn(8, 2, 3, 3) * 0.3,
                               randn(4, 1, 3, 3) * 0.3)
w_dilated, bias = randn(6, 4, 3, 3) * 0.3, randn(8)
X = ttype(["?", 4, 9, 9])


def conv2d_reference(x, w0, w1, w2, w3, b):
    """The five convolutions of the conv2d cases, in PyTorch."""
    return (F.conv2d(x, w0, padding=1), F.conv2d(x, w1, groups=2),
            F.conv2d(x, w2, padding=1, groups=4),
            F.conv2d(F.pad(x, [2, 1, 2, 1]), w3, stride=2, dilation=2),
            F.relu(F.conv2d(x, w0, padding=1) + b[None, :, None, None]))


s.dynamic_case(
    "conv2d",
    f"""%r0 = rlx.conv %a0, %a1 stride = [1, 1] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 1 : ({X}, tensor<8x4x3x3xf32>) -> tensor<?x8x9x9xf32>
  %r1 = rlx.conv %a0, %a2 stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 2 : ({X}, tensor<8x2x3x3xf32>) -> tensor<?x8x7x7xf32>
  %r2 = rlx.conv %a0, %a3 stride = [1, 1] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 4 : ({X}, tensor<4x1x3x3xf32>) -> tensor<?x4x9x9xf32>
  %r3 = rlx.conv %a0, %a4 stride = [2, 2] padding = [2, 1, 2, 1] dilation = [2, 2] groups = 1 : ({X}, tensor<6x4x3x3xf32>) -> tensor<?x6x4x4xf32>
  %c = rlx.conv %a0, %a1 stride = [1, 1] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 1 : ({X}, tensor<8x4x3x3xf32>) -> tensor<?x8x9x9xf32>
  %b = rlx.reshape %a5 : tensor<8xf32> -> tensor<1x8x1x1xf32>
  %cb = rlx.add %c, %b : (tensor<?x8x9x9xf32>, tensor<1x8x1x1xf32>) -> tensor<?x8x9x9xf32>
  %r4 = rlx.relu %cb : tensor<?x8x9x9xf32>""",
    [X, "tensor<8x4x3x3xf32>", "tensor<8x2x3x3xf32>", "tensor<4x1x3x3xf32>",
     "tensor<6x4x3x3xf32>", "tensor<8xf32>"],
    ["tensor<?x8x9x9xf32>", "tensor<?x8x7x7xf32>", "tensor<?x4x9x9xf32>",
     "tensor<?x6x4x4xf32>", "tensor<?x8x9x9xf32>"],
    [[randn(n, 4, 9, 9), w_plain, w_grouped, w_depth, w_dilated, bias]
     for n in BATCHES],
    conv2d_reference, tol=F32_TOL)

w1d, w3d, wt = randn(5, 3, 3) * 0.3, randn(4, 2, 2, 2, 2) * 0.3, \
    randn(4, 3, 3, 3) * 0.3
s.dynamic_case(
    "conv_1d_3d_transpose",
    """%r0 = rlx.conv %a0, %a1 stride = [2] padding = [1, 1] dilation = [1] groups = 1 : (tensor<?x3x11xf32>, tensor<5x3x3xf32>) -> tensor<?x5x6xf32>
  %r1 = rlx.conv %a2, %a3 stride = [1, 1, 1] padding = [0, 0, 0, 0, 0, 0] dilation = [1, 1, 1] groups = 1 : (tensor<?x2x4x4x4xf32>, tensor<4x2x2x2x2xf32>) -> tensor<?x4x3x3x3xf32>
  %r2 = rlx.conv_transpose %a4, %a5 stride = [2, 2] padding = [1, 1, 1, 1] output_padding = [1, 1] dilation = [1, 1] groups = 1 : (tensor<?x4x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<?x3x10x10xf32>""",
    ["tensor<?x3x11xf32>", "tensor<5x3x3xf32>", "tensor<?x2x4x4x4xf32>",
     "tensor<4x2x2x2x2xf32>", "tensor<?x4x5x5xf32>", "tensor<4x3x3x3xf32>"],
    ["tensor<?x5x6xf32>", "tensor<?x4x3x3x3xf32>", "tensor<?x3x10x10xf32>"],
    [[randn(n, 3, 11), w1d, randn(n, 2, 4, 4, 4), w3d, randn(n, 4, 5, 5), wt]
     for n in BATCHES],
    lambda x1, w1, x3, w3, xt, wt: (
        F.conv1d(x1, w1, stride=2, padding=1), F.conv3d(x3, w3),
        F.conv_transpose2d(xt, wt, stride=2, padding=1, output_padding=1)),
    tol=F32_TOL)

# --- pooling and resampling ---------------------------------------------------------

P = ttype(["?", 3, 8, 8])
s.dynamic_case(
    "pool",
    f"""%r0 = rlx.pool max %a0 kernel = [3, 3] stride = [2, 2] padding = [1, 1, 1, 1] : {P} -> tensor<?x3x4x4xf32>
  %r1 = rlx.pool avg %a0 kernel = [3, 3] stride = [2, 2] padding = [1, 1, 1, 1] : {P} -> tensor<?x3x4x4xf32>
  %r2 = rlx.pool avg %a0 kernel = [3, 3] stride = [2, 2] padding = [1, 1, 1, 1] ceil_mode count_include_pad : {P} -> tensor<?x3x5x5xf32>
  %r3 = rlx.pool max %a1 kernel = [2, 2, 2] stride = [2, 2, 2] padding = [0, 0, 0, 0, 0, 0] : tensor<?x2x4x4x4xf32> -> tensor<?x2x2x2x2xf32>
  %r4 = rlx.global_pool avg %a0 : {P} -> tensor<?x3x1x1xf32>
  %r5 = rlx.global_pool max %a0 : {P} -> tensor<?x3x1x1xf32>
  %r6 = rlx.resize_nearest2x %a0 : {P} -> tensor<?x3x16x16xf32>
  %r7 = rlx.interpolate_nearest %a0 size = [5, 12] : {P} -> tensor<?x3x5x12xf32>""",
    [P, "tensor<?x2x4x4x4xf32>"],
    ["tensor<?x3x4x4xf32>", "tensor<?x3x4x4xf32>", "tensor<?x3x5x5xf32>",
     "tensor<?x2x2x2x2xf32>", "tensor<?x3x1x1xf32>", "tensor<?x3x1x1xf32>",
     "tensor<?x3x16x16xf32>", "tensor<?x3x5x12xf32>"],
    [[randn(n, 3, 8, 8), randn(n, 2, 4, 4, 4)] for n in BATCHES],
    lambda x, y: (
        spatial.pool(x, "max", [3, 3], [2, 2], [1, 1, 1, 1], False, False),
        spatial.pool(x, "avg", [3, 3], [2, 2], [1, 1, 1, 1], False, False),
        spatial.pool(x, "avg", [3, 3], [2, 2], [1, 1, 1, 1], True, True),
        spatial.pool(y, "max", [2, 2, 2], [2, 2, 2], [0] * 6, False, False),
        spatial.global_pool(x, "avg"), spatial.global_pool(x, "max"),
        F.interpolate(x, scale_factor=2, mode="nearest"),
        F.interpolate(x, size=[5, 12], mode="nearest")),
    tol=F32_TOL)

# --- `?` spatial sizes ----------------------------------------------------------------

XS = ttype(["?", 4, "?", "?"])
SIZES = ((1, 9, 9), (2, 7, 12), (3, 16, 5))
s.dynamic_case(
    "conv2d_spatial",
    f"""%r0 = rlx.conv %a0, %a1 stride = [1, 1] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 1 : ({XS}, tensor<8x4x3x3xf32>) -> tensor<?x8x?x?xf32>
  %r1 = rlx.conv %a0, %a2 stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 2 : ({XS}, tensor<8x2x3x3xf32>) -> tensor<?x8x?x?xf32>
  %r2 = rlx.conv %a0, %a3 stride = [1, 1] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 4 : ({XS}, tensor<4x1x3x3xf32>) -> tensor<?x4x?x?xf32>
  %r3 = rlx.conv %a0, %a4 stride = [2, 2] padding = [2, 1, 2, 1] dilation = [2, 2] groups = 1 : ({XS}, tensor<6x4x3x3xf32>) -> tensor<?x6x?x?xf32>
  %c = rlx.conv %a0, %a1 stride = [1, 1] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 1 : ({XS}, tensor<8x4x3x3xf32>) -> tensor<?x8x?x?xf32>
  %b = rlx.reshape %a5 : tensor<8xf32> -> tensor<1x8x1x1xf32>
  %cb = rlx.add %c, %b : (tensor<?x8x?x?xf32>, tensor<1x8x1x1xf32>) -> tensor<?x8x?x?xf32>
  %r4 = rlx.relu %cb : tensor<?x8x?x?xf32>""",
    [XS, "tensor<8x4x3x3xf32>", "tensor<8x2x3x3xf32>", "tensor<4x1x3x3xf32>",
     "tensor<6x4x3x3xf32>", "tensor<8xf32>"],
    ["tensor<?x8x?x?xf32>"] * 2 + ["tensor<?x4x?x?xf32>",
                                   "tensor<?x6x?x?xf32>",
                                   "tensor<?x8x?x?xf32>"],
    [[randn(n, 4, h, w), w_plain, w_grouped, w_depth, w_dilated, bias]
     for n, h, w in SIZES],
    conv2d_reference, tol=F32_TOL)

s.dynamic_case(
    "conv_1d_3d_transpose_spatial",
    """%r0 = rlx.conv %a0, %a1 stride = [2] padding = [1, 1] dilation = [1] groups = 1 : (tensor<?x3x?xf32>, tensor<5x3x3xf32>) -> tensor<?x5x?xf32>
  %r1 = rlx.conv %a2, %a3 stride = [1, 1, 1] padding = [0, 0, 0, 0, 0, 0] dilation = [1, 1, 1] groups = 1 : (tensor<?x2x?x?x?xf32>, tensor<4x2x2x2x2xf32>) -> tensor<?x4x?x?x?xf32>
  %r2 = rlx.conv_transpose %a4, %a5 stride = [2, 2] padding = [1, 1, 1, 1] output_padding = [1, 1] dilation = [1, 1] groups = 1 : (tensor<?x4x?x?xf32>, tensor<4x3x3x3xf32>) -> tensor<?x3x?x?xf32>""",
    ["tensor<?x3x?xf32>", "tensor<5x3x3xf32>", "tensor<?x2x?x?x?xf32>",
     "tensor<4x2x2x2x2xf32>", "tensor<?x4x?x?xf32>", "tensor<4x3x3x3xf32>"],
    ["tensor<?x5x?xf32>", "tensor<?x4x?x?x?xf32>", "tensor<?x3x?x?xf32>"],
    [[randn(n, 3, 11 + k), w1d, randn(n, 2, 4 + k, 3, 5 - k), w3d,
      randn(n, 4, 5 + k, 3 + 2 * k), wt]
     for k, n in enumerate(BATCHES)],
    lambda x1, w1, x3, w3, xt, wt: (
        F.conv1d(x1, w1, stride=2, padding=1), F.conv3d(x3, w3),
        F.conv_transpose2d(xt, wt, stride=2, padding=1, output_padding=1)),
    tol=F32_TOL)

PS = ttype(["?", 3, "?", "?"])
s.dynamic_case(
    "pool_spatial",
    f"""%r0 = rlx.pool max %a0 kernel = [3, 3] stride = [2, 2] padding = [1, 1, 1, 1] : {PS} -> tensor<?x3x?x?xf32>
  %r1 = rlx.pool avg %a0 kernel = [3, 3] stride = [2, 2] padding = [1, 1, 1, 1] : {PS} -> tensor<?x3x?x?xf32>
  %r2 = rlx.pool avg %a0 kernel = [3, 3] stride = [2, 2] padding = [1, 1, 1, 1] ceil_mode count_include_pad : {PS} -> tensor<?x3x?x?xf32>
  %r3 = rlx.pool max %a0 kernel = [3, 2] stride = [2, 2] padding = [0, 0, 0, 0] ceil_mode : {PS} -> tensor<?x3x?x?xf32>
  %r4 = rlx.pool max %a1 kernel = [2, 2, 2] stride = [2, 2, 2] padding = [0, 0, 0, 0, 0, 0] : tensor<?x2x?x?x?xf32> -> tensor<?x2x?x?x?xf32>
  %r5 = rlx.global_pool avg %a0 : {PS} -> tensor<?x3x1x1xf32>
  %r6 = rlx.global_pool max %a0 : {PS} -> tensor<?x3x1x1xf32>
  %r7 = rlx.resize_nearest2x %a0 : {PS} -> tensor<?x3x?x?xf32>""",
    [PS, "tensor<?x2x?x?x?xf32>"],
    ["tensor<?x3x?x?xf32>"] * 4 + ["tensor<?x2x?x?x?xf32>",
                                   "tensor<?x3x1x1xf32>",
                                   "tensor<?x3x1x1xf32>",
                                   "tensor<?x3x?x?xf32>"],
    [[randn(n, 3, h, w), randn(n, 2, h // 2 + 2, 4, w // 2 + 2)]
     for n, h, w in ((1, 8, 8), (2, 7, 12), (3, 16, 5))],
    lambda x, y: (
        spatial.pool(x, "max", [3, 3], [2, 2], [1, 1, 1, 1], False, False),
        spatial.pool(x, "avg", [3, 3], [2, 2], [1, 1, 1, 1], False, False),
        spatial.pool(x, "avg", [3, 3], [2, 2], [1, 1, 1, 1], True, True),
        spatial.pool(x, "max", [3, 2], [2, 2], [0, 0, 0, 0], True, False),
        spatial.pool(y, "max", [2, 2, 2], [2, 2, 2], [0] * 6, False, False),
        spatial.global_pool(x, "avg"), spatial.global_pool(x, "max"),
        F.interpolate(x, scale_factor=2, mode="nearest")),
    tol=F32_TOL)

# --- examples/cnn.mlir with a `?` batch ------------------------------------------------

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                       "examples", "cnn.mlir")) as f:
    text = re.sub(r"tensor<2x", "tensor<?x", f.read())
signature, body = re.search(r"func\.func @\w+\((.*?)\)\s*->\s*[^{]*\{(.*)\}\s*$",
                            text, re.S).groups()
names = re.findall(r"%(\w+):", signature)
types = re.findall(r":\s*(tensor<[^>]*>)", signature)
body = re.sub(r"%a(\d+)\b", r"%a_\1", body)
for i, name in enumerate(names):
    body = re.sub(rf"%{name}\b", f"%a{i}", body)
result = re.search(r"return [^:]*:\s*(tensor<[^>]*>)", body).group(1)


def cnn_batch(seed, n):
    inputs = cnn_inputs(seed)
    inputs[0] = randn(n, *inputs[0].shape[1:])
    return inputs


s.dynamic_case("cnn", body, types, result,
               [cnn_batch(i, n) for i, n in enumerate(BATCHES)],
               cnn_reference, tol=(1e-4, 1e-5))

s.run()
