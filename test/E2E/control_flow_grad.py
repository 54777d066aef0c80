# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# Gradients through rlx.if and rlx.scan (--rlx-autodiff, lib/Transforms/
# Autodiff.cpp), float64 against torch.autograd and central differences of
# the compiled forward: both branches of an if (a softmax in one; `?` rows,
# zero too), branch-dependent sizes, a tanh RNN over a `?` batch and
# length (zero steps too) with gradients of the initial state, the inputs
# and the weights the body reads, a reverse scan along the last axis with
# a carried value, power iteration with a length and no xs, an if inside a
# scan, a scan inside an if, a scan inside a scan, a rank-0 carried value
# scanned along axis 1 (saved with a unit dimension). Then f32 against
# float64, fused against unfused, and 1 vs 2 threads bit for bit.
import numpy as np
import torch

import rlx
from rlx_testing.checks import check, check_close, finish

rng = np.random.default_rng(190)

TEXT = """
func.func @branch(%p: tensor<i1>, %x: tensor<?x8xf64>, %w: tensor<8xf64>) -> tensor<f64>
    attributes {rlx.differentiate = array<i64: 1, 2>} {
  %r = rlx.if %p -> (tensor<?x8xf64>) {
    %a = rlx.mul %x, %w : (tensor<?x8xf64>, tensor<8xf64>) -> tensor<?x8xf64>
    %s = rlx.softmax %a axis = -1 : tensor<?x8xf64>
    %t = rlx.mul %s, %x : (tensor<?x8xf64>, tensor<?x8xf64>) -> tensor<?x8xf64>
    rlx.yield %t : tensor<?x8xf64>
  } else {
    %n = rlx.sin %x : tensor<?x8xf64>
    %m = rlx.mul %n, %w : (tensor<?x8xf64>, tensor<8xf64>) -> tensor<?x8xf64>
    rlx.yield %m : tensor<?x8xf64>
  }
  %q = rlx.mul %r, %r : (tensor<?x8xf64>, tensor<?x8xf64>) -> tensor<?x8xf64>
  %l = rlx.reduce sum %q axes = [0, 1] : tensor<?x8xf64> -> tensor<f64>
  return %l : tensor<f64>
}

func.func @branch_sizes(%p: tensor<i1>, %x: tensor<6xf64>) -> tensor<f64>
    attributes {rlx.differentiate = array<i64: 1>} {
  %r = rlx.if %p -> (tensor<?xf64>) {
    %e = rlx.exp %x : tensor<6xf64>
    rlx.yield %e : tensor<6xf64>
  } else {
    %s = rlx.narrow %x axis = 0, start = 1, length = 2 : tensor<6xf64> -> tensor<2xf64>
    rlx.yield %s : tensor<2xf64>
  }
  %q = rlx.mul %r, %r : (tensor<?xf64>, tensor<?xf64>) -> tensor<?xf64>
  %t = rlx.reduce sum %q axes = [0] : tensor<?xf64> -> tensor<f64>
  return %t : tensor<f64>
}

func.func @rnn(%h0: tensor<?x8xf64>, %xs: tensor<?x?x3xf64>, %wx: tensor<3x8xf64>, %wh: tensor<8x8xf64>, %b: tensor<8xf64>) -> tensor<f64>
    attributes {rlx.differentiate = array<i64: 0, 1, 2, 3, 4>} {
  %h, %hs = rlx.scan (%h0 : tensor<?x8xf64>) over (%xs : tensor<?x?x3xf64>) -> (tensor<?x8xf64>, tensor<?x?x8xf64>) {
  ^bb0(%c: tensor<?x8xf64>, %x: tensor<?x3xf64>):
    %p = rlx.matmul %x, %wx : (tensor<?x3xf64>, tensor<3x8xf64>) -> tensor<?x8xf64>
    %q = rlx.matmul %c, %wh : (tensor<?x8xf64>, tensor<8x8xf64>) -> tensor<?x8xf64>
    %s = rlx.add %p, %q : (tensor<?x8xf64>, tensor<?x8xf64>) -> tensor<?x8xf64>
    %t = rlx.add %s, %b : (tensor<?x8xf64>, tensor<8xf64>) -> tensor<?x8xf64>
    %n = rlx.tanh %t : tensor<?x8xf64>
    rlx.yield %n, %n : tensor<?x8xf64>, tensor<?x8xf64>
  }
  %sq = rlx.mul %hs, %hs : (tensor<?x?x8xf64>, tensor<?x?x8xf64>) -> tensor<?x?x8xf64>
  %a = rlx.reduce sum %sq axes = [0, 1, 2] : tensor<?x?x8xf64> -> tensor<f64>
  %f = rlx.reduce sum %h axes = [0, 1] : tensor<?x8xf64> -> tensor<f64>
  %l = rlx.add %a, %f : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %l : tensor<f64>
}

func.func @rnn32(%h0: tensor<?x8xf32>, %xs: tensor<?x?x3xf32>, %wx: tensor<3x8xf32>, %wh: tensor<8x8xf32>, %b: tensor<8xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0, 1, 2, 3, 4>} {
  %h, %hs = rlx.scan (%h0 : tensor<?x8xf32>) over (%xs : tensor<?x?x3xf32>) -> (tensor<?x8xf32>, tensor<?x?x8xf32>) {
  ^bb0(%c: tensor<?x8xf32>, %x: tensor<?x3xf32>):
    %p = rlx.matmul %x, %wx : (tensor<?x3xf32>, tensor<3x8xf32>) -> tensor<?x8xf32>
    %q = rlx.matmul %c, %wh : (tensor<?x8xf32>, tensor<8x8xf32>) -> tensor<?x8xf32>
    %s = rlx.add %p, %q : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    %t = rlx.add %s, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
    %n = rlx.tanh %t : tensor<?x8xf32>
    rlx.yield %n, %n : tensor<?x8xf32>, tensor<?x8xf32>
  }
  %sq = rlx.mul %hs, %hs : (tensor<?x?x8xf32>, tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  %a = rlx.reduce sum %sq axes = [0, 1, 2] : tensor<?x?x8xf32> -> tensor<f32>
  %f = rlx.reduce sum %h axes = [0, 1] : tensor<?x8xf32> -> tensor<f32>
  %l = rlx.add %a, %f : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}

func.func @reverse(%c0: tensor<3xf64>, %a: tensor<3x?xf64>, %w: tensor<?xf64>) -> tensor<f64>
    attributes {rlx.differentiate = array<i64: 0, 1, 2>} {
  %c, %ys = rlx.scan (%c0 : tensor<3xf64>) over (%a, %w : tensor<3x?xf64>, tensor<?xf64>) axis = -1 reverse -> (tensor<3xf64>, tensor<3x?xf64>) {
  ^bb0(%h: tensor<3xf64>, %x: tensor<3xf64>, %z: tensor<f64>):
    %m = rlx.mul %h, %z : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
    %s = rlx.add %m, %x : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %n = rlx.tanh %s : tensor<3xf64>
    %e = rlx.exp %x : tensor<3xf64>
    %y = rlx.mul %n, %e : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    rlx.yield %n, %y : tensor<3xf64>, tensor<3xf64>
  }
  %sy = rlx.reduce sum %ys axes = [0, 1] : tensor<3x?xf64> -> tensor<f64>
  %sc = rlx.reduce sum %c axes = [0] : tensor<3xf64> -> tensor<f64>
  %l = rlx.add %sy, %sc : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %l : tensor<f64>
}

func.func @power(%m: tensor<5x5xf64>, %v0: tensor<5x1xf64>) -> tensor<f64>
    attributes {rlx.differentiate = array<i64: 0, 1>} {
  %v, %r = rlx.scan (%v0 : tensor<5x1xf64>) over () length = 6 -> (tensor<5x1xf64>, tensor<6xf64>) {
  ^bb0(%v: tensor<5x1xf64>):
    %w = rlx.matmul %m, %v : (tensor<5x5xf64>, tensor<5x1xf64>) -> tensor<5x1xf64>
    %sq = rlx.mul %w, %w : (tensor<5x1xf64>, tensor<5x1xf64>) -> tensor<5x1xf64>
    %ss = rlx.reduce sum %sq axes = [0, 1] : tensor<5x1xf64> -> tensor<f64>
    %norm = rlx.sqrt %ss : tensor<f64>
    %u = rlx.div %w, %norm : (tensor<5x1xf64>, tensor<f64>) -> tensor<5x1xf64>
    rlx.yield %u, %norm : tensor<5x1xf64>, tensor<f64>
  }
  %sn = rlx.reduce sum %r axes = [0] : tensor<6xf64> -> tensor<f64>
  %first = rlx.narrow %v axis = 0, start = 0, length = 1 : tensor<5x1xf64> -> tensor<1x1xf64>
  %f = rlx.reshape %first : tensor<1x1xf64> -> tensor<f64>
  %l = rlx.add %sn, %f : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %l : tensor<f64>
}

func.func @gated(%h0: tensor<4xf64>, %xs: tensor<?x4xf64>, %flags: tensor<?xi1>, %w: tensor<4xf64>) -> tensor<f64>
    attributes {rlx.differentiate = array<i64: 0, 1, 3>} {
  %h = rlx.scan (%h0 : tensor<4xf64>) over (%xs, %flags : tensor<?x4xf64>, tensor<?xi1>) -> (tensor<4xf64>) {
  ^bb0(%c: tensor<4xf64>, %x: tensor<4xf64>, %f: tensor<i1>):
    %n = rlx.if %f -> (tensor<4xf64>) {
      %m = rlx.mul %c, %w : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
      %s = rlx.add %m, %x : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
      %t = rlx.sin %s : tensor<4xf64>
      rlx.yield %t : tensor<4xf64>
    } else {
      rlx.yield %c : tensor<4xf64>
    }
    rlx.yield %n : tensor<4xf64>
  }
  %q = rlx.mul %h, %h : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %l = rlx.reduce sum %q axes = [0] : tensor<4xf64> -> tensor<f64>
  return %l : tensor<f64>
}

func.func @scan_in_if(%p: tensor<i1>, %h0: tensor<4xf64>, %xs: tensor<?x4xf64>) -> tensor<f64>
    attributes {rlx.differentiate = array<i64: 1, 2>} {
  %r = rlx.if %p -> (tensor<4xf64>) {
    %h = rlx.scan (%h0 : tensor<4xf64>) over (%xs : tensor<?x4xf64>) -> (tensor<4xf64>) {
    ^bb0(%c: tensor<4xf64>, %x: tensor<4xf64>):
      %m = rlx.mul %c, %x : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
      %t = rlx.tanh %m : tensor<4xf64>
      %s = rlx.add %t, %x : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
      rlx.yield %s : tensor<4xf64>
    }
    rlx.yield %h : tensor<4xf64>
  } else {
    %e = rlx.exp %h0 : tensor<4xf64>
    rlx.yield %e : tensor<4xf64>
  }
  %l = rlx.reduce sum %r axes = [0] : tensor<4xf64> -> tensor<f64>
  return %l : tensor<f64>
}

func.func @nested(%s0: tensor<4xf64>, %xs: tensor<?x?x4xf64>, %w: tensor<4xf64>) -> tensor<f64>
    attributes {rlx.differentiate = array<i64: 0, 1, 2>} {
  %s, %sums = rlx.scan (%s0 : tensor<4xf64>) over (%xs : tensor<?x?x4xf64>) -> (tensor<4xf64>, tensor<?xf64>) {
  ^bb0(%c: tensor<4xf64>, %rows: tensor<?x4xf64>):
    %t = rlx.scan (%c : tensor<4xf64>) over (%rows : tensor<?x4xf64>) -> (tensor<4xf64>) {
    ^bb0(%u: tensor<4xf64>, %row: tensor<4xf64>):
      %m = rlx.mul %u, %w : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
      %a = rlx.add %m, %row : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
      %n = rlx.tanh %a : tensor<4xf64>
      rlx.yield %n : tensor<4xf64>
    }
    %q = rlx.mul %t, %t : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
    %r = rlx.reduce sum %q axes = [0] : tensor<4xf64> -> tensor<f64>
    rlx.yield %t, %r : tensor<4xf64>, tensor<f64>
  }
  %a = rlx.reduce sum %sums axes = [0] : tensor<?xf64> -> tensor<f64>
  %b = rlx.reduce sum %s axes = [0] : tensor<4xf64> -> tensor<f64>
  %l = rlx.add %a, %b : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %l : tensor<f64>
}

func.func @axis1(%c0: tensor<f64>, %xs: tensor<3x?xf64>) -> tensor<f64>
    attributes {rlx.differentiate = array<i64: 0, 1>} {
  %c, %ys = rlx.scan (%c0 : tensor<f64>) over (%xs : tensor<3x?xf64>) axis = 1 -> (tensor<f64>, tensor<3x?xf64>) {
  ^bb0(%h: tensor<f64>, %x: tensor<3xf64>):
    %y = rlx.mul %x, %h : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
    %t = rlx.reduce sum %y axes = [0] : tensor<3xf64> -> tensor<f64>
    %n = rlx.sin %t : tensor<f64>
    rlx.yield %n, %y : tensor<f64>, tensor<3xf64>
  }
  %q = rlx.mul %ys, %ys : (tensor<3x?xf64>, tensor<3x?xf64>) -> tensor<3x?xf64>
  %a = rlx.reduce sum %q axes = [0, 1] : tensor<3x?xf64> -> tensor<f64>
  %l = rlx.add %a, %c : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %l : tensor<f64>
}
"""
modules = {"fused": rlx.compile(TEXT),
           "unfused": rlx.compile(TEXT, fuse=False)}
m = modules["fused"]


def t64(a):
    return torch.tensor(np.asarray(a, dtype=np.float64), requires_grad=True)


def check_grads(label, name, args, wrt, reference, rtol=1e-10, atol=1e-12):
    """The loss and gradients of `name`_grad against torch.autograd on
    float64 copies of `args` (the arguments at `wrt` differentiated;
    `reference` takes the torch tensors), fused and unfused alike."""
    tensors = [t64(a) if i in wrt else torch.tensor(np.asarray(a))
               for i, a in enumerate(args)]
    loss = reference(*tensors)
    loss.backward()
    wants = [loss.detach().numpy()] + [
        tensors[i].grad.numpy() if tensors[i].grad is not None
        else np.zeros(np.shape(args[i])) for i in wrt]
    outs = {k: mod[name + "_grad"](*args) for k, mod in modules.items()}
    for k, got in outs.items():
        for what, g, want in zip(["loss"] + [f"d{i}" for i in wrt], got,
                                 wants):
            check_close(f"{label}_{what}_{k}", g, want, rtol, atol)
    return outs["fused"]


def check_finite_differences(label, name, args, wrt, got, count=2, h=1e-6,
                             tol=1e-6):
    """Central differences of the compiled forward at `count` coordinates
    of each differentiated argument against the gradients `got`."""
    for k, i in enumerate(wrt):
        size = np.size(args[i])
        for flat in rng.integers(0, size, count) if size else []:
            plus = [np.array(a, copy=True) for a in args]
            minus = [np.array(a, copy=True) for a in args]
            plus[i].flat[flat] += h
            minus[i].flat[flat] -= h
            fd = (float(m[name](*plus)) - float(m[name](*minus))) / (2 * h)
            analytic = float(np.asarray(got[1 + k]).flat[flat])
            check(f"{label}_fd_d{i}_{flat}",
                  abs(fd - analytic) <= tol * max(1.0, abs(fd)),
                  f"{analytic} vs {fd}")


# rlx.if: both branches, `?` rows (zero too).
def branch_ref(p, x, w):
    if bool(p):
        return ((torch.softmax(x * w, -1) * x) ** 2).sum()
    return ((torch.sin(x) * w) ** 2).sum()


w8 = rng.standard_normal(8)
for rows in (0, 1, 5):
    x = rng.standard_normal((rows, 8))
    for p in (True, False):
        args = [np.array(p), x, w8]
        got = check_grads(f"branch_{p}_{rows}", "branch", args, [1, 2],
                          branch_ref)
        if rows == 5:
            check_finite_differences(f"branch_{p}", "branch", args, [1, 2],
                                     got)


# Branches of different sizes meeting in `?`.
def branch_sizes_ref(p, x):
    r = torch.exp(x) if bool(p) else x[1:3]
    return (r * r).sum()


x6 = rng.standard_normal(6)
for p in (True, False):
    check_grads(f"branch_sizes_{p}", "branch_sizes", [np.array(p), x6], [1],
                branch_sizes_ref)


# A tanh RNN: h_t = tanh(x_t Wx + h_{t-1} Wh + b);
# loss = sum(h_t^2) + sum(h_T).
def rnn_ref(h0, xs, wx, wh, b):
    h, loss = h0, 0
    for x in xs:
        h = torch.tanh(x @ wx + h @ wh + b)
        loss = loss + (h * h).sum()
    return loss + h.sum()


weights = [rng.standard_normal((3, 8)) * 0.5,
           rng.standard_normal((8, 8)) * 0.3, rng.standard_normal(8) * 0.1]
for steps, batch in ((7, 4), (1, 1), (0, 3)):
    args = [rng.standard_normal((batch, 8)),
            rng.standard_normal((steps, batch, 3))] + weights
    got = check_grads(f"rnn_{steps}x{batch}", "rnn", args, [0, 1, 2, 3, 4],
                      rnn_ref)
    if steps == 7:
        check_finite_differences("rnn", "rnn", args, [0, 1, 2, 3, 4], got)

# f32 against float64: a few float32 roundings per step.
args = [rng.standard_normal((4, 8)), rng.standard_normal((12, 4, 3))] + weights
args32 = [a.astype(np.float32) for a in args]
check_grads("rnn32", "rnn32", args32, [0, 1, 2, 3, 4], rnn_ref, 2e-5, 2e-5)


# Reverse along the last axis with a carried value.
def reverse_ref(c0, a, w):
    h, loss = c0, 0
    for i in reversed(range(a.shape[1])):
        h = torch.tanh(h * w[i] + a[:, i])
        loss = loss + (h * torch.exp(a[:, i])).sum()
    return loss + h.sum()


for n in (5, 0):
    args = [rng.standard_normal(3), rng.standard_normal((3, n)),
            rng.standard_normal(n)]
    got = check_grads(f"reverse_{n}", "reverse", args, [0, 1, 2], reverse_ref)
    if n:
        check_finite_differences("reverse", "reverse", args, [0, 1, 2], got)


# A length and no xs: power iteration; loss = sum of the norms + v[0].
def power_ref(mat, v):
    loss = 0
    for _ in range(6):
        w = mat @ v
        norm = torch.sqrt((w * w).sum())
        v = w / norm
        loss = loss + norm
    return loss + v[0, 0]


g = rng.standard_normal((5, 5))
args = [g + g.T, rng.standard_normal((5, 1))]
got = check_grads("power", "power", args, [0, 1], power_ref, 1e-9, 1e-11)
check_finite_differences("power", "power", args, [0, 1], got)


# An if inside a scan: the flagged steps update the state.
def gated_ref(h0, xs, flags, w):
    h = h0
    for x, f in zip(xs, flags):
        if bool(f):
            h = torch.sin(h * w + x)
    return (h * h).sum()


for steps in (9, 0):
    args = [rng.standard_normal(4), rng.standard_normal((steps, 4)),
            rng.random(steps) < 0.5, rng.standard_normal(4)]
    got = check_grads(f"gated_{steps}", "gated", args, [0, 1, 3], gated_ref)
    if steps:
        check_finite_differences("gated", "gated", args, [0, 1, 3], got)


# A scan inside an if.
def scan_in_if_ref(p, h0, xs):
    if not bool(p):
        return torch.exp(h0).sum()
    h = h0
    for x in xs:
        h = torch.tanh(h * x) + x
    return h.sum()


xs = rng.standard_normal((6, 4))
h0 = rng.standard_normal(4)
for p in (True, False):
    check_grads(f"scan_in_if_{p}", "scan_in_if", [np.array(p), h0, xs],
                [1, 2], scan_in_if_ref)


# A scan inside a scan: the inner one runs over each outer slice's rows.
def nested_ref(s0, xs, w):
    s, loss = s0, 0
    for rows in xs:
        for row in rows:
            s = torch.tanh(s * w + row)
        loss = loss + (s * s).sum()
    return loss + s.sum()


for outer, inner in ((3, 4), (2, 0), (0, 2)):
    args = [rng.standard_normal(4), rng.standard_normal((outer, inner, 4)),
            rng.standard_normal(4)]
    got = check_grads(f"nested_{outer}x{inner}", "nested", args, [0, 1, 2],
                      nested_ref)
    if outer == 3:
        check_finite_differences("nested", "nested", args, [0, 1, 2], got)


# A rank-0 carried value along axis 1: saved as [1] slices of [1, n].
def axis1_ref(c0, xs):
    h, loss = c0, 0
    for i in range(xs.shape[1]):
        y = xs[:, i] * h
        loss = loss + (y * y).sum()
        h = torch.sin(y.sum())
    return loss + h


args = [np.array(0.7), rng.standard_normal((3, 5))]
got = check_grads("axis1", "axis1", args, [0, 1], axis1_ref)
check_finite_differences("axis1", "axis1", args, [0, 1], got)

# 1 vs 2 threads: the backward scan's steps are tiled and threaded like any
# ops, and give the same bits.
args = [rng.standard_normal((256, 8)),
        rng.standard_normal((5, 256, 3))] + weights
outs = []
for threads in (1, 2):
    rlx.set_num_threads(threads)
    outs.append(m["rnn_grad"](*args))
rlx.set_num_threads(1)
check("rnn_grad_threads", all(np.array_equal(a, c)
                              for a, c in zip(outs[0], outs[1])))

finish()
