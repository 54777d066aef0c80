# RUN: %oracle_python %s
# REQUIRES: torch
# reshape (to and from rank 0, up to rank 6), transpose, expand, concat,
# narrow, slice (positive and negative steps) and constant. All exact.
import numpy as np
import torch
from rlx_testing import Suite, elem_of, type_of, ttype

rng = np.random.default_rng(5)
s = Suite(fold=True)


def case(name, op, ins, out_shape, ref, attrs=""):
    out = ttype(out_shape, elem_of(ins[0]))
    args = ", ".join(f"%a{i}" for i in range(len(ins)))
    types = (f"({', '.join(type_of(x) for x in ins)})" if op == "concat"
             else type_of(ins[0]))
    s.case(name, f"%r = rlx.{op} {args}{attrs} : {types} -> {out}", ins, ref,
           out=out, tol="exact")


x = rng.standard_normal((2, 3, 4)).astype(np.float32)
xi = np.arange(24, dtype=np.int64).reshape(2, 3, 4)
one = np.array([[7.5]], np.float32)
# reshape
for name, src, shape in (("reshape_flat", x, (24,)), ("reshape_2d", x, (6, 4)),
                         ("reshape_rank6", x, (2, 1, 3, 1, 2, 2)),
                         ("reshape_to_rank0", one, ()),
                         ("reshape_from_rank0", np.array(3.0, np.float32),
                          (1, 1, 1)),
                         ("reshape_i64", xi, (4, 6)),
                         ("reshape_i1", x > 0, (3, 8))):
    case(name, "reshape", [src], shape,
         lambda t, shape=shape: t.reshape(shape))
# transpose: result dim i is input dim perm[i]
x5 = rng.standard_normal((2, 3, 1, 4, 5)).astype(np.float32)
for name, src, perm in (("transpose_2d", x[0], [1, 0]),
                        ("transpose_3d", x, [2, 0, 1]),
                        ("transpose_3d_b", x, [1, 2, 0]),
                        ("transpose_identity", x, [0, 1, 2]),
                        ("transpose_rank5", x5, [4, 1, 3, 0, 2]),
                        ("transpose_i64", xi, [2, 1, 0])):
    case(name, "transpose", [src], [src.shape[p] for p in perm],
         lambda t, perm=perm: t.permute(perm), attrs=f" {perm}")
# expand: new leading dims, size-1 dims repeated
for name, src, shape in (("expand_leading", x[0, 0], (3, 2, 4)),
                         ("expand_size1", x[:, :1, :], (2, 5, 4)),
                         ("expand_both", x[0, :, :1], (2, 3, 3, 6)),
                         ("expand_rank0", np.array(2.5, np.float32), (2, 3)),
                         ("expand_i1", np.array([[True], [False]]), (2, 3))):
    case(name, "expand", [src], shape,
         lambda t, shape=shape: t.expand(shape))
# concat
a, b, c = (rng.standard_normal((2, n, 3)).astype(np.float32) for n in (1, 4, 2))
case("concat_3_inputs_axis1", "concat", [a, b, c], (2, 7, 3),
     lambda *t: torch.cat(t, 1), attrs=" axis = 1")
case("concat_neg_axis", "concat", [a[:, :, :1], b[:, :1, :], a], (2, 1, 7),
     lambda *t: torch.cat(t, -1), attrs=" axis = -1")
case("concat_axis0_i64", "concat", [xi, xi[:1], xi], (5, 3, 4),
     lambda *t: torch.cat(t, 0), attrs=" axis = 0")
case("concat_single", "concat", [x], x.shape, lambda t: t, attrs=" axis = 2")
# narrow: [start, start + length) of axis
for name, src, axis, start, length in (("narrow_axis0", x, 0, 1, 1),
                                       ("narrow_axis2", x, 2, 1, 2),
                                       ("narrow_neg_axis", x, -2, 0, 3),
                                       ("narrow_i64", xi, 1, 2, 1)):
    shape = list(src.shape)
    shape[axis] = length
    case(name, "narrow", [src], shape,
         lambda t, a=axis, s0=start, n=length: t.narrow(a, s0, n),
         attrs=f" axis = {axis}, start = {start}, length = {length}")
# slice: element j reads start + j * step
xs = rng.standard_normal((3, 10)).astype(np.float32)
for name, src, axis, start, length, step in (
        ("slice_step2", xs, 1, 1, 5, 2), ("slice_step3", xs, 1, 0, 4, 3),
        ("slice_reverse", xs, 1, 9, 10, -1),
        ("slice_step_neg3", xs, 1, 8, 3, -3),
        ("slice_axis0_reverse", xs, 0, 2, 3, -1),
        ("slice_neg_axis", xs, -1, 2, 3, 1), ("slice_one", xs, 1, 7, 1, -2),
        ("slice_rank5", x5, 3, 3, 2, -2), ("slice_i64", xi, 2, 3, 2, -3)):
    idx = torch.tensor([start + j * step for j in range(length)])
    shape = list(src.shape)
    shape[axis] = length
    case(name, "slice", [src], shape,
         lambda t, a=axis, idx=idx: t.index_select(a % t.dim(), idx),
         attrs=f" axis = {axis}, start = {start}, length = {length}, "
               f"step = {step}")

# constant: dense, splat, integer, bool, rank 0; also added to an input
CONSTS = (("const_f32", "dense<[[1.5, -2.0], [0.0, 3.25]]> : tensor<2x2xf32>",
           np.array([[1.5, -2.0], [0.0, 3.25]], np.float32)),
          ("const_splat", "dense<0.5> : tensor<2x3xf32>",
           np.full((2, 3), 0.5, np.float32)),
          ("const_i32", "dense<[1, -2, 2147483647]> : tensor<3xi32>",
           np.array([1, -2, 2**31 - 1], np.int32)),
          ("const_i1", "dense<[true, false]> : tensor<2xi1>",
           np.array([True, False])),
          ("const_rank0_f64", "dense<0.1> : tensor<f64>",
           np.array(0.1, np.float64)))
for name, attr, want in CONSTS:
    s.case(name, f"%r = rlx.constant {attr}", [], lambda w=want: w,
           out=type_of(want), tol="exact")
s.case("const_plus_input", "%c = rlx.constant dense<[1.0, 2.0, 3.0]> : "
       "tensor<3xf32>\n  %r = rlx.add %a0, %c : (tensor<2x3xf32>, "
       "tensor<3xf32>) -> tensor<2x3xf32>", [x[0, :2, :3]],
       lambda t: t + torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64),
       out="tensor<2x3xf32>", tol="exact")
s.run()
