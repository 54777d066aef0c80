# RUN: %oracle_python %s
# REQUIRES: torch
# The GPU's shared-memory matmul kernel (rlx-gpu-tile-contractions), run on
# the CPU: rlx-compile --gpu-tiling-on-cpu compiles every tiled contraction
# into the same block / k-tile / thread loops the GPU pipeline maps to
# blocks and threads, with the sibling thread loops (copies of the A and B
# tiles, micro-tile accumulation) run one after the other, as the GPU's
# barriers order them. The outputs must match PyTorch in float64: this tests
# the tiling's indexing, bounds and zero padding (64x64 tiles of C, k tiles
# of 16, 4x4 micro-tiles; for f16 and bf16 whose C tiles divide C, the
# tensor-core form: warps contracting 16x8x16 tiles) without a GPU.
import numpy as np
import torch
from rlx_testing import Suite, elem_of, type_of, ttype
from rlx_testing import spatial
from rlx_testing.spatial import arr

rng = np.random.default_rng(7)
s = Suite(compile_args=["--gpu-tiling-on-cpu"])
# A K-term f32 dot product of values in [-1, 1) is off by up to ~sqrt(K) ulp
# of the terms, not of the (possibly cancelled) result.
F32_DOT = (1e-5, 2e-5)


def matmul(name, a_shape, b_shape, dt=np.float32, tol=None):
    a, b = (rng.uniform(-1, 1, sh).astype(dt) for sh in (a_shape, b_shape))
    out = ttype(torch.matmul(torch.zeros(a_shape), torch.zeros(b_shape)).shape,
                elem_of(a))
    s.case(name, f"%r = rlx.matmul %a0, %a1 : ({type_of(a)}, {type_of(b)}) "
           f"-> {out}", [a, b], torch.matmul, out=out,
           tol=tol or (F32_DOT if dt == np.float32 else None))


# Sizes that divide the tiles, that do not (partial blocks in M and N, a
# partial k tile), several k tiles, and degenerate shapes.
matmul("tiles_exact", (128, 32), (32, 64))
matmul("tiles_partial", (100, 37), (37, 70))
matmul("tiles_many_k", (65, 130), (130, 129))
matmul("row_vector", (1, 40), (40, 96))
matmul("column_vector", (96, 40), (40, 1))
matmul("k1", (70, 1), (1, 66))
matmul("all1", (1, 1), (1, 1))
matmul("odd_small", (5, 7), (7, 3))
# Batched: the batch on blocks' z.
matmul("batched", (3, 70, 20), (3, 20, 33))
matmul("batched_exact", (2, 64, 16), (2, 16, 64))
matmul("batched_4d", (2, 3, 5, 7), (2, 3, 7, 4))
# f16 operands and result, accumulated in f32 in the kernel.
matmul("f16", (80, 48), (48, 72), np.float16)
matmul("f16_batched", (2, 33, 65), (2, 65, 17), np.float16)
# f16 tiles of C that divide C: the tensor-core kernel (warp-level
# 16x8x16 contractions), run here as vector.contract on the CPU.
matmul("f16_mma", (128, 48), (48, 64), np.float16)
matmul("f16_mma_batched", (2, 64, 40), (2, 40, 128), np.float16)
# bf16 whose C tiles do not divide C (the SIMT kernel, f32 accumulation):
# f32 arguments exact in bf16, cast in, the bf16 result cast out.
def bf16_round(x):
    """f32 -> nearest-even bf16, kept in an f32 array."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
    return bits.view(np.float32)


a, b = (bf16_round(rng.uniform(-1, 1, sh)) for sh in ((70, 40), (40, 33)))
s.case("bf16",
       "%x = rlx.cast %a0 : tensor<70x40xf32> -> tensor<70x40xbf16>\n"
       "  %y = rlx.cast %a1 : tensor<40x33xf32> -> tensor<40x33xbf16>\n"
       "  %m = rlx.matmul %x, %y : (tensor<70x40xbf16>, tensor<40x33xbf16>) "
       "-> tensor<70x33xbf16>\n"
       "  %r = rlx.cast %m : tensor<70x33xbf16> -> tensor<70x33xf32>",
       [a, b], torch.matmul, out="tensor<70x33xf32>", tol="bf16")
# bf16 whose C tiles divide C: the tensor-core form, as for f16. bf16
# arguments and result directly (rlx-run feeds bf16 inputs from f32 .npy
# holding bf16 values). The f32 sums are rounded to bf16 once: off by at
# most half a bf16 ulp (2^-8 of the value) plus the sums' f32 rounding
# (F32_DOT's, relative to the terms: scaled with them).
BF16_RESULT = (4e-3, F32_DOT[1])


def matmul_bf16(name, a_shape, b_shape, scale=1.0):
    a, b = (bf16_round(rng.uniform(-scale, scale, sh))
            for sh in (a_shape, b_shape))
    types = [ttype(sh, "bf16") for sh in (a_shape, b_shape)]
    out = ttype(torch.matmul(torch.zeros(a_shape), torch.zeros(b_shape)).shape,
                "bf16")
    s.case(name, f"%r = rlx.matmul %a0, %a1 : ({types[0]}, {types[1]}) -> "
           f"{out}", [a, b], torch.matmul, out=out,
           tol=(BF16_RESULT[0], BF16_RESULT[1] * scale**2), args=types)


matmul_bf16("bf16_mma", (128, 48), (48, 64))
matmul_bf16("bf16_mma_batched", (2, 64, 40), (2, 40, 128))
# Magnitudes of 2^40 (products of 2^80) exist in bf16, not in f16 (whose
# largest value is 65504): bf16 is never computed as f16.
matmul_bf16("bf16_mma_wide_range", (64, 32), (32, 64), scale=2.0**40)
# Transposed operands (rlx.dot_general contracting lhs's first and rhs's
# last dimension): the tile copies read them through their indexing maps.
def dot_general(name, a_shape, b_shape, dims, ref, out, dt=np.float32):
    a, b = (rng.uniform(-1, 1, sh).astype(dt) for sh in (a_shape, b_shape))
    s.case(name, f"%r = rlx.dot_general %a0, %a1 {dims} : ({type_of(a)}, "
           f"{type_of(b)}) -> {out}", [a, b], ref, out=out,
           tol=F32_DOT if dt == np.float32 else None)


dot_general("transposed_operands", (37, 90), (50, 37),
            "batching_dims = [] x [], contracting_dims = [0] x [1]",
            lambda x, y: x.t() @ y.t(), "tensor<90x50xf32>")
dot_general("transposed_batched", (3, 20, 70), (3, 33, 20),
            "batching_dims = [0] x [0], contracting_dims = [1] x [2]",
            lambda x, y: x.transpose(1, 2) @ y.transpose(1, 2),
            "tensor<3x70x33xf32>")
dot_general("transposed_f16_mma", (40, 64), (128, 40),
            "batching_dims = [] x [], contracting_dims = [0] x [1]",
            lambda x, y: x.t() @ y.t(), "tensor<64x128xf16>", np.float16)
# Convolutions as implicit GEMMs: C[b, f, (o...)] += W[f, (c, k...)] *
# X[b, (c, k...), (o...)], the input tile gathered through the convolution's
# indexing maps (strides, dilation; padding is a padded copy before the
# convolution); groups and depthwise channels are batch dimensions of the
# GEMM. f16 and bf16 with 64 filters and 64 output positions: tensor cores.


def conv(name, x_shape, w_shape, stride=None, padding=None, dilation=None,
         groups=1, dt=np.float32):
    """dt "bf16": bf16 values in f32 arrays, passed as bf16 arguments."""
    r = len(x_shape) - 2
    stride, dilation = stride or [1] * r, dilation or [1] * r
    padding = padding or [0] * (2 * r)
    bf16 = dt == "bf16"
    x, w = (bf16_round(rng.uniform(-1, 1, sh)) if bf16
            else rng.uniform(-1, 1, sh).astype(dt) for sh in (x_shape, w_shape))
    elem = "bf16" if bf16 else elem_of(x)
    types = [ttype(sh, elem) for sh in (x_shape, w_shape)]

    def ref(x, w):
        return spatial.conv(x, w, stride, padding, dilation, groups)
    out = ttype(ref(torch.zeros(x_shape, dtype=torch.float64),
                    torch.zeros(w_shape, dtype=torch.float64)).shape, elem)
    tol = {np.float32: F32_DOT, np.float16: (1e-3, 1e-3)}.get(dt, BF16_RESULT)
    s.case(name, f"%r = rlx.conv %a0, %a1 stride = {arr(stride)} padding = "
           f"{arr(padding)} dilation = {arr(dilation)} groups = {groups} : "
           f"({types[0]}, {types[1]}) -> {out}", [x, w], ref, out=out,
           tol=tol, args=types if bf16 else None)


conv("conv2d", (2, 8, 16, 16), (16, 8, 3, 3))
conv("conv2d_strided_padded_dilated", (2, 5, 17, 13), (70, 5, 3, 2),
     stride=[2, 1], padding=[1, 2, 0, 1], dilation=[2, 1])
conv("conv2d_groups", (1, 6, 9, 9), (4, 3, 3, 3), groups=2)
conv("conv2d_depthwise", (2, 4, 8, 8), (4, 1, 3, 3), groups=4)
conv("conv2d_1x1", (3, 16, 7, 7), (33, 16, 1, 1))
conv("conv1d", (2, 3, 50), (8, 3, 5), stride=[3])
conv("conv3d", (1, 2, 6, 7, 5), (3, 2, 2, 3, 2))
conv("conv2d_f16", (2, 8, 11, 11), (20, 8, 3, 3), dt=np.float16)
conv("conv2d_f16_mma", (2, 16, 10, 10), (64, 16, 3, 3), dt=np.float16)
conv("conv2d_bf16_mma", (2, 16, 10, 10), (64, 16, 3, 3), dt="bf16")
# An epilogue after the contraction (bias add) runs as its own kernel.
x, w, bias = (rng.uniform(-1, 1, sh).astype(np.float32)
              for sh in ((70, 30), (30, 40), (40,)))
s.case("bias_epilogue",
       f"%m = rlx.matmul %a0, %a1 : ({type_of(x)}, {type_of(w)}) -> "
       f"tensor<70x40xf32>\n"
       f"  %r = rlx.add %m, %a2 : (tensor<70x40xf32>, {type_of(bias)}) -> "
       f"tensor<70x40xf32>",
       [x, w, bias], lambda x, w, b: x @ w + b, out="tensor<70x40xf32>",
       tol=F32_DOT)
s.run()
