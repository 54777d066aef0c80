# RUN: %oracle_python %s
# REQUIRES: torch
# Ops composed the way models use them, to exercise fusion and
# bufferization: chains through data movement, several results (an
# argument returned as is, one value returned twice), zero-size tensors,
# larger shapes.
import numpy as np
import torch
import torch.nn.functional as F
from rlx_testing import Suite

rng = np.random.default_rng(7)
s = Suite(fold=True)
DOT = (1e-5, 1e-5)  # f32 dot products and sums: see linear.py


def rand(*shape):
    return rng.uniform(-2, 2, shape).astype(np.float32)


s.case("transpose_add_relu", """
  %t = rlx.transpose %a0 [1, 0] : tensor<3x4xf32> -> tensor<4x3xf32>
  %s = rlx.add %t, %a1 : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %r = rlx.relu %s : tensor<4x3xf32>""",
       [rand(3, 4), rand(3)], lambda x, b: torch.relu(x.T + b),
       out="tensor<4x3xf32>")
s.case("reverse_mul_sum", """
  %v = rlx.slice %a0 axis = 1, start = 5, length = 6, step = -1
      : tensor<2x6xf32> -> tensor<2x6xf32>
  %m = rlx.mul %v, %a0 : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
  %r = rlx.reduce sum %m axes = [1] : tensor<2x6xf32> -> tensor<2xf32>""",
       [rand(2, 6)], lambda x: (x.flip(1) * x).sum(1), out="tensor<2xf32>",
       tol=DOT)
s.case("expand_sub_exp", """
  %e = rlx.expand %a0 : tensor<3x1xf32> -> tensor<3x5xf32>
  %d = rlx.sub %a1, %e : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %r = rlx.exp %d : tensor<3x5xf32>""",
       [rand(3, 1), rand(3, 5)], lambda m, x: torch.exp(x - m),
       out="tensor<3x5xf32>")
s.case("concat_slices_swap", """
  %h0 = rlx.narrow %a0 axis = 1, start = 0, length = 2
      : tensor<2x4xf32> -> tensor<2x2xf32>
  %h1 = rlx.narrow %a0 axis = 1, start = 2, length = 2
      : tensor<2x4xf32> -> tensor<2x2xf32>
  %n = rlx.neg %h1 : tensor<2x2xf32>
  %r = rlx.concat %n, %h0 axis = -1
      : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x4xf32>""",
       [rand(2, 4)], lambda x: torch.cat([-x[:, 2:], x[:, :2]], -1),
       out="tensor<2x4xf32>", tol="exact")
s.case("matmul_bias_gelu_softmax", """
  %m = rlx.matmul %a0, %a1
      : (tensor<2x4x8xf32>, tensor<8x6xf32>) -> tensor<2x4x6xf32>
  %b = rlx.add %m, %a2 : (tensor<2x4x6xf32>, tensor<6xf32>) -> tensor<2x4x6xf32>
  %g = rlx.gelu_approx %b : tensor<2x4x6xf32>
  %r = rlx.softmax %g axis = 1 : tensor<2x4x6xf32>""",
       [rand(2, 4, 8), rand(8, 6), rand(6)],
       lambda x, w, b: torch.softmax(F.gelu(x @ w + b, approximate="tanh"), 1),
       out="tensor<2x4x6xf32>", tol=DOT)
s.case("linear_transposed_weight", """
  %wt = rlx.transpose %a1 [1, 0] : tensor<6x8xf32> -> tensor<8x6xf32>
  %m = rlx.matmul %a0, %wt : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %r = rlx.reduce max %m axes = [0] keep_dim : tensor<4x6xf32> -> tensor<1x6xf32>""",
       [rand(4, 8), rand(6, 8)], lambda x, w: (x @ w.T).amax(0, keepdim=True),
       out="tensor<1x6xf32>", tol=DOT)
s.case("matmul_of_slices", """
  %a = rlx.slice %a0 axis = 0, start = 5, length = 3, step = -2
      : tensor<6x4xf32> -> tensor<3x4xf32>
  %b = rlx.narrow %a0 axis = 0, start = 0, length = 4
      : tensor<6x4xf32> -> tensor<4x4xf32>
  %e = rlx.expand %b : tensor<4x4xf32> -> tensor<2x4x4xf32>
  %r = rlx.matmul %a, %e
      : (tensor<3x4xf32>, tensor<2x4x4xf32>) -> tensor<2x3x4xf32>""",
       [rand(6, 4)], lambda x: (x[[5, 3, 1]] @ x[:4]).expand(2, 3, 4),
       out="tensor<2x3x4xf32>", tol=DOT)
s.case("layer_norm_by_hand", """
  %mu = rlx.reduce mean %a0 axes = [-1] keep_dim
      : tensor<4x16xf32> -> tensor<4x1xf32>
  %c = rlx.sub %a0, %mu : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
  %sq = rlx.mul %c, %c : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %v = rlx.reduce mean %sq axes = [1] keep_dim
      : tensor<4x16xf32> -> tensor<4x1xf32>
  %eps = rlx.constant dense<1.0e-5> : tensor<f32>
  %ve = rlx.add %v, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %is = rlx.rsqrt %ve : tensor<4x1xf32>
  %r = rlx.mul %c, %is : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>""",
       [rand(4, 16)], lambda x: F.layer_norm(x, (16,), eps=1e-5),
       out="tensor<4x16xf32>", tol=DOT)

# Several results: one value twice; an argument, a constant, both twice;
# an argument through a reshape round trip (folds to the argument).
s.case("results_twice", """
  %t = rlx.tanh %a0 : tensor<3xf32>
  return %t, %t : tensor<3xf32>, tensor<3xf32>""",
       [rand(3)], lambda x: (torch.tanh(x), torch.tanh(x)),
       out=["tensor<3xf32>", "tensor<3xf32>"])
I32_12 = torch.tensor([1, 2])
s.case("results_arg_const_twice", """
  %c = rlx.constant dense<[1, 2]> : tensor<2xi32>
  %t = rlx.tanh %a0 : tensor<3xf32>
  return %a0, %c, %t, %c, %a0 : tensor<3xf32>, tensor<2xi32>, tensor<3xf32>,
                                tensor<2xi32>, tensor<3xf32>""",
       [rand(3)], lambda x: (x, I32_12, torch.tanh(x), I32_12, x),
       out=["tensor<3xf32>", "tensor<2xi32>", "tensor<3xf32>",
            "tensor<2xi32>", "tensor<3xf32>"])
s.case("results_arg_direct", """
  %r1 = rlx.reshape %a0 : tensor<2x3xf32> -> tensor<3x2xf32>
  %r0 = rlx.reshape %r1 : tensor<3x2xf32> -> tensor<2x3xf32>""",
       [rand(2, 3)], lambda x: (x, x.reshape(3, 2)),
       out=["tensor<2x3xf32>", "tensor<3x2xf32>"], tol="exact")

# Zero-size tensors: nothing to compute, and a K = 0 matmul is all zeros.
s.case("exp_zero_size", "%r = rlx.exp %a0 : tensor<0x4xf32>",
       [np.zeros((0, 4), np.float32)], torch.exp, out="tensor<0x4xf32>")
s.case("matmul_k0", """
  %r = rlx.matmul %a0, %a1 : (tensor<2x0xf32>, tensor<0x3xf32>) -> tensor<2x3xf32>""",
       [np.zeros((2, 0), np.float32), np.zeros((0, 3), np.float32)],
       torch.matmul, out="tensor<2x3xf32>", tol="exact")
s.case("concat_empty_part", """
  %r = rlx.concat %a0, %a1 axis = 0
      : (tensor<0x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>""",
       [np.zeros((0, 3), np.float32), rand(2, 3)],
       lambda a, b: torch.cat([a, b]), out="tensor<2x3xf32>", tol="exact")

# Larger shapes (loops past any small-size special case).
s.case("matmul_large", """
  %r = rlx.matmul %a0, %a1
      : (tensor<64x256xf32>, tensor<256x96xf32>) -> tensor<64x96xf32>""",
       [rand(64, 256) / 2, rand(256, 96) / 2], torch.matmul,
       out="tensor<64x96xf32>", tol=(1e-5, 3e-5))
s.case("softmax_long_axis",
       "%r = rlx.softmax %a0 axis = 1 : tensor<3x4099xf32>",
       [rand(3, 4099) * 8], lambda x: torch.softmax(x, 1),
       out="tensor<3x4099xf32>", tol=(1e-5, 1e-9))  # see reduction.py
s.case("sum_large", """
  %r = rlx.reduce sum %a0 axes = [0, 2] : tensor<33x17x129xf32> -> tensor<17xf32>""",
       [rand(33, 17, 129)], lambda x: x.sum((0, 2)), out="tensor<17xf32>",
       # 4257 terms: the partial sums reach ~100 and their roundings
       # (half an ulp, 4e-6) random-walk to a few 1e-4.
       tol=(1e-5, 1e-3))
s.case("transpose_large", """
  %r = rlx.transpose %a0 [2, 0, 1] : tensor<31x65x33xf32> -> tensor<33x31x65xf32>""",
       [rand(31, 65, 33)], lambda x: x.permute(2, 0, 1),
       out="tensor<33x31x65xf32>", tol="exact")
s.run()
