# RUN: %oracle_python %s
# REQUIRES: torch
# Contractions through the CPU codegen layer (thread tiles on OpenMP,
# register tiles as vector contractions) at 1 and 2 threads: the outputs
# must be identical bit for bit across thread counts (each result element
# is summed by one thread, in the same order) and match PyTorch in float64.
# Shapes: tiles that divide the loops, odd sizes (partial thread tiles,
# register tiles that are the whole loop), a prime reduction, a batched
# matmul, an epilogue fused per tile, an f16 matmul (f32 accumulation),
# matmuls that pack their right operand;
# convolutions (register tiles of one window position: outer products of
# filters and input rows), 3x3 with a fused bias + relu over a batch,
# strided 7x7, 1x1, rows that no vector divides, a depthwise and a grouped
# one; pooling windows, sums over rows, over columns and over everything
# (split into blocks and lanes), maxima and minima of everything (split
# into partial results), an elementwise op, and a decode step of attention
# whose keys split across thread tiles. Every case but
# tiny_3x5x7 has at least 2^16 iterations, so it is split into thread tiles
# (smaller ops run on the calling thread; the total mean has no parallel
# loop and runs on one).
# Tolerance: rtol 2e-5 + atol 2e-5 * sqrt(K) for f32 (K-term sums of
# N(0,1) products; K = channels x window for convolutions), the f16 suite's
# for f16.
import os
import tempfile

import numpy as np
import torch
import torch.nn.functional as F
from rlx_testing import (TOOLS, Report, compare, run_function, ttype,
                         type_of)
from rlx_testing.attention import attention
import subprocess

rng = np.random.default_rng(5)
cases = []  # (name, mlir function, inputs, reference, tol)


def matmul_case(name, m, k, n, elem="f32", batch=None, epilogue=False):
    dtype = np.float16 if elem == "f16" else np.float32
    lead = [batch] if batch else []
    a = rng.standard_normal(lead + [m, k]).astype(dtype)
    b = rng.standard_normal(lead + [k, n]).astype(dtype)
    out = ttype(lead + [m, n], elem)
    inputs, body = [a, b], (f"  %r = rlx.matmul %a0, %a1 : ({type_of(a)}, "
                            f"{type_of(b)}) -> {out}\n")

    def reference(x, y):
        return torch.matmul(x, y)
    if epilogue:
        bias = rng.standard_normal(n).astype(dtype)
        inputs.append(bias)
        body = (f"  %p = rlx.matmul %a0, %a1 : ({type_of(a)}, {type_of(b)}) "
                f"-> {out}\n  %s = rlx.add %p, %a2 : ({out}, "
                f"{type_of(bias)}) -> {out}\n  %r = rlx.gelu %s : {out}\n")

        def reference(x, y, c):
            return F.gelu(torch.matmul(x, y) + c)
    args = ", ".join(f"%a{i}: {type_of(x)}" for i, x in enumerate(inputs))
    function = (f"func.func @{name}({args}) -> {out} {{\n{body}"
                f"  return %r : {out}\n}}")
    tol = "f16" if elem == "f16" else (2e-5, 2e-5 * np.sqrt(k))
    cases.append((name, function, inputs, reference, tol))


def conv_case(name, x_shape, w_shape, stride=1, pad=0, groups=1,
              epilogue=False):
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    n, _, h, wd = x_shape
    kh, kw = w_shape[2:]
    o = [n, w_shape[0], (h + 2 * pad - kh) // stride + 1,
         (wd + 2 * pad - kw) // stride + 1]
    out = ttype(o, "f32")
    inputs = [x, w]
    body = (f"  %c = rlx.conv %a0, %a1 stride = [{stride}, {stride}] padding "
            f"= [{pad}, {pad}, {pad}, {pad}] dilation = [1, 1] groups = "
            f"{groups}\n      : ({type_of(x)}, {type_of(w)}) -> {out}\n")

    def reference(x, w):
        return F.conv2d(x, w, None, stride, pad, 1, groups)
    if epilogue:
        bias = rng.standard_normal([1, w_shape[0], 1, 1]).astype(np.float32)
        inputs.append(bias)
        body += (f"  %s = rlx.add %c, %a2 : ({out}, {type_of(bias)}) -> "
                 f"{out}\n  %r = rlx.relu %s : {out}\n")

        def reference(x, w, b):
            return F.relu(F.conv2d(x, w, None, stride, pad, 1, groups) + b)
    else:
        body = body.replace("%c = ", "%r = ")
    args = ", ".join(f"%a{i}: {type_of(t)}" for i, t in enumerate(inputs))
    function = (f"func.func @{name}({args}) -> {out} {{\n{body}"
                f"  return %r : {out}\n}}")
    k = w_shape[1] * kh * kw
    cases.append((name, function, inputs, reference,
                  (2e-5, 2e-5 * np.sqrt(k))))


conv_case("conv3x3_bias_relu_2x32x20x20", (2, 32, 20, 20), (48, 32, 3, 3),
          pad=1, epilogue=True)
conv_case("conv7x7_stride2_1x3x40x40", (1, 3, 40, 40), (16, 3, 7, 7),
          stride=2, pad=3)
conv_case("conv1x1_1x64x14x14", (1, 64, 14, 14), (32, 64, 1, 1))
conv_case("conv3x3_odd_rows_1x8x13x37", (1, 8, 13, 37), (8, 8, 3, 3))
conv_case("depthwise3x3_1x24x32x32", (1, 24, 32, 32), (24, 1, 3, 3), pad=1,
          groups=24)
matmul_case("square_256", 256, 256, 256)
matmul_case("tall_300x1000x384", 300, 1000, 384)
matmul_case("odd_33x200x17", 33, 200, 17)
matmul_case("prime_k_20x1009x40", 20, 1009, 40)
matmul_case("tiny_3x5x7", 3, 5, 7)
matmul_case("batched_4x64x32x96", 64, 32, 96, batch=4)
matmul_case("epilogue_128x64x256", 128, 64, 256, epilogue=True)
matmul_case("f16_64x128x64", 64, 128, 64, elem="f16")
# Right operands with rows of 1024 columns or more are packed into panels
# per cache tile: panels of two vectors, and of one (1040 columns).
matmul_case("packed_96x384x1024", 96, 384, 1024)
matmul_case("packed_odd_40x300x1040", 40, 300, 1040)



def text_case(name, inputs, body, out, reference, tol):
    """A function of `inputs` (numpy arrays) computing `%r` of type `out`
    by `body`; `reference` takes the float64 torch inputs."""
    args = ", ".join(f"%a{i}: {type_of(t)}" for i, t in enumerate(inputs))
    function = (f"func.func @{name}({args}) -> {out} {{\n{body}"
                f"  return %r : {out}\n}}")
    cases.append((name, function, inputs, reference, tol))


def normal(*shape):
    return rng.standard_normal(shape).astype(np.float32)


# Ops the layer schedules with streaming tiles: thread tiles of rows (never
# of a reduced loop) with vectors along the contiguous dimension.
x = normal(256, 1024)
text_case("grouped_conv_2x16x18x18", [normal(2, 16, 18, 18),
                                      normal(24, 8, 3, 3)],
          "  %r = rlx.conv %a0, %a1 stride = [1, 1] padding = [0, 0, 0, 0] "
          "dilation = [1, 1] groups = 2\n      : (tensor<2x16x18x18xf32>, "
          "tensor<24x8x3x3xf32>) -> tensor<2x24x16x16xf32>\n",
          ttype([2, 24, 16, 16], "f32"),
          lambda x, w: F.conv2d(x, w, groups=2),
          (2e-5, 2e-5 * np.sqrt(72)))
text_case("max_pool_2x32x64x64", [normal(2, 32, 64, 64)],
          "  %r = rlx.pool max %a0 kernel = [3, 3] stride = [2, 2] padding "
          "= [1, 1, 1, 1] : tensor<2x32x64x64xf32> -> "
          "tensor<2x32x32x32xf32>\n", ttype([2, 32, 32, 32], "f32"),
          lambda x: F.max_pool2d(x, 3, 2, 1), (0, 0))
text_case("avg_pool_2x32x64x64", [normal(2, 32, 64, 64)],
          "  %r = rlx.pool avg %a0 kernel = [2, 2] stride = [2, 2] padding "
          "= [0, 0, 0, 0] : tensor<2x32x64x64xf32> -> "
          "tensor<2x32x32x32xf32>\n", ttype([2, 32, 32, 32], "f32"),
          lambda x: F.avg_pool2d(x, 2, 2), (1e-6, 1e-6))
text_case("row_sums_256x1024", [x],
          "  %r = rlx.reduce sum %a0 axes = [1] : tensor<256x1024xf32> -> "
          "tensor<256xf32>\n", ttype([256], "f32"),
          lambda x: x.sum(1), (1e-6, 1e-6 * np.sqrt(1024)))
text_case("column_sums_256x1024", [x],
          "  %r = rlx.reduce sum %a0 axes = [0] : tensor<256x1024xf32> -> "
          "tensor<1024xf32>\n", ttype([1024], "f32"),
          lambda x: x.sum(0), (1e-6, 1e-6 * np.sqrt(256)))
text_case("total_mean_256x1024", [x],
          "  %r = rlx.reduce mean %a0 axes = [0, 1] : tensor<256x1024xf32> "
          "-> tensor<f32>\n", ttype([], "f32"),
          lambda x: x.mean(), (1e-6, 1e-6))
# Reductions of everything that are not float sums split across thread
# tiles into partial results, merged after them.
text_case("max_all_2048x1024", [normal(2048, 1024)],
          "  %r = rlx.reduce max %a0 axes = [0, 1] : tensor<2048x1024xf32> "
          "-> tensor<f32>\n", ttype([], "f32"),
          lambda x: x.max(), (0, 0))
text_case("min_all_3000x100", [normal(3000, 100)],
          "  %r = rlx.reduce min %a0 axes = [0, 1] : tensor<3000x100xf32> "
          "-> tensor<f32>\n", ttype([], "f32"),
          lambda x: x.min(), (0, 0))
# A decode step whose 4096 keys are split across thread tiles (split-K):
# 2 heads x 8 parts, merged in one order whatever the thread count.
text_case("attention_decode_split_keys",
          [normal(1, 1, 2, 64), normal(1, 4096, 1, 64), normal(1, 4096, 1, 64)],
          "  %r = rlx.attention bshd %a0, %a1, %a2 heads = 2 kv_heads = 1 "
          "mask = causal : (tensor<1x1x2x64xf32>, tensor<1x4096x1x64xf32>, "
          "tensor<1x4096x1x64xf32>) -> tensor<1x1x2x64xf32>\n",
          ttype([1, 1, 2, 64], "f32"),
          lambda q, k, v: attention(q, k, v, None, "bshd", 2, 1, "causal")[0],
          (1e-5, 2e-6))
text_case("gelu_262144", [normal(262144)],
          "  %r = rlx.gelu %a0 : tensor<262144xf32>\n",
          ttype([262144], "f32"), F.gelu, (1e-6, 1e-6))

report = Report()
with tempfile.TemporaryDirectory() as tmp:
    src, so = os.path.join(tmp, "threads.mlir"), os.path.join(tmp, "t.so")
    with open(src, "w") as f:
        f.write("\n".join(c[1] for c in cases))
    proc = subprocess.run([os.path.join(TOOLS, "rlx-compile"), src, "-o", so],
                          capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"rlx-compile failed:\n{proc.stderr}")
    for name, _, inputs, reference, tol in cases:
        outputs = {}
        for threads in (1, 2):
            os.environ["OMP_NUM_THREADS"] = str(threads)
            outputs[threads] = run_function(
                so, name, inputs, os.path.join(tmp, f"{name}_{threads}"))[0]
        want = reference(*[torch.from_numpy(x.astype(np.float64))
                           for x in inputs])
        reason = compare(outputs[1], want, tol)
        if reason is None and outputs[1].tobytes() != outputs[2].tobytes():
            reason = "1 and 2 threads differ"
        report.record(name, reason)
report.finish()
