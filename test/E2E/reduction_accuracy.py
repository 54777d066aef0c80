# RUN: %oracle_python %s
# REQUIRES: torch
# The rounding error of long f32 reductions against float64, at lengths
# 4096, 65536 and 2^20: sum and mean of positives (no cancellation to hide
# behind), row sums, softmax, log_softmax and layer_norm over 4096+ columns.
# A sequential f32 sum drifts like sqrt(n) ulp (4e-6 relative at 4096, 3e-5
# at 2^20); rlx-split-reductions' blocks and lanes keep it near a short
# sum's. The tolerances are relative (atol 0 where the values cannot be
# near zero). Measured at 4096 (worst relative error, split / sequential /
# PyTorch f32): row sum 1.0e-7 / 7.1e-7, softmax 9.2e-7 / 2.9e-6 / 1.0e-6,
# log_softmax 1.0e-7 / 7.6e-7; the row, column, 65536, 2^20, softmax and
# layer_norm cases fail with --no-split-reductions (all 13 do). The
# `?`-length sums at 2^20 + 37 and 16 rows of 70000: 6.7e-8 / 1.5e-7 split,
# 1.0e-6 / 1.0e-6 sequential (the split fixed for a `?` length before it,
# issue 15).
import numpy as np
import torch
import torch.nn.functional as F
from rlx_testing import Suite, type_of

rng = np.random.default_rng(11)
s = Suite()

for n, rtol in ((4096, 3e-7), (65536, 1e-6), (1 << 20, 1e-6)):
    x = rng.uniform(0, 1, n).astype(np.float32)
    s.case(f"sum_{n}", f"%r = rlx.reduce sum %a0 axes = [0] : "
           f"{type_of(x)} -> tensor<f32>", [x], torch.sum, out="tensor<f32>",
           tol=(rtol, 0))
    s.case(f"mean_{n}", f"%r = rlx.reduce mean %a0 axes = [0] : "
           f"{type_of(x)} -> tensor<f32>", [x], torch.mean,
           out="tensor<f32>", tol=(rtol, 0))

# Rows of 4096 and 5000 (not a multiple of the block), and columns.
for shape, axis in (((16, 4096), 1), ((16, 5000), 1), ((4096, 16), 0)):
    x = rng.uniform(0, 1, shape).astype(np.float32)
    out = f"tensor<{shape[1 - axis]}xf32>"
    s.case(f"row_sum_{shape[0]}x{shape[1]}_axis{axis}",
           f"%r = rlx.reduce sum %a0 axes = [{axis}] : {type_of(x)} -> {out}",
           [x], lambda t, axis=axis: torch.sum(t, axis), out=out,
           tol=(3e-7, 0))

# A `?` length: blocks of the largest multiple of 256 at run time, the rest
# (shorter than a block) summed in order onto them; one compiled function
# for every length.
s.dynamic_case(
    "sum_dynamic", "%r = rlx.reduce sum %a0 axes = [0] : tensor<?xf32> -> "
    "tensor<f32>", ["tensor<?xf32>"], "tensor<f32>",
    [[rng.uniform(0, 1, n).astype(np.float32)]
     for n in (300, 65536, (1 << 20) + 37)],
    torch.sum, tol=(3e-7, 0))
s.dynamic_case(
    "row_sum_dynamic", "%r = rlx.reduce sum %a0 axes = [1] : tensor<16x?xf32> "
    "-> tensor<16xf32>", ["tensor<16x?xf32>"], "tensor<16xf32>",
    [[rng.uniform(0, 1, (16, n)).astype(np.float32)] for n in (5000, 70000)],
    lambda t: torch.sum(t, 1), tol=(3e-7, 0))

x = (rng.standard_normal((8, 4096)) * 2).astype(np.float32)
s.case("softmax_4096", f"%r = rlx.softmax %a0 axis = 1 : {type_of(x)}", [x],
       lambda t: torch.softmax(t, 1), out=type_of(x), tol=(1.5e-6, 0))
s.case("log_softmax_4096", f"%r = rlx.log_softmax %a0 axis = 1 : "
       f"{type_of(x)}", [x], lambda t: torch.log_softmax(t, 1),
       out=type_of(x), tol=(3e-7, 0))
x = (rng.standard_normal((4, 65536)) + 3).astype(np.float32)
s.case("softmax_65536", f"%r = rlx.softmax %a0 axis = 1 : {type_of(x)}", [x],
       lambda t: torch.softmax(t, 1), out=type_of(x), tol=(2e-6, 0))

# layer_norm of rows with a large mean: the centered values are small, so
# the error of the mean shows in every output.
x = (rng.standard_normal((8, 8192)) + 10).astype(np.float32)
g = np.ones(8192, np.float32)
b = np.zeros(8192, np.float32)
s.case("layer_norm_8192", "%r = rlx.layer_norm %a0, %a1, %a2 axis = 1 "
       "eps = 1.0e-05 : (tensor<8x8192xf32>, tensor<8192xf32>, "
       "tensor<8192xf32>) -> tensor<8x8192xf32>", [x, g, b],
       lambda t, g, b: F.layer_norm(t, [8192], g, b, 1e-5),
       out=type_of(x), tol=(0, 2e-5))
s.run()
