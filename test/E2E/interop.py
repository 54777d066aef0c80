# RUN: %oracle_python %s
# REQUIRES: torch
# Programs the fuzzer and a new user found broken (issue 13), against
# PyTorch in float64: equal ops whose results are all returned (CSE merges
# them into one buffer returned several times), a hand-written RNN loop
# (scf.for carrying tensors through rlx ops), scf.while and scf.if on values
# the program computes, and upstream arith/math ops on tensors mixed with
# rlx ops. Each case also runs folded (inputs as
# constants).
import numpy as np
import torch
from rlx_testing import Suite

rng = np.random.default_rng(13)
s = Suite(fold=True)
DOT = (1e-5, 1e-5)  # f32 dot products: see linear.py


def rand(*shape):
    return rng.uniform(-2, 2, shape).astype(np.float32)


# Equal ops, merged by CSE after rlx-export-abi: one buffer, three results.
s.case("equal_ops_returned", """
  %r0 = rlx.relu %a0 : tensor<3xf32>
  %r1 = rlx.exp %a0 : tensor<3xf32>
  %r2 = rlx.relu %a0 : tensor<3xf32>""",
       [rand(3)], lambda x: (torch.relu(x), torch.exp(x), torch.relu(x)),
       out=["tensor<3xf32>"] * 3)
s.case("equal_matmuls_returned", """
  %r0 = rlx.matmul %a0, %a1 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %r1 = rlx.matmul %a0, %a1 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>""",
       [rand(2, 3), rand(3, 4)], lambda x, w: (x @ w, x @ w),
       out=["tensor<2x4xf32>"] * 2, tol=DOT)


def rnn(x, w, u, b, steps):
    h = total = torch.zeros(x.shape[1], w.shape[1], dtype=torch.float64)
    for t in range(steps):
        h = torch.tanh(x[t] @ w + h @ u + b)
        total = total + h
    return h, total


# h <- tanh(x[t] W + h U + b), and the running sum of the states.
s.case("rnn_loop", """
  %zero = rlx.constant dense<0.0> : tensor<2x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r0, %r1 = scf.for %t = %c0 to %c5 step %c1
      iter_args(%h = %zero, %sum = %zero) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
    %xt = tensor.extract_slice %a0[%t, 0, 0] [1, 2, 3] [1, 1, 1]
        : tensor<5x2x3xf32> to tensor<2x3xf32>
    %xw = rlx.matmul %xt, %a1 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %hu = rlx.matmul %h, %a2 : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
    %z = rlx.add %xw, %hu : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %zb = rlx.add %z, %a3 : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    %hn = rlx.tanh %zb : tensor<2x4xf32>
    %sn = rlx.add %sum, %hn : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    scf.yield %hn, %sn : tensor<2x4xf32>, tensor<2x4xf32>
  }""",
       [rand(5, 2, 3), rand(3, 4) / 2, rand(4, 4) / 2, rand(4)],
       lambda x, w, u, b: rnn(x, w, u, b, 5),
       out=["tensor<2x4xf32>"] * 2, tol=DOT)
# The state updated by a softmax each step (a row op, lowered to a loop
# of its own inside the loop).
s.case("softmax_loop", """
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %a0) -> (tensor<3x5xf32>) {
    %m = rlx.mul %h, %a1 : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %n = rlx.softmax %m axis = 1 : tensor<3x5xf32>
    scf.yield %n : tensor<3x5xf32>
  }""",
       [rand(3, 5), rand(3, 5) * 2],
       lambda x, w: torch.softmax(torch.softmax(torch.softmax(
           x * w, 1) * w, 1) * w, 1),
       out="tensor<3x5xf32>")

# Carried tensors swapped each step (a <- b, b <- a + b): both are copied
# into their own buffers, the second from a saved a.
s.case("swap_loop", """
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r0, %r1 = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %a0, %b = %a1)
      -> (tensor<6xf32>, tensor<6xf32>) {
    %s = rlx.add %a, %b : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    scf.yield %b, %s : tensor<6xf32>, tensor<6xf32>
  }""",
       [rand(6), rand(6)],
       lambda a, b: (2 * a + 3 * b, 3 * a + 5 * b),
       out=["tensor<6xf32>"] * 2)


def double_until(x, limit):
    while x[1, 2] < limit:
        x = x + x
    return x


# A while loop whose condition reads an element the loop computes.
s.case("while_loop", """
  %r = scf.while (%h = %a0) : (tensor<3x4xf32>) -> tensor<3x4xf32> {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %v = tensor.extract %h[%c1, %c2] : tensor<3x4xf32>
    %limit = arith.constant 100.0 : f32
    %p = arith.cmpf olt, %v, %limit : f32
    scf.condition(%p) %h : tensor<3x4xf32>
  } do {
  ^bb0(%h: tensor<3x4xf32>):
    %n = rlx.add %h, %h : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
    scf.yield %n : tensor<3x4xf32>
  }""",
       [rng.uniform(0.5, 2, (3, 4)).astype(np.float32)],
       lambda x: double_until(x, 100.0), out="tensor<3x4xf32>")
# A conditional on a reduced value, taken both ways: one branch computes a
# new tensor, the other passes its argument through.
IF_POSITIVE = """
  %s = rlx.reduce sum %a0 axes = [0, 1] : tensor<3x4xf32> -> tensor<f32>
  %v = tensor.extract %s[] : tensor<f32>
  %zero = arith.constant 0.0 : f32
  %p = arith.cmpf ogt, %v, %zero : f32
  %r = scf.if %p -> (tensor<3x4xf32>) {
    %e = rlx.exp %a0 : tensor<3x4xf32>
    scf.yield %e : tensor<3x4xf32>
  } else {
    scf.yield %a0 : tensor<3x4xf32>
  }"""
for name, shift in [("if_then", 1), ("if_else", -1)]:
    s.case(name, IF_POSITIVE, [rand(3, 4) + shift * 3],
           lambda x: torch.exp(x) if x.sum() > 0 else x,
           out="tensor<3x4xf32>")


def arith_mix(x, y):
    e = torch.exp(torch.tanh(x + y) * x)
    return torch.where(e > y, e, y)


s.case("arith_math_mixed", """
  %s = arith.addf %a0, %a1 : tensor<4x5xf32>
  %t = rlx.tanh %s : tensor<4x5xf32>
  %m = arith.mulf %t, %a0 : tensor<4x5xf32>
  %e = math.exp %m : tensor<4x5xf32>
  %c = arith.cmpf ogt, %e, %a1 : tensor<4x5xf32>
  %r = arith.select %c, %e, %a1 : tensor<4x5xi1>, tensor<4x5xf32>""",
       [rand(4, 5), rand(4, 5)], arith_mix, out="tensor<4x5xf32>")
s.case("arith_integer_and_cast", """
  %s = arith.addi %a0, %a1 : tensor<6xi32>
  %m = rlx.mul %s, %a1 : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  %r0 = arith.sitofp %m : tensor<6xi32> to tensor<6xf32>
  %h = arith.truncf %a2 : tensor<6xf32> to tensor<6xf16>
  %g = rlx.sigmoid %h : tensor<6xf16>
  %r1 = arith.extf %g : tensor<6xf16> to tensor<6xf32>""",
       [rng.integers(-50, 50, 6).astype(np.int32),
        rng.integers(-50, 50, 6).astype(np.int32), rand(6)],
       lambda a, b, x: ((a + b) * b,
                        torch.sigmoid(x.half().double()).half()),
       out=["tensor<6xf32>", "tensor<6xf32>"], tol="f16")

s.run()
