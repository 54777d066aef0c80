# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# rlx.if, rlx.while and rlx.scan (RlxControlFlowOps.td) compiled from MLIR
# text, against float64 numpy: both branches of an if (a softmax, a
# reduction in one branch; branches of different sizes meeting in a `?`
# value, reduced before it is returned); a while loop with a data-dependent trip count (zero iterations
# too) and a reduction in its condition; scans: a tanh RNN over a `?` batch
# and a `?` sequence (zero steps too), a reverse scan with two xs and no
# carried value, a scan of a given length with no xs (power iteration), an
# if inside a scan; fused and unfused programs bit for bit; 1 vs 2 threads
# bit for bit. Then the static functions of test/Pipelines (the GPU
# pipeline's input, which ptxas checks there) with the GPU's schedule run
# on the CPU (--gpu-blocks-on-cpu): the host control flow around kernels,
# the conditions read back.
import os

import numpy as np

import rlx
from rlx_testing.checks import check, check_close, finish

rng = np.random.default_rng(19)


def close(name, got, want, rtol=1e-5, atol=1e-6):
    check_close(name, got, want, rtol, atol)


TEXT = """
func.func @branch(%p: tensor<i1>, %x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %r = rlx.if %p -> (tensor<?x8xf32>) {
    %s = rlx.softmax %x axis = -1 : tensor<?x8xf32>
    %t = rlx.mul %s, %x : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    rlx.yield %t : tensor<?x8xf32>
  } else {
    %n = rlx.neg %x : tensor<?x8xf32>
    rlx.yield %n : tensor<?x8xf32>
  }
  return %r : tensor<?x8xf32>
}

func.func @branch_sizes(%p: tensor<i1>, %x: tensor<6xf32>) -> tensor<f32> {
  %r = rlx.if %p -> (tensor<?xf32>) {
    rlx.yield %x : tensor<6xf32>
  } else {
    %s = rlx.narrow %x axis = 0, start = 1, length = 2 : tensor<6xf32> -> tensor<2xf32>
    rlx.yield %s : tensor<2xf32>
  }
  %q = rlx.mul %r, %r : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %t = rlx.reduce sum %q axes = [0] : tensor<?xf32> -> tensor<f32>
  return %t : tensor<f32>
}

func.func @halvings(%x: tensor<?xf32>) -> (tensor<i64>, tensor<?xf32>) {
  %zero = rlx.constant dense<0> : tensor<i64>
  %one = rlx.constant dense<1> : tensor<i64>
  %half = rlx.constant dense<0.5> : tensor<f32>
  %limit = rlx.constant dense<1.0> : tensor<f32>
  %n, %y = rlx.while %zero, %x : tensor<i64>, tensor<?xf32> condition {
  ^bb0(%i: tensor<i64>, %v: tensor<?xf32>):
    %a = rlx.abs %v : tensor<?xf32>
    %m = rlx.reduce max %a axes = [0] : tensor<?xf32> -> tensor<f32>
    %c = rlx.gt %m, %limit : (tensor<f32>, tensor<f32>) -> tensor<i1>
    rlx.yield %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %v: tensor<?xf32>):
    %i1 = rlx.add %i, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %v1 = rlx.mul %v, %half : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
    rlx.yield %i1, %v1 : tensor<i64>, tensor<?xf32>
  }
  return %n, %y : tensor<i64>, tensor<?xf32>
}

func.func @rnn(%h0: tensor<?x8xf32>, %xs: tensor<?x?x3xf32>, %wx: tensor<3x8xf32>, %wh: tensor<8x8xf32>, %b: tensor<8xf32>) -> (tensor<?x8xf32>, tensor<?x?x8xf32>) {
  %h, %hs = rlx.scan (%h0 : tensor<?x8xf32>) over (%xs : tensor<?x?x3xf32>) -> (tensor<?x8xf32>, tensor<?x?x8xf32>) {
  ^bb0(%c: tensor<?x8xf32>, %x: tensor<?x3xf32>):
    %p = rlx.matmul %x, %wx : (tensor<?x3xf32>, tensor<3x8xf32>) -> tensor<?x8xf32>
    %q = rlx.matmul %c, %wh : (tensor<?x8xf32>, tensor<8x8xf32>) -> tensor<?x8xf32>
    %s = rlx.add %p, %q : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    %t = rlx.add %s, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
    %n = rlx.tanh %t : tensor<?x8xf32>
    rlx.yield %n, %n : tensor<?x8xf32>, tensor<?x8xf32>
  }
  return %h, %hs : tensor<?x8xf32>, tensor<?x?x8xf32>
}

func.func @reverse(%a: tensor<3x?xf32>, %w: tensor<?xf32>) -> tensor<3x?xf32> {
  %y = rlx.scan () over (%a, %w : tensor<3x?xf32>, tensor<?xf32>) axis = -1 reverse -> (tensor<3x?xf32>) {
  ^bb0(%x: tensor<3xf32>, %z: tensor<f32>):
    %m = rlx.mul %x, %z : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    %e = rlx.exp %m : tensor<3xf32>
    rlx.yield %e : tensor<3xf32>
  }
  return %y : tensor<3x?xf32>
}

func.func @power(%m: tensor<5x5xf32>, %v0: tensor<5x1xf32>) -> (tensor<5x1xf32>, tensor<12xf32>) {
  %v, %r = rlx.scan (%v0 : tensor<5x1xf32>) over () length = 12 -> (tensor<5x1xf32>, tensor<12xf32>) {
  ^bb0(%v: tensor<5x1xf32>):
    %w = rlx.matmul %m, %v : (tensor<5x5xf32>, tensor<5x1xf32>) -> tensor<5x1xf32>
    %sq = rlx.mul %w, %w : (tensor<5x1xf32>, tensor<5x1xf32>) -> tensor<5x1xf32>
    %ss = rlx.reduce sum %sq axes = [0, 1] : tensor<5x1xf32> -> tensor<f32>
    %norm = rlx.sqrt %ss : tensor<f32>
    %u = rlx.div %w, %norm : (tensor<5x1xf32>, tensor<f32>) -> tensor<5x1xf32>
    rlx.yield %u, %norm : tensor<5x1xf32>, tensor<f32>
  }
  return %v, %r : tensor<5x1xf32>, tensor<12xf32>
}

func.func @gated(%h0: tensor<4xf32>, %xs: tensor<?x4xf32>, %flags: tensor<?xi1>) -> tensor<4xf32> {
  %h = rlx.scan (%h0 : tensor<4xf32>) over (%xs, %flags : tensor<?x4xf32>, tensor<?xi1>) -> (tensor<4xf32>) {
  ^bb0(%c: tensor<4xf32>, %x: tensor<4xf32>, %f: tensor<i1>):
    %n = rlx.if %f -> (tensor<4xf32>) {
      %s = rlx.add %c, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %t = rlx.sin %s : tensor<4xf32>
      rlx.yield %t : tensor<4xf32>
    } else {
      rlx.yield %c : tensor<4xf32>
    }
    rlx.yield %n : tensor<4xf32>
  }
  return %h : tensor<4xf32>
}
"""
modules = {"fused": rlx.compile(TEXT), "unfused": rlx.compile(TEXT, fuse=False)}
m = modules["fused"]


def both(name, *args):
    """The function's results, which must agree bit for bit fused and
    unfused."""
    fused = m[name](*args)
    unfused = modules["unfused"][name](*args)
    fused_list = fused if isinstance(fused, (list, tuple)) else [fused]
    unfused_list = unfused if isinstance(unfused, (list, tuple)) else [unfused]
    check(f"{name}_fused_unfused", all(
        np.array_equal(a, b) for a, b in zip(fused_list, unfused_list)))
    return fused


def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


# rlx.if: both branches, `?` rows (zero rows too).
for rows in (0, 1, 5):
    x = rng.standard_normal((rows, 8)).astype(np.float32)
    x64 = x.astype(np.float64)
    close(f"branch_true_{rows}", both("branch", np.array(True), x),
          softmax(x64) * x64)
    close(f"branch_false_{rows}", both("branch", np.array(False), x), -x64)
x = rng.standard_normal(6).astype(np.float32)
x64 = x.astype(np.float64)
close("branch_sizes_true", both("branch_sizes", np.array(True), x),
      (x64 * x64).sum())
close("branch_sizes_false", both("branch_sizes", np.array(False), x),
      (x64[1:3] ** 2).sum())

# rlx.while: halve until every |v| <= 1; a vector already there loops zero
# times.
for scale in (0.5, 3.0, 1000.0):
    v = (rng.uniform(-1, 1, 7) * scale).astype(np.float32)
    count, y = both("halvings", v)
    want, ref = 0, v.astype(np.float64)
    while np.abs(ref).max() > 1:
        want, ref = want + 1, ref * 0.5
    check(f"halvings_count_{scale}", int(count) == want,
          f"{int(count)} iterations, expected {want}")
    close(f"halvings_value_{scale}", y, ref, 0, 0)

# rlx.scan: a tanh RNN, h_t = tanh(x_t Wx + h_{t-1} Wh + b).
wx = rng.standard_normal((3, 8)).astype(np.float32) * 0.5
wh = rng.standard_normal((8, 8)).astype(np.float32) * 0.3
b = rng.standard_normal(8).astype(np.float32) * 0.1


def rnn_reference(h0, xs):
    h, hs = h0.astype(np.float64), []
    for x in xs.astype(np.float64):
        h = np.tanh(x @ wx + h @ wh + b)
        hs.append(h)
    return h, np.stack(hs) if hs else np.zeros((0,) + h0.shape)


for steps, batch in ((7, 4), (1, 1), (0, 3), (20, 2)):
    h0 = rng.standard_normal((batch, 8)).astype(np.float32)
    xs = rng.standard_normal((steps, batch, 3)).astype(np.float32)
    h, hs = both("rnn", h0, xs, wx, wh, b)
    want_h, want_hs = rnn_reference(h0, xs)
    close(f"rnn_final_{steps}x{batch}", h, want_h)
    close(f"rnn_stacked_{steps}x{batch}", hs, want_hs)

# Reverse, two xs, no carried value: y[:, i] = exp(a[:, i] * w[i]), visited
# from the last position; the result is the same as forward by position.
for n in (5, 0):
    a = rng.standard_normal((3, n)).astype(np.float32)
    w = rng.standard_normal(n).astype(np.float32)
    close(f"reverse_{n}", both("reverse", a, w),
          np.exp(a.astype(np.float64) * w))

# No xs, a length: 12 steps of power iteration on a symmetric matrix.
g = rng.standard_normal((5, 5))
mat = (g + g.T).astype(np.float32)
v0 = rng.standard_normal((5, 1)).astype(np.float32)
v, norms = both("power", mat, v0)
ref_v, ref_norms = v0.astype(np.float64), []
for _ in range(12):
    w_ = mat.astype(np.float64) @ ref_v
    ref_norms.append(np.linalg.norm(w_))
    ref_v = w_ / ref_norms[-1]
close("power_vector", v, ref_v, 1e-4, 1e-5)
close("power_norms", norms, np.array(ref_norms), 1e-4, 1e-5)

# An if inside a scan: the flagged steps update the state.
for steps in (9, 0):
    h0 = rng.standard_normal(4).astype(np.float32)
    xs = rng.standard_normal((steps, 4)).astype(np.float32)
    flags = rng.random(steps) < 0.5
    ref = h0.astype(np.float64)
    for x, flag in zip(xs.astype(np.float64), flags):
        if flag:
            ref = np.sin(ref + x)
    close(f"gated_{steps}", both("gated", h0, xs, flags), ref)

# 1 vs 2 threads: the scan's steps are tiled and threaded like any ops.
h0 = rng.standard_normal((256, 8)).astype(np.float32)
xs = rng.standard_normal((6, 256, 3)).astype(np.float32)
outs = []
for threads in (1, 2):
    rlx.set_num_threads(threads)
    outs.append(m["rnn"](h0, xs, wx, wh, b))
rlx.set_num_threads(1)
check("rnn_threads", all(np.array_equal(a, c)
                         for a, c in zip(outs[0], outs[1])))

# The GPU's schedule on the CPU.
inputs = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                      "Pipelines", "Inputs", "gpu-control-flow.mlir")
with open(inputs) as f:
    gpu = rlx.compile(f.read(), options=["--gpu-blocks-on-cpu=descending"])
x = rng.standard_normal((16, 8)).astype(np.float32)
close("gpu_branch_true", gpu["branch"](np.array(True), x),
      softmax(x.astype(np.float64)))
close("gpu_branch_false", gpu["branch"](np.array(False), x), -x)
v = (rng.uniform(-1, 1, 64) * 100).astype(np.float32)
count, y = gpu["halvings"](v)
want, ref = 0, v.astype(np.float64)
while np.abs(ref).max() > 1:
    want, ref = want + 1, ref * 0.5
check("gpu_halvings_count", int(count) == want,
      f"{int(count)} iterations, expected {want}")
close("gpu_halvings_value", y, ref, 0, 0)
h0 = rng.standard_normal((4, 8)).astype(np.float32)
xs = rng.standard_normal((16, 4, 3)).astype(np.float32)
wh4 = rng.standard_normal((8, 8)).astype(np.float32) * 0.3
h, hs = gpu["rnn"](h0, xs, wx, wh4)
ref_h, ref_hs = h0.astype(np.float64), []
for step in xs.astype(np.float64):
    ref_h = np.tanh(step @ wx + ref_h @ wh4)
    ref_hs.append(ref_h)
close("gpu_rnn_final", h, ref_h)
close("gpu_rnn_stacked", hs, np.stack(ref_hs))

finish()
