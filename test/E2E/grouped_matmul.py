# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# rlx.grouped_matmul (RlxMoeOps.td) compiled from MLIR text, against
# PyTorch in float64: top-1 routing at static and `?` row counts (zero rows
# too), i32 and i64 ids, repeated and unused experts, out-of-range ids
# (wrapped once, then clamped, as rlx.gather); bf16 and f16 operands
# (accumulated in f32, rounded once); top-k routing with gates; 1 vs 2
# threads bit for bit; the gradients of a loss with respect to the input,
# the weights and the gates through --rlx-autodiff against autograd, at a
# static and a `?` row count, fused and unfused.
import numpy as np
import torch

import rlx
from rlx_testing.checks import check, finish

rng = np.random.default_rng(18)
T, K, N, E, TOPK = 7, 16, 12, 4, 2


def rule(ids, experts):
    """rlx.gather's index rule: negative ids wrap once, the rest clamp."""
    ids = np.where(ids < 0, ids + experts, ids)
    return np.clip(ids, 0, experts - 1)


def reference(x, w, ids, gates=None):
    """y[t] = sum_j gates[t, j] x[t] @ W[ids[t, j]] in float64 (torch)."""
    x, w = torch.as_tensor(x).double(), torch.as_tensor(w).double()
    ids = torch.as_tensor(rule(np.asarray(ids, np.int64), w.shape[0]))
    if gates is None:
        return torch.einsum("tk,tkn->tn", x, w[ids])
    gates = torch.as_tensor(gates).double()
    return torch.einsum("tj,tk,tjkn->tn", gates, x, w[ids])


def close(name, got, want, rtol, atol):
    want = want.detach().numpy() if isinstance(want, torch.Tensor) else want
    got = np.asarray(got)
    ok = got.shape == want.shape and np.allclose(got, want, rtol=rtol,
                                                 atol=atol)
    err = np.abs(got - want).max() if got.shape == want.shape and got.size \
        else got.shape
    check(name, ok, f"max error {err}")


def function(name, x, w, ids, y, gates=None, cast=None):
    """A func.func applying grouped_matmul; with `cast`, the f32 operands
    are cast to it and the result back to f32."""
    args = f"%x: tensor<{x}xf32>, %w: tensor<{w}xf32>, %ids: tensor<{ids}>"
    if gates:
        args += f", %g: tensor<{gates}xf32>"
    el = cast or "f32"
    lines, xs, ws, gs = [], "%x", "%w", "%g"
    if cast:
        lines += [f"%xc = rlx.cast %x : tensor<{x}xf32> -> tensor<{x}x{el}>",
                  f"%wc = rlx.cast %w : tensor<{w}xf32> -> tensor<{w}x{el}>"]
        xs, ws = "%xc", "%wc"
        if gates:
            lines.append(f"%gc = rlx.cast %g : tensor<{gates}xf32> -> "
                         f"tensor<{gates}x{el}>")
            gs = "%gc"
    types = f"tensor<{x}x{el}>, tensor<{w}x{el}>, tensor<{ids}>"
    gate = ""
    if gates:
        gate, types = f" gates {gs}", types + f", tensor<{gates}x{el}>"
    lines.append(f"%y = rlx.grouped_matmul {xs}, {ws}, %ids{gate} : "
                 f"({types}) -> tensor<{y}x{el}>")
    out = "%y"
    if cast:
        lines.append(f"%yf = rlx.cast %y : tensor<{y}x{el}> -> tensor<{y}xf32>")
        out = "%yf"
    body = "\n  ".join(lines)
    return (f"func.func @{name}({args}) -> tensor<{y}xf32> {{\n  {body}\n"
            f"  return {out} : tensor<{y}xf32>\n}}\n")


def loss(name, x, w, ids, y, gates=None):
    """sum(grouped_matmul(x, w, ids[, gates]) * target) in f64, marked for
    --rlx-autodiff with respect to x, w (and the gates)."""
    args = (f"%x: tensor<{x}xf64>, %w: tensor<{w}xf64>, %ids: tensor<{ids}>, "
            f"%t: tensor<{y}xf64>")
    wrt, gate, types = "0, 1", "", \
        f"tensor<{x}xf64>, tensor<{w}xf64>, tensor<{ids}>"
    if gates:
        args += f", %g: tensor<{gates}xf64>"
        wrt, gate = "0, 1, 4", " gates %g"
        types += f", tensor<{gates}xf64>"
    return (f"func.func @{name}({args}) -> tensor<f64> attributes "
            f"{{rlx.differentiate = array<i64: {wrt}>}} {{\n"
            f"  %y = rlx.grouped_matmul %x, %w, %ids{gate} : ({types}) -> "
            f"tensor<{y}xf64>\n"
            f"  %p = rlx.mul %y, %t : (tensor<{y}xf64>, tensor<{y}xf64>) -> "
            f"tensor<{y}xf64>\n"
            f"  %l = rlx.reduce sum %p axes = [0, 1] : tensor<{y}xf64> -> "
            f"tensor<f64>\n  return %l : tensor<f64>\n}}\n")


S = f"{K}x{N}"
module = rlx.compile("\n".join([
    function("top1", f"{T}x{K}", f"{E}x{S}", f"{T}xi64", f"{T}x{N}"),
    function("top1_dyn", f"?x{K}", f"{E}x{S}", "?xi32", f"?x{N}"),
    function("top1_bf16", f"{T}x{K}", f"{E}x{S}", f"{T}xi64", f"{T}x{N}",
             cast="bf16"),
    function("top1_f16", f"?x{K}", f"{E}x{S}", "?xi64", f"?x{N}",
             cast="f16"),
    function("topk", f"?x{K}", f"{E}x{S}", f"?x{TOPK}xi64", f"?x{N}",
             gates=f"?x{TOPK}"),
    function("topk_bf16", f"{T}x{K}", f"{E}x{S}", f"{T}x{TOPK}xi32",
             f"{T}x{N}", gates=f"{T}x{TOPK}", cast="bf16"),
]))
losses = "\n".join([
    loss("loss", f"{T}x{K}", f"{E}x{S}", f"{T}xi64", f"{T}x{N}"),
    loss("loss_dyn", f"?x{K}", f"{E}x{S}", "?xi32", f"?x{N}"),
    loss("loss_topk", f"{T}x{K}", f"{E}x{S}", f"{T}x{TOPK}xi64", f"{T}x{N}",
         gates=f"{T}x{TOPK}"),
    loss("loss_topk_dyn", f"?x{K}", f"{E}x{S}", f"?x{TOPK}xi32", f"?x{N}",
         gates=f"?x{TOPK}"),
])
gradients = {"fused": rlx.compile(losses),
             "unfused": rlx.compile(losses, fuse=False)}

w = rng.standard_normal((E, K, N)).astype(np.float32)
# Experts 1 and 3 unused, 0 and 2 repeated.
ids = np.array([2, 2, 0, 2, 0, 0, 2], np.int64)
x = rng.standard_normal((T, K)).astype(np.float32)
close("top1", module["top1"](x, w, ids), reference(x, w, ids), 1e-5, 1e-5)
# Out of range: -1 wraps to E - 1, -9 clamps to 0, 4 and 100 clamp to E - 1.
bad = np.array([-1, -9, 4, 100, 1, -4, 3], np.int64)
close("top1_out_of_range", module["top1"](x, w, bad),
      reference(x, w, bad), 1e-5, 1e-5)
for rows in (0, 1, 5, 33):
    xr = rng.standard_normal((rows, K)).astype(np.float32)
    idr = rng.integers(0, E, rows).astype(np.int32)
    close(f"top1_dyn_{rows}", module["top1_dyn"](xr, w, idr),
          reference(xr, w, idr), 1e-5, 1e-5)

# Reduced precision: operands rounded to bf16 / f16, the products summed in
# f32 and the result rounded once.
xb = torch.from_numpy(x).bfloat16().double()
wb = torch.from_numpy(w).bfloat16().double()
close("top1_bf16", module["top1_bf16"](x, w, ids), reference(xb, wb, ids),
      2e-2, 2e-2)
close("top1_f16", module["top1_f16"](x, w, ids),
      reference(torch.from_numpy(x).half().double(),
                torch.from_numpy(w).half().double(), ids), 2e-3, 2e-3)

# Top-k routing: softmax gates over k distinct or repeated experts.
for rows in (1, T, 20):
    xr = rng.standard_normal((rows, K)).astype(np.float32)
    idk = rng.integers(-E, E + 2, (rows, TOPK)).astype(np.int64)
    gk = torch.softmax(torch.randn(rows, TOPK), 1).numpy()
    close(f"topk_{rows}", module["topk"](xr, w, idk, gk),
          reference(xr, w, idk, gk), 1e-5, 1e-5)
idk = rng.integers(0, E, (T, TOPK)).astype(np.int32)
gk = torch.softmax(torch.randn(T, TOPK), 1).numpy()
close("topk_bf16", module["topk_bf16"](x, w, idk, gk),
      reference(xb, wb, idk, torch.from_numpy(gk).bfloat16().double()),
      2e-2, 2e-2)

# 1 vs 2 threads: bit for bit (each output element is one sequential sum).
big_x = rng.standard_normal((512, K)).astype(np.float32)
big_ids = rng.integers(0, E, (512, TOPK)).astype(np.int64)
big_g = rng.random((512, TOPK)).astype(np.float32)
outs = []
for threads in (1, 2):
    rlx.set_num_threads(threads)
    outs.append(module["topk"](big_x, w, big_ids, big_g))
    outs.append(module["top1_dyn"](big_x, w, big_ids[:, 0].astype(np.int32)))
rlx.set_num_threads(1)
check("threads_topk", np.array_equal(outs[0], outs[2]))
check("threads_top1", np.array_equal(outs[1], outs[3]))
close("threads_reference", outs[2], reference(big_x, w, big_ids, big_g),
      1e-5, 1e-5)

# Gradients of sum(y * target) against autograd, float64.
wd = rng.standard_normal((E, K, N))
for name, rows, gated, dtype in (("loss", T, False, np.int64),
                                 ("loss_dyn", 11, False, np.int32),
                                 ("loss_topk", T, True, np.int64),
                                 ("loss_topk_dyn", 9, True, np.int32)):
    xd = rng.standard_normal((rows, K))
    td = rng.standard_normal((rows, N))
    shape = (rows, TOPK) if gated else (rows,)
    # Repeated experts, one unused, and an out-of-range id (clamped: its
    # gradient reaches the expert the forward read).
    idd = rng.integers(0, E - 1, shape).astype(dtype)
    idd.flat[0] = -1
    idd.flat[-1] = E + 3
    leaves = [torch.tensor(xd, requires_grad=True),
              torch.tensor(wd, requires_grad=True)]
    args = [xd, wd, idd, td]
    if gated:
        gd = rng.random(shape)
        leaves.append(torch.tensor(gd, requires_grad=True))
        args.append(gd)
    y = reference(leaves[0], leaves[1], idd, leaves[2] if gated else None)
    total = (y * torch.from_numpy(td)).sum()
    total.backward()
    for mode, compiled in gradients.items():
        got = compiled[f"{name}_grad"](*args)
        close(f"{name}_{mode}_value", np.asarray(got[0]),
              total.detach().numpy(), 1e-12, 1e-12)
        for label, value, leaf in zip(("dx", "dw", "dgates"), got[1:],
                                      leaves):
            close(f"{name}_{mode}_{label}", value, leaf.grad, 1e-10, 1e-10)

finish()
