# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# rlx.custom_fn (RlxCustomOps.td): the body runs as written and
# --rlx-autodiff takes the user's backward, against torch.autograd.Function
# twins in float64: a straight-through rounding, a gradient clipped inside
# an identity, softplus with a backward through its output (two results,
# the backward reading them), an integer input, a custom_fn inside an
# rlx.scan body, `?` rows; the compiled forward matches the body's value,
# and fused = unfused.
import numpy as np
import torch

import rlx
from rlx_testing.checks import check, check_close, finish

rng = np.random.default_rng(1902)

TEXT = """
func.func @round_ste(%x: tensor<?x8xf64>, %w: tensor<8xf64>) -> tensor<f64>
    attributes {rlx.differentiate = array<i64: 0, 1>} {
  %m = rlx.mul %x, %w : (tensor<?x8xf64>, tensor<8xf64>) -> tensor<?x8xf64>
  %r = rlx.custom_fn (%m : tensor<?x8xf64>) -> (tensor<?x8xf64>) {
  ^bb0(%a: tensor<?x8xf64>):
    %q = rlx.round %a : tensor<?x8xf64>
    rlx.yield %q : tensor<?x8xf64>
  } backward {
  ^bb0(%a: tensor<?x8xf64>, %q: tensor<?x8xf64>, %dq: tensor<?x8xf64>):
    rlx.yield %dq : tensor<?x8xf64>
  }
  %s = rlx.mul %r, %r : (tensor<?x8xf64>, tensor<?x8xf64>) -> tensor<?x8xf64>
  %l = rlx.reduce sum %s axes = [0, 1] : tensor<?x8xf64> -> tensor<f64>
  return %l : tensor<f64>
}

func.func @clip_grad(%x: tensor<6xf64>) -> tensor<f64>
    attributes {rlx.differentiate = array<i64: 0>} {
  %r = rlx.custom_fn (%x : tensor<6xf64>) -> (tensor<6xf64>) {
  ^bb0(%a: tensor<6xf64>):
    rlx.yield %a : tensor<6xf64>
  } backward {
  ^bb0(%a: tensor<6xf64>, %y: tensor<6xf64>, %dy: tensor<6xf64>):
    %c = rlx.clamp %dy {max = 1.0 : f64, min = -1.0 : f64} : tensor<6xf64>
    rlx.yield %c : tensor<6xf64>
  }
  %c3 = rlx.constant dense<3.0> : tensor<f64>
  %p = rlx.pow %r, %c3 : (tensor<6xf64>, tensor<f64>) -> tensor<6xf64>
  %l = rlx.reduce sum %p axes = [0] : tensor<6xf64> -> tensor<f64>
  return %l : tensor<f64>
}

func.func @softplus2(%x: tensor<5xf64>, %i: tensor<5xi64>) -> tensor<f64>
    attributes {rlx.differentiate = array<i64: 0>} {
  %sp, %tot = rlx.custom_fn (%x, %i : tensor<5xf64>, tensor<5xi64>) -> (tensor<5xf64>, tensor<f64>) {
  ^bb0(%a: tensor<5xf64>, %j: tensor<5xi64>):
    %s = rlx.softplus %a : tensor<5xf64>
    %f = rlx.cast %j : tensor<5xi64> -> tensor<5xf64>
    %m = rlx.mul %s, %f : (tensor<5xf64>, tensor<5xf64>) -> tensor<5xf64>
    %t = rlx.reduce sum %m axes = [0] : tensor<5xf64> -> tensor<f64>
    rlx.yield %s, %t : tensor<5xf64>, tensor<f64>
  } backward {
  ^bb0(%a: tensor<5xf64>, %j: tensor<5xi64>, %s: tensor<5xf64>, %t: tensor<f64>, %ds: tensor<5xf64>, %dt: tensor<f64>):
    // d softplus = 1 - exp(-softplus(a)) = sigmoid(a), from the output.
    %n = rlx.neg %s : tensor<5xf64>
    %e = rlx.exp %n : tensor<5xf64>
    %one = rlx.constant dense<1.0> : tensor<f64>
    %sig = rlx.sub %one, %e : (tensor<f64>, tensor<5xf64>) -> tensor<5xf64>
    %f = rlx.cast %j : tensor<5xi64> -> tensor<5xf64>
    %w = rlx.mul %f, %dt : (tensor<5xf64>, tensor<f64>) -> tensor<5xf64>
    %g = rlx.add %ds, %w : (tensor<5xf64>, tensor<5xf64>) -> tensor<5xf64>
    %d = rlx.mul %g, %sig : (tensor<5xf64>, tensor<5xf64>) -> tensor<5xf64>
    rlx.yield %d, %j : tensor<5xf64>, tensor<5xi64>
  }
  %q = rlx.mul %sp, %sp : (tensor<5xf64>, tensor<5xf64>) -> tensor<5xf64>
  %a = rlx.reduce sum %q axes = [0] : tensor<5xf64> -> tensor<f64>
  %l = rlx.add %a, %tot : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %l : tensor<f64>
}

func.func @in_scan(%h0: tensor<4xf64>, %xs: tensor<?x4xf64>) -> tensor<f64>
    attributes {rlx.differentiate = array<i64: 0, 1>} {
  %h = rlx.scan (%h0 : tensor<4xf64>) over (%xs : tensor<?x4xf64>) -> (tensor<4xf64>) {
  ^bb0(%c: tensor<4xf64>, %x: tensor<4xf64>):
    %s = rlx.add %c, %x : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
    %r = rlx.custom_fn (%s : tensor<4xf64>) -> (tensor<4xf64>) {
    ^bb0(%a: tensor<4xf64>):
      %t = rlx.tanh %a : tensor<4xf64>
      rlx.yield %t : tensor<4xf64>
    } backward {
    ^bb0(%a: tensor<4xf64>, %t: tensor<4xf64>, %dt: tensor<4xf64>):
      %half = rlx.constant dense<0.5> : tensor<f64>
      %g = rlx.mul %dt, %half : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
      rlx.yield %g : tensor<4xf64>
    }
    rlx.yield %r : tensor<4xf64>
  }
  %l = rlx.reduce sum %h axes = [0] : tensor<4xf64> -> tensor<f64>
  return %l : tensor<f64>
}
"""
modules = {"fused": rlx.compile(TEXT),
           "unfused": rlx.compile(TEXT, fuse=False)}


class RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return torch.round(a)

    @staticmethod
    def backward(ctx, g):
        return g


class ClipGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a.clone()

    @staticmethod
    def backward(ctx, g):
        return g.clamp(-1, 1)


class HalfTanh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return torch.tanh(a)

    @staticmethod
    def backward(ctx, g):
        return 0.5 * g


def references():
    return {
        "round_ste": lambda x, w: (RoundSTE.apply(x * w) ** 2).sum(),
        "clip_grad": lambda x: (ClipGrad.apply(x) ** 3).sum(),
        "softplus2": lambda x, i: (torch.nn.functional.softplus(x) ** 2).sum()
        + (torch.nn.functional.softplus(x) * i).sum(),
        "in_scan": in_scan_reference,
    }


def in_scan_reference(h0, xs):
    h = h0
    for x in xs:
        h = HalfTanh.apply(h + x)
    return h.sum()


def check_case(label, name, args, wrt):
    tensors = [torch.tensor(a, requires_grad=i in wrt)
               for i, a in enumerate(args)]
    loss = references()[name](*tensors)
    loss.backward()
    wants = [loss.detach().numpy()] + [
        tensors[i].grad.numpy() if tensors[i].grad is not None
        else np.zeros(np.shape(args[i])) for i in wrt]
    for k, module in modules.items():
        value = module[name](*args)
        check(f"{label}_forward_{k}", np.allclose(value, wants[0], 1e-12,
                                                  1e-12),
              f"{value} vs {wants[0]}")
        got = module[name + "_grad"](*args)
        for what, g, want in zip(["loss"] + [f"d{i}" for i in wrt], got,
                                 wants):
            check_close(f"{label}_{what}_{k}", g, want, 1e-10, 1e-12)


for rows in (0, 1, 5):
    check_case(f"round_ste_{rows}", "round_ste",
               [rng.standard_normal((rows, 8)) * 3, rng.standard_normal(8)],
               [0, 1])
check_case("clip_grad", "clip_grad", [rng.standard_normal(6) * 2], [0])
check_case("softplus2", "softplus2",
           [rng.standard_normal(5) * 4, rng.integers(-2, 3, 5)], [0])
for steps in (6, 0):
    check_case(f"in_scan_{steps}", "in_scan",
               [rng.standard_normal(4), rng.standard_normal((steps, 4))],
               [0, 1])
finish()
