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
# rlx.dequant_grouped_matmul with experts in every block-quantized scheme
# (int8 and int4 at group sizes 32, 64 and 128, with and without zero
# points, f16 and f32 scales; GGUF Q8_0 and Q4_0 packed byte by byte),
# top-1 and gated top-2, `?` rows, f16 rows, out-of-range ids: within the
# f32 summation bound of the float64 product with the exact dequantized
# experts; 1 vs 2 threads bit for bit; the input and gate gradients in
# float64 against autograd, fused and unfused (dx within the rounding of
# the experts dequantized once in f32).
import numpy as np
import torch

import rlx
from rlx_testing.blockquant import random_block_weight
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

#===------------------------------------------------------------------------===#
# dequant_grouped_matmul
#===------------------------------------------------------------------------===#

U = 2.0 ** -24  # f32 unit roundoff
QN = 6  # rows per expert
ELEMENTS = {np.dtype(np.int8): "i8", np.dtype(np.float16): "f16",
            np.dtype(np.float32): "f32"}


def t(shape, element):
    return "tensor<" + "x".join(str(d) for d in shape) + f"x{element}>"


def dequant_reference(x, w, ids, gates=None):
    """(y, bound): y[t] = sum_j gates[t, j] x[t] @ W[ids[t, j]]^T in float64
    for W [E, N, K], and the f32 summation bound (K + 2) u sum |terms|."""
    x = np.asarray(x, np.float64)
    ids = rule(np.asarray(ids, np.int64), w.shape[0])
    if gates is None:
        ids, gates = ids[:, None], np.ones((len(x), 1))
    gates = np.asarray(gates, np.float64)
    y = np.einsum("tj,tk,tjnk->tn", gates, x, w[ids])
    size = np.einsum("tj,tk,tjnk->tn", np.abs(gates), np.abs(x),
                     np.abs(w[ids]))
    return y, (x.shape[1] + 2) * U * size + 1e-30


def within_bound(name, got, want, bound):
    got = np.asarray(got, np.float64)
    ok = got.shape == want.shape and bool(np.all(np.abs(got - want) <= bound))
    err = np.abs(got - want).max() if got.shape == want.shape and got.size \
        else got.shape
    check(name, ok, f"max error {err}")


def dequant_function(name, scheme, g, ops, x, ids, gates=None, element="f32",
                     wrt=None):
    """A func.func applying dequant_grouped_matmul to %x (`x` a shape), the
    weight operands `ops` and %ids; with `wrt`, the loss sum(y * %c) marked
    for --rlx-autodiff with respect to those arguments."""
    operands = [("%x", t(x, element)), ("%w", t(ops[0].shape, "i8")),
                ("%ids", t(ids, "i64"))]
    text = "%x, %w, %ids"
    if gates:
        operands.append(("%g", t(gates, element)))
        text += " gates %g"
    for label, op in zip(("scales", "zero_points"), ops[1:]):
        operands.append((f"%{label[0]}", t(op.shape, ELEMENTS[op.dtype])))
        text += f" {label} %{label[0]}"
    group = f" group_size = {g}" if g != 32 else ""
    y = t([x[0], ops[0].shape[1]], element)
    types = ", ".join(ty for _, ty in operands)
    line = (f"  %y = rlx.dequant_grouped_matmul {text} scheme = \"{scheme}\""
            f"{group} : ({types}) -> {y}\n")
    sig = ", ".join(f"{n}: {ty}" for n, ty in operands)
    if wrt is None:
        return f"func.func @{name}({sig}) -> {y} {{\n{line}  return %y : {y}\n}}\n"
    return (f"func.func @{name}({sig}, %c: {y}) -> tensor<{element}> "
            f"attributes {{rlx.differentiate = array<i64: {wrt}>}} {{\n{line}"
            f"  %p = rlx.mul %y, %c : ({y}, {y}) -> {y}\n"
            f"  %l = rlx.reduce sum %p axes = [0, 1] : {y} -> "
            f"tensor<{element}>\n  return %l : tensor<{element}>\n}}\n")


# (name, scheme, group, K, scale type, zero points, rows, gated, element)
DQ_CASES = [
    ("int4_g32", "int4", 32, 96, np.float32, False, "?", False, "f32"),
    ("int4_g64_zp_top2", "int4", 64, 128, np.float16, True, "?", True, "f32"),
    ("int4_g128_zp", "int4", 128, 256, np.float32, True, 9, False, "f32"),
    ("int8_g32_top2", "int8", 32, 64, np.float16, False, 9, True, "f32"),
    ("int8_g128_zp", "int8", 128, 128, np.float32, True, "?", False, "f32"),
    ("q8_0_top2", "q8_0", 32, 96, None, False, "?", True, "f32"),
    ("q4_0", "q4_0", 32, 160, None, False, "?", False, "f32"),
    ("q4_0_f16_top2", "q4_0", 32, 64, None, False, 9, True, "f16"),
]
dq_weights, dq_functions = {}, []
for name, scheme, g, k, stype, zp, rows, gated, element in DQ_CASES:
    ops, wq = random_block_weight(rng, scheme, (E, QN), k, g,
                                  stype or np.float32, zp)
    dq_weights[name] = (ops, wq)
    dq_functions.append(dequant_function(
        name, scheme, g, ops, [rows, k], [rows, TOPK] if gated else [rows],
        [rows, TOPK] if gated else None, element))
# Gradients in float64: int4 with zero points (top-2) and Q4_0 (top-1).
for name, scheme, gated in (("grad_int4", "int4", True),
                            ("grad_q4_0", "q4_0", False)):
    ops, wq = random_block_weight(rng, scheme, (E, QN), 64, 32, np.float32,
                                  scheme == "int4")
    dq_weights[name] = (ops, wq)
    dq_functions.append(dequant_function(
        name, scheme, 32, ops, ["?", 64], ["?", TOPK] if gated else ["?"],
        ["?", TOPK] if gated else None, "f64",
        wrt="0, 3" if gated else "0"))
dq_text = "\n".join(dq_functions)
dq_modules = {"fused": rlx.compile(dq_text),
              "unfused": rlx.compile(dq_text, fuse=False)}
dq = dq_modules["fused"]

for name, scheme, g, k, stype, zp, rows, gated, element in DQ_CASES:
    ops, wq = dq_weights[name]
    for count in ((0, 1, 13) if rows == "?" else (rows,)):
        xq = rng.standard_normal((count, k)).astype(np.float32)
        shape = (count, TOPK) if gated else (count,)
        idq = rng.integers(0, E, shape).astype(np.int64)
        if count > 1:
            # Out of range: wraps once, then clamps.
            idq.flat[0], idq.flat[-1] = -1, E + 5
        args = [xq, ops[0], idq]
        gq = None
        if gated:
            gq = rng.random(shape).astype(np.float32)
            args.append(gq)
        args += ops[1:]
        if element == "f16":
            args[0] = xq.astype(np.float16)
            if gated:
                args[3] = gq.astype(np.float16)
        want, bound = dequant_reference(args[0], wq, idq,
                                        None if gq is None else args[3])
        if element == "f16":
            bound = bound + np.abs(want) * 2.0 ** -11
        within_bound(f"dequant_{name}_{count}", dq[name](*args), want, bound)

# 1 vs 2 threads: bit for bit.
ops, wq = dq_weights["int4_g64_zp_top2"]
xq = rng.standard_normal((300, 128)).astype(np.float32)
idq = rng.integers(0, E, (300, TOPK)).astype(np.int64)
gq = rng.random((300, TOPK)).astype(np.float32)
outs = []
for threads in (1, 2):
    rlx.set_num_threads(threads)
    outs.append(dq["int4_g64_zp_top2"](xq, ops[0], idq, gq, *ops[1:]))
rlx.set_num_threads(1)
check("dequant_threads", np.array_equal(outs[0], outs[1]))
within_bound("dequant_threads_reference", outs[1],
             *dequant_reference(xq, wq, idq, gq))

# Gradients of sum(y * c) with respect to x (and the gates) in float64.
for name, gated in (("grad_int4", True), ("grad_q4_0", False)):
    ops, wq = dq_weights[name]
    rows = 11
    shape = (rows, TOPK) if gated else (rows,)
    xd = rng.standard_normal((rows, 64))
    cd = rng.standard_normal((rows, QN))
    idd = rng.integers(0, E - 1, shape).astype(np.int64)
    idd.flat[0], idd.flat[-1] = -1, E + 3
    xt = torch.tensor(xd, requires_grad=True)
    args = [xd, ops[0], idd]
    gt = None
    if gated:
        gd = rng.random(shape)
        gt = torch.tensor(gd, requires_grad=True)
        args.append(gd)
    args += ops[1:] + [cd]
    experts = torch.tensor(wq)[torch.tensor(rule(idd, E))]
    if not gated:
        experts = experts[:, None]
    gates_t = gt if gated else torch.ones(rows, 1, dtype=torch.float64)
    y = torch.einsum("tj,tk,tjnk->tn", gates_t, xt, experts)
    total = (y * torch.from_numpy(cd)).sum()
    total.backward()
    # dx multiplies by the experts dequantized once in f32 (rlx.dequant_weight),
    # so each weight carries a rounding of at most 2^-24 relative to it.
    dx_bound = U * torch.einsum("tj,tn,tjnk->tk", gates_t.detach().abs(),
                                torch.from_numpy(np.abs(cd)),
                                experts.abs()).numpy() + 1e-12
    for mode, compiled in dq_modules.items():
        got = compiled[f"{name}_grad"](*args)
        close(f"{name}_{mode}_value", np.asarray(got[0]),
              total.detach().numpy(), 1e-12, 1e-12)
        within_bound(f"{name}_{mode}_dx", got[1], xt.grad.numpy(), dx_bound)
        if gated:
            close(f"{name}_{mode}_dgates", got[2], gt.grad, 1e-10, 1e-10)

finish()
