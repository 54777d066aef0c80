# RUN: %oracle_python %s
# REQUIRES: torch
# Fusion must not change results: every case is compiled fused (the
# default: named fused ops, rlx regions, linalg elementwise and epilogue
# fusion) and with --no-fuse, both in the strict floating-point mode
# (--strict-fp), and run with rlx-run on the same inputs; the two outputs
# must be identical bit for bit (same dtype, shape and bytes, so NaN
# positions and signed zeros too), and both, and the fused module in the
# default mode (FMAs in fused epilogues), must match a PyTorch float64
# reference within tolerance (rlx_testing.fusion). Each case also checks
# with --kernel-report that fusion did reduce the number of loop nests where
# it should. The fused contraction ops have their own file,
# fused_contraction.py.
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

from rlx_testing import SRC_ROOT, Report
from rlx_testing.examples import (cnn_inputs, cnn_reference, mlp_inputs,
                                  mlp_reference, transformer_block_inputs,
                                  transformer_block_reference)
from rlx_testing.fusion import Case, run_case


#===----------------------------------------------------------------------===#
# Cases
#===----------------------------------------------------------------------===#

# A long elementwise chain with row, column and scalar broadcasting; one
# region when fused: ARITH with correctly rounded operations only, CHAIN
# with transcendental ones too (libm gives the same bits whether a loop is
# fused or not). The f16 version rounds each intermediate to f16, so its
# reference does too (`rnd`), and fused must round exactly like unfused.
ARITH = """
func.func @chain(%x: tensor<6x16xf32>, %b: tensor<16xf32>, %c: tensor<6x1xf32>,
                 %s: tensor<f32>) -> tensor<6x16xf32> {
  %0 = rlx.add %x, %b : (tensor<6x16xf32>, tensor<16xf32>) -> tensor<6x16xf32>
  %1 = rlx.mul %0, %c : (tensor<6x16xf32>, tensor<6x1xf32>) -> tensor<6x16xf32>
  %2 = rlx.relu %1 : tensor<6x16xf32>
  %3 = rlx.sub %2, %s : (tensor<6x16xf32>, tensor<f32>) -> tensor<6x16xf32>
  %4 = rlx.abs %3 : tensor<6x16xf32>
  %5 = rlx.mul %4, %x : (tensor<6x16xf32>, tensor<6x16xf32>) -> tensor<6x16xf32>
  %6 = rlx.max %5, %b : (tensor<6x16xf32>, tensor<16xf32>) -> tensor<6x16xf32>
  %7 = rlx.div %6, %c : (tensor<6x16xf32>, tensor<6x1xf32>) -> tensor<6x16xf32>
  %8 = rlx.abs %7 : tensor<6x16xf32>
  %9 = rlx.sqrt %8 : tensor<6x16xf32>
  %10 = rlx.sub %9, %b : (tensor<6x16xf32>, tensor<16xf32>) -> tensor<6x16xf32>
  return %10 : tensor<6x16xf32>
}
"""


def arith_ref(x, b, c, s):
    y = torch.relu((x + b) * c)
    y = torch.maximum(torch.abs(y - s) * x, b)
    return torch.sqrt(torch.abs(y / c)) - b


CHAIN = """
func.func @chain(%x: tensor<6x16x{T}>, %b: tensor<16x{T}>, %c: tensor<6x1x{T}>,
                 %s: tensor<{T}>) -> tensor<6x16x{T}> {{
  %0 = rlx.add %x, %b : (tensor<6x16x{T}>, tensor<16x{T}>) -> tensor<6x16x{T}>
  %1 = rlx.mul %0, %c : (tensor<6x16x{T}>, tensor<6x1x{T}>) -> tensor<6x16x{T}>
  %2 = rlx.gelu %1 : tensor<6x16x{T}>
  %3 = rlx.sub %2, %s : (tensor<6x16x{T}>, tensor<{T}>) -> tensor<6x16x{T}>
  %4 = rlx.tanh %3 : tensor<6x16x{T}>
  %5 = rlx.mul %4, %x : (tensor<6x16x{T}>, tensor<6x16x{T}>) -> tensor<6x16x{T}>
  %6 = rlx.sigmoid %5 : tensor<6x16x{T}>
  %7 = rlx.div %6, %c : (tensor<6x16x{T}>, tensor<6x1x{T}>) -> tensor<6x16x{T}>
  %8 = rlx.exp %7 : tensor<6x16x{T}>
  %9 = rlx.sqrt %8 : tensor<6x16x{T}>
  %10 = rlx.sub %9, %b : (tensor<6x16x{T}>, tensor<16x{T}>) -> tensor<6x16x{T}>
  return %10 : tensor<6x16x{T}>
}}
"""


def chain_ref(rnd):
    def ref(x, b, c, s):
        y = rnd(x + b)
        y = rnd(y * c)
        y = rnd(F.gelu(y))
        y = rnd(y - s)
        y = rnd(torch.tanh(y))
        y = rnd(y * x)
        y = rnd(torch.sigmoid(y))
        y = rnd(y / c)
        y = rnd(torch.exp(y))
        y = rnd(torch.sqrt(y))
        return rnd(y - b)
    return ref


def chain_draw(seed, dtype):
    rng = np.random.default_rng(seed)
    u = lambda *s: rng.uniform(-2, 2, s).astype(dtype)
    c = rng.uniform(0.5, 2, (6, 1)).astype(dtype)
    c[::2] *= -1  # keep |c| >= 0.5 for the division
    return [u(6, 16), u(16), c, u()]


# A multi-use producer: %e feeds the chain and, after the chain's end, a
# softmax and the results, so it becomes an extra region result.
MULTI = """
func.func @multi(%x: tensor<5x7x{T}>, %b: tensor<7x{T}>)
    -> (tensor<5x7x{T}>, tensor<5x7x{T}>, tensor<5x7x{T}>) {{
  %m = rlx.mul %x, %b : (tensor<5x7x{T}>, tensor<7x{T}>) -> tensor<5x7x{T}>
  %e = rlx.exp %m : tensor<5x7x{T}>
  %n = rlx.neg %e : tensor<5x7x{T}>
  %a = rlx.add %n, %x : (tensor<5x7x{T}>, tensor<5x7x{T}>) -> tensor<5x7x{T}>
  %t = rlx.tanh %a : tensor<5x7x{T}>
  %sm = rlx.softmax %e axis = -1 : tensor<5x7x{T}>
  return %t, %sm, %e : tensor<5x7x{T}>, tensor<5x7x{T}>, tensor<5x7x{T}>
}}
"""


def multi_ref(rnd):
    def ref(x, b):
        e = rnd(torch.exp(rnd(x * b)))
        t = rnd(torch.tanh(rnd(rnd(-e) + x)))
        return t, torch.softmax(e, dim=-1), e
    return ref


def multi_draw(seed, dtype):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1.5, 1.5, (5, 7)).astype(dtype),
            rng.uniform(-1.5, 1.5, 7).astype(dtype)]


# SwiGLU written out (narrow/silu/mul): --rlx-fuse-patterns makes it one
# rlx.swiglu, which must round exactly like the graph.
SWIGLU = """
func.func @swiglu(%x: tensor<6x2x16x{T}>) -> tensor<6x2x8x{T}> {{
  %up = rlx.narrow %x axis = -1, start = 0, length = 8
      : tensor<6x2x16x{T}> -> tensor<6x2x8x{T}>
  %gate = rlx.narrow %x axis = 2, start = 8, length = 8
      : tensor<6x2x16x{T}> -> tensor<6x2x8x{T}>
  %s = rlx.silu %gate : tensor<6x2x8x{T}>
  %y = rlx.mul %s, %up
      : (tensor<6x2x8x{T}>, tensor<6x2x8x{T}>) -> tensor<6x2x8x{T}>
  return %y : tensor<6x2x8x{T}>
}}
"""


def swiglu_ref(rnd):
    def ref(x):
        up, gate = x[..., :8], x[..., 8:]
        return rnd(rnd(F.silu(gate)) * up)
    return ref


def swiglu_draw(seed, dtype):
    return [np.random.default_rng(seed).uniform(-4, 4, (6, 2, 16))
            .astype(dtype)]


def main():
    report = Report()
    f16 = lambda t: t.to(torch.float16).to(torch.float64)
    exact = lambda t: t
    with tempfile.TemporaryDirectory() as tmp:
        def module(name, text):
            path = f"{tmp}/{name}.mlir"
            with open(path, "w") as f:
                f.write(text)
            return path

        cases = [
            Case("mlp", f"{SRC_ROOT}/examples/mlp.mlir", "mlp",
                 [mlp_inputs(s) for s in (0, 1, 2)], mlp_reference, (1e-5, 1e-6),
                 fused_ops=["rlx.matmul_bias_act"] * 2),
            Case("cnn", f"{SRC_ROOT}/examples/cnn.mlir", "cnn",
                 [cnn_inputs(s) for s in (0, 1, 2)], cnn_reference, (1e-5, 1e-6),
                 fused_ops=["rlx.matmul_bias_act"]),
            # Tolerance: test/Examples/Inputs/check_example.py.
            Case("transformer_block",
                 f"{SRC_ROOT}/examples/transformer_block.mlir",
                 "transformer_block",
                 [transformer_block_inputs(s) for s in (0, 1)],
                 transformer_block_reference, (1e-5, 2.5e-5),
                 fused_ops=["rlx.swiglu", "rlx.matmul_residual",
                            "rlx.residual_rms_norm"]),
            Case("chain_f32", module("chain_f32", ARITH), "chain",
                 [chain_draw(s, np.float32) for s in (0, 1, 2)], arith_ref,
                 (1e-5, 1e-6)),
            Case("chain_transcendental_f32",
                 module("chain_tf32", CHAIN.format(T="f32")), "chain",
                 [chain_draw(s, np.float32) for s in (0, 1, 2)],
                 chain_ref(lambda t: t), (1e-5, 1e-6)),
            # Intermediates rounded to f16 in the reference as well: what is
            # left is the f32 libm error, up to one f16 ulp after rounding.
            Case("chain_f16", module("chain_f16", CHAIN.format(T="f16")),
                 "chain", [chain_draw(s, np.float16) for s in (0, 1, 2)],
                 chain_ref(f16), (2e-3, 2e-3)),
            Case("multi_output_f32", module("multi_f32", MULTI.format(T="f32")),
                 "multi", [multi_draw(s, np.float32) for s in (0, 1)],
                 multi_ref(exact), (1e-5, 1e-6), min_region_results=2),
            Case("multi_output_f16", module("multi_f16", MULTI.format(T="f16")),
                 "multi", [multi_draw(s, np.float16) for s in (0, 1)],
                 multi_ref(f16), (2e-3, 2e-3), min_region_results=2),
            Case("swiglu_f32", module("swiglu_f32", SWIGLU.format(T="f32")),
                 "swiglu", [swiglu_draw(s, np.float32) for s in (0, 1)],
                 swiglu_ref(exact), (1e-5, 1e-6)),
            Case("swiglu_f16", module("swiglu_f16", SWIGLU.format(T="f16")),
                 "swiglu", [swiglu_draw(s, np.float16) for s in (0, 1)],
                 swiglu_ref(f16), (2e-3, 2e-3)),
        ]
        for case in cases:
            run_case(case, tmp, report)
    report.finish()


if __name__ == "__main__":
    main()
