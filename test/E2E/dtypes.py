# RUN: %oracle_python %s
# REQUIRES: torch
# A representative op of each family (unary, binary, compare/where, cast,
# matmul, reduce, softmax, data movement) in f16, bf16 and f64, and on
# size-1 dims, rank 0 and rank 5+. bf16 cannot cross .npy: those functions
# cast f32 -> bf16, compute, and cast back to f32.
import math

import numpy as np
import torch
import torch.nn.functional as F
from rlx_testing import Suite, type_of, ttype

rng = np.random.default_rng(6)
s = Suite(fold=True)


def bf16_round(x):
    """f32 -> nearest-even bf16, kept in an f32 array."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
    out = bits.view(np.float32)
    return np.where(np.isnan(x), np.float32("nan"), out)


def rand(shape, dt=np.float32, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, shape).astype(dt)


# Ops as (name, body template, ref, input shapes, output shape). In the body
# {A0}, {A1}, ... are the argument types and {R} the result type; %x0, %x1
# are the arguments in the element type under test.
OPS = [
    ("gelu", "%y = rlx.gelu %x0 : {R}", F.gelu, [(4, 8)], (4, 8)),
    ("exp", "%y = rlx.exp %x0 : {R}", torch.exp, [(4, 8)], (4, 8)),
    ("add_bcast", "%y = rlx.add %x0, %x1 : ({A0}, {A1}) -> {R}", torch.add,
     [(2, 1, 4), (3, 1)], (2, 3, 4)),
    ("div", "%y = rlx.div %x0, %x1 : ({A0}, {A1}) -> {R}", torch.div,
     [(3, 5), (3, 5)], (3, 5)),
    ("where_lt", "%c = rlx.lt %x0, %x1 : ({A0}, {A1}) -> tensor<3x5xi1>\n"
     "  %y = rlx.where %c, %x0, %x1 : (tensor<3x5xi1>, {A0}, {A1}) -> {R}",
     torch.minimum, [(3, 5), (3, 5)], (3, 5)),
    ("clamp", "%y = rlx.clamp %x0 {{min = -0.5 : f64, max = 1.0 : f64}} : {R}",
     lambda x: torch.clamp(x, -0.5, 1.0), [(3, 5)], (3, 5)),
    ("fma", "%y = rlx.fma %x0, %x1, %x2 : ({A0}, {A1}, {A2}) -> {R}",
     lambda a, b, c: a * b + c, [(3, 5), (5,), (3, 1)], (3, 5)),
    ("matmul", "%y = rlx.matmul %x0, %x1 : ({A0}, {A1}) -> {R}", torch.matmul,
     [(2, 3, 16), (16, 5)], (2, 3, 5)),
    ("reduce_sum", "%y = rlx.reduce sum %x0 axes = [1] : {A0} -> {R}",
     lambda x: x.sum(1), [(3, 32)], (3,)),
    ("reduce_mean_keep", "%y = rlx.reduce mean %x0 axes = [0, 2] keep_dim : "
     "{A0} -> {R}", lambda x: x.mean((0, 2), keepdim=True), [(3, 4, 5)],
     (1, 4, 1)),
    ("reduce_max", "%y = rlx.reduce max %x0 axes = [-1] : {A0} -> {R}",
     lambda x: x.amax(-1), [(3, 7)], (3,)),
    ("softmax", "%y = rlx.softmax %x0 axis = 1 : {R}",
     lambda x: torch.softmax(x, 1), [(3, 6)], (3, 6)),
    ("log_softmax", "%y = rlx.log_softmax %x0 axis = -1 : {R}",
     lambda x: torch.log_softmax(x, -1), [(3, 6)], (3, 6)),
    ("transpose", "%y = rlx.transpose %x0 [1, 0] : {A0} -> {R}",
     lambda x: x.T, [(3, 5)], (5, 3)),
    ("concat", "%y = rlx.concat %x0, %x1 axis = 0 : ({A0}, {A1}) -> {R}",
     lambda a, b: torch.cat([a, b]), [(2, 3), (1, 3)], (3, 3)),
    ("slice_rev", "%y = rlx.slice %x0 axis = 1, start = 4, length = 3, "
     "step = -2 : {A0} -> {R}", lambda x: x[:, [4, 2, 0]], [(2, 5)], (2, 3)),
]
EXACT = ("where_lt", "clamp", "reduce_max", "transpose", "concat", "slice_rev")

for op, body, ref, shapes, out_shape in OPS:
    # f16 and f64: arguments and result in that type.
    for elem, dt in (("f16", np.float16), ("f64", np.float64)):
        ins = [rand(sh, dt) for sh in shapes]
        types = {f"A{i}": type_of(x) for i, x in enumerate(ins)}
        text = body.replace("%x", "%a").replace("%y", "%r").format(
            R=ttype(out_shape, elem), **types)
        s.case(f"{op}_{elem}", text, ins, ref, out=ttype(out_shape, elem),
               tol="exact" if op in EXACT else None)
    # bf16: f32 arguments (exact in bf16) cast in, the result cast out.
    ins = [bf16_round(rand(sh)) for sh in shapes]
    types = {f"A{i}": ttype(x.shape, "bf16") for i, x in enumerate(ins)}
    casts = "\n  ".join(f"%x{i} = rlx.cast %a{i} : {type_of(x)} -> "
                        f"{types[f'A{i}']}" for i, x in enumerate(ins))
    R = ttype(out_shape, "bf16")
    text = (f"{casts}\n  {body.format(R=R, **types)}\n"
            f"  %r = rlx.cast %y : {R} -> {ttype(out_shape, 'f32')}")
    s.case(f"{op}_bf16", text, ins, ref, out=ttype(out_shape, "f32"),
           tol="exact" if op in EXACT else "bf16")

# bf16 rounding of the cast itself (nearest even, ties included).
ties = np.array([1.0, 1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-8 + 2**-20,
                 -(1 + 2**-8), 3.3e38, 1e-39, float("inf"), float("nan")],
                np.float32)
ties = np.concatenate([ties, rand(7, lo=-100, hi=100)])
s.case("cast_f32_bf16_round_trip",
       "%b = rlx.cast %a0 : tensor<16xf32> -> tensor<16xbf16>\n"
       "  %r = rlx.cast %b : tensor<16xbf16> -> tensor<16xf32>", [ties],
       lambda t: bf16_round(t.numpy().astype(np.float32)), out="tensor<16xf32>",
       tol="exact")
# f64 -> bf16 rounds once, from the exact value (not through f32).
def bf16_from_f64(v):
    if not math.isfinite(v) or v == 0:
        return v
    m, e = math.frexp(v)  # 8 significant bits, ties to even
    r = math.ldexp(round(math.ldexp(m, 8)), e - 8)
    return r if abs(r) <= 2.0**128 - 2.0**120 else math.copysign(math.inf, v)


f64s = np.array([1 + 2**-8 + 2**-30, 1 + 2**-8, -(1 + 3 * 2**-8 - 2**-40),
                 3.3e38, 3.5e38, 1e-30, 0.1, -7.3, float("inf"), float("nan")])
s.case("cast_f64_bf16_once",
       "%b = rlx.cast %a0 : tensor<10xf64> -> tensor<10xbf16>\n"
       "  %r = rlx.cast %b : tensor<10xbf16> -> tensor<10xf32>", [f64s],
       lambda t: np.array([bf16_from_f64(v) for v in t.tolist()], np.float32),
       out="tensor<10xf32>", tol="exact")
# bf16 arguments and result directly: rlx-run feeds f32 .npy to bf16 inputs
# and saves bf16 outputs as f32.
xb, yb = bf16_round(rand((3, 4))), bf16_round(rand((4,)))
s.case("mul_bf16_args", "%r = rlx.mul %a0, %a1 : (tensor<3x4xbf16>, "
       "tensor<4xbf16>) -> tensor<3x4xbf16>", [xb, yb], torch.mul,
       out="tensor<3x4xbf16>", tol="bf16",
       args=["tensor<3x4xbf16>", "tensor<4xbf16>"])

# Long f16 reductions must accumulate in f32: f16 stalls at 2048 + 2 = 2048.
ones = np.ones((2, 4096), np.float16)
s.case("reduce_sum_f16_long", "%r = rlx.reduce sum %a0 axes = [1] : "
       "tensor<2x4096xf16> -> tensor<2xf16>", [ones], lambda t: t.sum(1),
       out="tensor<2xf16>")
s.case("reduce_mean_f16_long", "%r = rlx.reduce mean %a0 axes = [-1] : "
       "tensor<2x4096xf16> -> tensor<2xf16>", [ones], lambda t: t.mean(1),
       out="tensor<2xf16>")

# Shapes: size-1 dims, rank 0, rank 5+.
def case(name, body, ins, ref, out, tol=None):
    s.case(name, body.format(*[type_of(x) for x in ins], R=out), ins, ref,
           out=out, tol=tol)


x0, y0 = rand(()), rand(())
ones = rand((1, 1, 1))
r6 = rand((2, 1, 3, 1, 2, 1))
r7 = rand((2, 3, 1, 2, 2, 1, 3))
case("exp_size1", "%r = rlx.exp %a0 : {0}", [ones], torch.exp,
     "tensor<1x1x1xf32>")
case("exp_rank0", "%r = rlx.exp %a0 : {0}", [x0], torch.exp, "tensor<f32>")
case("exp_rank6", "%r = rlx.exp %a0 : {0}", [r6], torch.exp, type_of(r6))
case("add_size1_bcast", "%r = rlx.add %a0, %a1 : ({0}, {1}) -> {R}",
     [rand((1, 5, 1)), rand((4, 1, 1))], torch.add, "tensor<4x5x1xf32>")
case("sub_rank0", "%r = rlx.sub %a0, %a1 : ({0}, {1}) -> {R}", [x0, y0],
     torch.sub, "tensor<f32>")
case("mul_rank6_bcast", "%r = rlx.mul %a0, %a1 : ({0}, {1}) -> {R}",
     [r6, rand((1, 2, 1, 2, 1, 3))], torch.mul, "tensor<2x2x3x2x2x3xf32>")
case("gt_rank0_rank6", "%r = rlx.gt %a0, %a1 : ({0}, {1}) -> {R}", [x0, r6],
     torch.gt, ttype(r6.shape, "i1"))
case("where_rank6", "%r = rlx.where %a0, %a1, %a2 : ({0}, {1}, {2}) -> {R}",
     [r6 > 0, x0, r7[:, :, :, :, :1, :, :1].reshape(2, 3, 1, 2, 1, 1)],
     torch.where, "tensor<2x3x3x2x2x1xf32>", tol="exact")
case("cast_rank0", "%r = rlx.cast %a0 : {0} -> {R}",
     [np.array(-3.7, np.float32)], lambda t: torch.tensor(-3), "tensor<i32>")
case("matmul_size1_batch", "%r = rlx.matmul %a0, %a1 : ({0}, {1}) -> {R}",
     [rand((1, 1, 3)), rand((1, 3, 1))], torch.matmul, "tensor<1x1x1xf32>")
case("matmul_rank5", "%r = rlx.matmul %a0, %a1 : ({0}, {1}) -> {R}",
     [rand((2, 1, 2, 3, 4)), rand((3, 1, 4, 2))], torch.matmul,
     "tensor<2x3x2x3x2xf32>")
case("reduce_sum_rank7",
     "%r = rlx.reduce sum %a0 axes = [0, 3, 6] : {0} -> {R}", [r7],
     lambda t: t.sum((0, 3, 6)), "tensor<3x1x2x1xf32>")
case("reduce_size1_axis", "%r = rlx.reduce max %a0 axes = [1] : {0} -> {R}",
     [ones], lambda t: t.amax(1), "tensor<1x1xf32>", tol="exact")
case("softmax_size1_axis", "%r = rlx.softmax %a0 axis = 1 : {0}", [ones],
     lambda t: torch.softmax(t, 1), "tensor<1x1x1xf32>")
case("log_softmax_rank6", "%r = rlx.log_softmax %a0 axis = 2 : {0}", [r6],
     lambda t: torch.log_softmax(t, 2), type_of(r6))
case("transpose_rank7",
     "%r = rlx.transpose %a0 [6, 0, 5, 1, 4, 2, 3] : {0} -> {R}", [r7],
     lambda t: t.permute(6, 0, 5, 1, 4, 2, 3),
     "tensor<3x2x1x3x2x1x2xf32>", tol="exact")
case("reshape_rank0_to_rank5", "%r = rlx.reshape %a0 : {0} -> {R}", [x0],
     lambda t: t.reshape(1, 1, 1, 1, 1), "tensor<1x1x1x1x1xf32>", tol="exact")
s.run()
