# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# rlx.selective_scan, rlx.mamba2 and rlx.gated_delta_net (RlxStateSpaceOps.td,
# decomposed into an rlx.scan over chunks) against the float64 sequential
# references of rlx_testing.sequence, forward (the output and the last
# state) and backward: every optional operand (selective_scan: D, z,
# delta_bias, delta_softplus, B/C of rank 3 and of rank 4 with 2 groups;
# mamba2: D, z, dt_bias, dt_softplus, initial_state, 1 and 2 groups;
# gated_delta_net: initial_state, an explicit scale), lengths that are not a
# multiple of `chunk` (9 and 7 with chunk 4, 3 < chunk, 1), exactly `chunk`,
# the default chunk, a `?` batch and length run at several sizes (length 0
# too: empty outputs, the initial or zero state), f32 against float64
# (selective_scan's with a `?` batch and a static length), and two `chunk`
# values against each other (outputs, states and gradients).
# Gradients of a weighted sum of both results with respect to every operand
# against torch.autograd on the reference, and central differences of the
# compiled forward for one configuration per op.
import concurrent.futures
import dataclasses

import numpy as np
import torch

import rlx
from rlx_testing import sequence
from rlx_testing.checks import check, check_close, finish

# The sizes: selective_scan's channels and states, mamba2's heads (4, so
# that 2 groups serve 2 heads each), features and states, gated_delta_net's
# heads, key and value widths. Distinct sizes catch transposed layouts.
SS_D, SS_N = 4, 3
M2_H, M2_P, M2_N = 4, 3, 4
GD_H, GD_K, GD_V = 2, 4, 3
# float64 against the sequential reference: the chunked forms sum in another
# order (and gated_delta_net inverts a triangular matrix), a few ulps of the
# largest entry. f32 against float64: a few float32 roundings per step.
TOL = {"f64": 1e-10, "f32": 1e-4}
# Two chunk lengths against each other: rounding only.
CHUNK_TOL = 1e-12


@dataclasses.dataclass
class Case:
    name: str
    op: str                  # selective_scan, mamba2, gated_delta_net
    L: int = 7               # the static length (unused when dynamic)
    chunk: int = None        # None: the op's default
    D: bool = False
    z: bool = False
    bias: bool = False       # delta_bias / dt_bias
    softplus: bool = False   # delta_softplus / dt_softplus
    groups: int = 0          # selective_scan: 0 for B, C of rank 3
    initial: bool = False
    scale: float = None
    batch: int = 2
    dynamic_batch: bool = False
    dynamic_length: bool = False
    sizes: tuple = None      # (batch, L) pairs for `?` modules
    dtype: str = "f64"
    fd: bool = False
    seed: int = 0            # inputs: chunk twins share theirs
    twin_of: str = None      # the case this one must agree with


def tensor_type(shape, dtype):
    dims = "x".join("?" if d is None else str(d) for d in shape)
    return f"tensor<{dims}x{dtype}>" if shape else f"tensor<{dtype}>"


# --- Per op: operands and their shapes, the op's text, inputs, reference --

def operands(c):
    """The operands in the op's order."""
    if c.op == "selective_scan":
        names = ["u", "delta", "A", "B", "C"] + ["D"] * c.D + ["z"] * c.z \
            + ["delta_bias"] * c.bias
    elif c.op == "mamba2":
        names = ["x", "dt", "A", "B", "C"] + ["D"] * c.D + ["z"] * c.z \
            + ["dt_bias"] * c.bias + ["initial"] * c.initial
    else:
        names = ["q", "k", "v", "g", "beta"] + ["initial"] * c.initial
    return names


def shapes(c, b, L):
    """Operand shapes and the two result shapes (b, L may be None)."""
    if c.op == "selective_scan":
        seq = (b, SS_D, L)
        bc = (b, SS_N, L) if not c.groups else (b, c.groups, SS_N, L)
        s = {"u": seq, "delta": seq, "A": (SS_D, SS_N), "B": bc, "C": bc,
             "D": (SS_D,), "z": seq, "delta_bias": (SS_D,)}
        return s, [seq, (b, SS_D, SS_N)]
    if c.op == "mamba2":
        x = (b, L, M2_H, M2_P)
        bc = (b, L, c.groups, M2_N)
        state = (b, M2_H, M2_P, M2_N)
        s = {"x": x, "dt": (b, L, M2_H), "A": (M2_H,), "B": bc, "C": bc,
             "D": (M2_H,), "z": x, "dt_bias": (M2_H,), "initial": state}
        return s, [x, state]
    qk, v = (b, L, GD_H, GD_K), (b, L, GD_H, GD_V)
    state = (b, GD_H, GD_V, GD_K)
    s = {"q": qk, "k": qk, "v": v, "g": (b, L, GD_H), "beta": (b, L, GD_H),
         "initial": state}
    return s, [v, state]


def op_text(c, types, result_types):
    names = operands(c)
    text = f"rlx.{c.op} " + ", ".join(f"%{n}" for n in names[:5])
    extra = {"D": "D", "z": "z", "delta_bias": "delta_bias",
             "dt_bias": "dt_bias", "initial": "initial"}
    for n in names[5:]:
        text += f" {extra[n]}(%{n})"
    if c.softplus:
        text += " delta_softplus" if c.op == "selective_scan" \
            else " dt_softplus"
    if c.scale is not None:
        text += f" scale = {c.scale!r}"
    if c.chunk is not None:
        text += f" chunk = {c.chunk}"
    return (text + " : (" + ", ".join(types[n] for n in names) + ") -> ("
            + ", ".join(result_types) + ")")


def softplus(x):
    return np.logaddexp(0.0, x)


def make_inputs(c, b, L):
    """float64 inputs in realistic ranges, from the case's seed and the
    sizes (so that chunk twins see the same ones)."""
    r = np.random.default_rng([c.seed, b, L])
    s, _ = shapes(c, b, L)
    values = {}
    for n in operands(c):
        shape = s[n]
        if n in ("u", "x", "q", "v", "z", "B", "C", "D"):
            values[n] = r.standard_normal(shape)
        elif n in ("delta", "dt"):
            # softplus(N(-1, 0.5)) is about 0.2-0.6, as is the raw range.
            values[n] = (r.standard_normal(shape) * 0.5 - 1.0
                         if c.softplus else r.uniform(0.05, 0.6, shape))
        elif n in ("delta_bias", "dt_bias"):
            values[n] = (r.uniform(-0.5, 0.5, shape) if c.softplus
                         else r.uniform(0.0, 0.3, shape))
        elif n == "A":
            values[n] = -np.exp(r.standard_normal(shape) * 0.5)
        elif n == "initial":
            values[n] = r.standard_normal(shape) * 0.5
        elif n == "k":
            k = r.standard_normal(shape)
            values[n] = k / np.linalg.norm(k, axis=-1, keepdims=True)
        elif n == "g":
            values[n] = -softplus(-(r.standard_normal(shape) + 1.0))
        elif n == "beta":
            values[n] = 1.0 / (1.0 + np.exp(-r.standard_normal(shape)))
    return values


def reference(c, t, result_shapes):
    """The sequential reference on the torch tensors `t`: (out, state)."""
    L = result_shapes[0][2 if c.op == "selective_scan" else 1]
    if L == 0:
        # No steps (the references stack an empty list): empty outputs and
        # the initial state.
        out = torch.zeros(result_shapes[0], dtype=torch.float64)
        state = (t["initial"] * 1.0 if "initial" in t
                 else torch.zeros(result_shapes[1], dtype=torch.float64))
        return out, state
    if c.op == "selective_scan":
        return sequence.selective_scan(
            t["u"], t["delta"], t["A"], t["B"], t["C"], D=t.get("D"),
            z=t.get("z"), delta_bias=t.get("delta_bias"),
            delta_softplus=c.softplus, return_last_state=True)
    if c.op == "mamba2":
        return sequence.ssd(
            t["x"], t["dt"], t["A"], t["B"], t["C"], D=t.get("D"),
            z=t.get("z"), dt_bias=t.get("dt_bias"), dt_softplus=c.softplus,
            initial_state=t.get("initial"), return_final_state=True)
    return sequence.gated_delta_net(
        t["q"], t["k"], t["v"], t["g"], t["beta"],
        initial_state=t.get("initial"), return_final_state=True,
        scale=c.scale)


# --- The module of a case: @<name>_fwd and @<name>_loss --------------------

def module_text(c):
    b = None if c.dynamic_batch else c.batch
    L = None if c.dynamic_length else c.L
    s, results = shapes(c, b, L)
    names = operands(c)
    types = {n: tensor_type(s[n], c.dtype) for n in names}
    result_types = [tensor_type(r, c.dtype) for r in results]
    op = op_text(c, types, result_types)
    signature = ", ".join(f"%{n}: {types[n]}" for n in names)
    rt = ", ".join(result_types)
    scalar = f"tensor<{c.dtype}>"
    forward = (f"func.func @{c.name}_fwd({signature}) -> ({rt}) {{\n"
               f"  %r0, %r1 = {op}\n  return %r0, %r1 : {rt}\n}}\n")
    body = f"  %r0, %r1 = {op}\n"
    for i, (shape, t) in enumerate(zip(results, result_types)):
        axes = ", ".join(str(d) for d in range(len(shape)))
        body += (f"  %m{i} = rlx.mul %r{i}, %s{i} : ({t}, {t}) -> {t}\n"
                 f"  %l{i} = rlx.reduce sum %m{i} axes = [{axes}] : {t} -> "
                 f"{scalar}\n")
    body += (f"  %total = rlx.add %l0, %l1 : ({scalar}, {scalar}) -> "
             f"{scalar}\n")
    seeds = ", ".join(f"%s{i}: {t}" for i, t in enumerate(result_types))
    wrt = ", ".join(str(i) for i in range(len(names)))
    loss = (f"func.func @{c.name}_loss({signature}, {seeds}) -> {scalar} "
            f"attributes {{rlx.differentiate = array<i64: {wrt}>}} {{\n"
            f"{body}  return %total : {scalar}\n}}\n")
    return forward + loss


def close(name, got, want, tol):
    """Elementwise within tol of the largest magnitude of `want` (and tol
    relative): exact where `want` is all zeros."""
    want = np.asarray(want, dtype=np.float64)
    scale = float(np.abs(want).max()) if want.size else 0.0
    check_close(name, got, want, tol, tol * scale)


# --- Running a case ---------------------------------------------------------

results = {}  # (case name, batch, L) -> (out, state, loss and gradients)


def run_case(c, m):
    tol = TOL[c.dtype]
    np_type = np.float64 if c.dtype == "f64" else np.float32
    names = operands(c)
    for b, L in c.sizes or [(c.batch, c.L)]:
        label = f"{c.name}_{b}x{L}"
        _, result_shapes = shapes(c, b, L)
        args = [a.astype(np_type) for a in make_inputs(c, b, L).values()]
        # The reference in float64 from the same (f32-rounded) values.
        t = {n: torch.tensor(a.astype(np.float64), requires_grad=True)
             for n, a in zip(names, args)}
        out, state = reference(c, t, result_shapes)
        r = np.random.default_rng([c.seed, b, L, 1])
        seeds = [r.standard_normal(s) for s in result_shapes]
        loss = ((out * torch.tensor(seeds[0])).sum()
                + (state * torch.tensor(seeds[1])).sum())
        if loss.requires_grad:
            loss.backward()
        got = m[f"{c.name}_fwd"](*args)
        close(f"{label}_out", got[0], out.detach().numpy(), tol)
        close(f"{label}_state", got[1], state.detach().numpy(), tol)
        seed_args = [s.astype(np_type) for s in seeds]
        grads = m[f"{c.name}_loss_grad"](*args, *seed_args)
        close(f"{label}_loss", grads[0], loss.detach().numpy(), tol)
        for n, a, g in zip(names, args, grads[1:]):
            want = (t[n].grad.numpy() if t[n].grad is not None
                    else np.zeros(a.shape))
            close(f"{label}_d{n}", g, want, tol)
        results[(c.name, b, L)] = [got[0], got[1]] + list(grads)
        if c.fd:
            finite_differences(c, m, label, args, seed_args, grads)


def finite_differences(c, m, label, args, seed_args, grads, count=2,
                       h=1e-6, tol=1e-6):
    """Central differences of the compiled loss at `count` coordinates of
    every operand against the compiled gradients."""
    r = np.random.default_rng([c.seed, 2])
    for i, n in enumerate(operands(c)):
        for index in r.integers(0, args[i].size, count):
            plus = [a.copy() for a in args]
            minus = [a.copy() for a in args]
            plus[i].flat[index] += h
            minus[i].flat[index] -= h
            f = [float(m[f"{c.name}_loss"](*a, *seed_args))
                 for a in (plus, minus)]
            numeric = (f[0] - f[1]) / (2 * h)
            analytic = float(np.asarray(grads[1 + i]).flat[index])
            check(f"{label}_fd_d{n}_{index}",
                  abs(numeric - analytic) <= tol * max(1.0, abs(numeric)),
                  f"{analytic} vs {numeric}")


# --- The cases --------------------------------------------------------------

DYNAMIC = dict(dynamic_batch=True, dynamic_length=True,
               sizes=((2, 5), (1, 0), (3, 1)))
F32 = dict(dtype="f32")
# A `?` batch with a static length (the chunks padded) compiles 3-4 times
# slower than static shapes: once, on the cheapest op.
F32_BATCH = dict(dtype="f32", dynamic_batch=True, sizes=((2, 7), (3, 7)))

SS_ALL = dict(D=True, z=True, bias=True, softplus=True)
M2_ALL = dict(D=True, z=True, bias=True, softplus=True, initial=True)
cases = [
    # selective_scan
    Case("ss_plain", "selective_scan", L=7, chunk=4),
    Case("ss_D_z", "selective_scan", L=4, chunk=4, D=True, z=True),
    Case("ss_bias_g2", "selective_scan", L=3, chunk=4, bias=True, groups=2),
    Case("ss_softplus_D_g2", "selective_scan", L=1, chunk=4, softplus=True,
         D=True, groups=2),
    Case("ss_all_g2", "selective_scan", L=9, chunk=4, groups=2, fd=True,
         **SS_ALL),
    Case("ss_all_g2_chunk3", "selective_scan", L=9, chunk=3, groups=2,
         twin_of="ss_all_g2", **SS_ALL),
    Case("ss_all_default_chunk", "selective_scan", L=7, **SS_ALL),
    Case("ss_all_dynamic", "selective_scan", chunk=4, groups=2, **SS_ALL,
         **DYNAMIC),
    Case("ss_all_f32", "selective_scan", L=7, chunk=4, groups=2, **SS_ALL,
         **F32_BATCH),
    # mamba2
    Case("m2_plain", "mamba2", L=7, chunk=4, groups=1),
    Case("m2_D_z", "mamba2", L=4, chunk=4, groups=1, D=True, z=True),
    Case("m2_bias_softplus_initial_g2", "mamba2", L=3, chunk=4, groups=2,
         bias=True, softplus=True, initial=True),
    Case("m2_bias_D_initial_g2", "mamba2", L=1, chunk=4, groups=2,
         bias=True, D=True, initial=True),
    Case("m2_all_g2", "mamba2", L=9, chunk=4, groups=2, fd=True, **M2_ALL),
    Case("m2_all_g2_chunk2", "mamba2", L=9, chunk=2, groups=2,
         twin_of="m2_all_g2", **M2_ALL),
    Case("m2_all_default_chunk", "mamba2", L=7, groups=1, **M2_ALL),
    Case("m2_all_dynamic", "mamba2", chunk=4, groups=2, **M2_ALL,
         **DYNAMIC),
    Case("m2_all_f32", "mamba2", L=7, chunk=4, groups=2, **M2_ALL, **F32),
    # gated_delta_net
    Case("gdn_plain", "gated_delta_net", L=7, chunk=4),
    Case("gdn_initial", "gated_delta_net", L=4, chunk=4, initial=True),
    Case("gdn_scale_default_chunk", "gated_delta_net", L=3, scale=0.7),
    Case("gdn_one_step", "gated_delta_net", L=1, chunk=4),
    Case("gdn_all", "gated_delta_net", L=9, chunk=4, initial=True,
         scale=0.7, fd=True),
    Case("gdn_all_chunk8", "gated_delta_net", L=9, chunk=8, initial=True,
         scale=0.7, twin_of="gdn_all"),
    Case("gdn_all_dynamic", "gated_delta_net", chunk=4, initial=True,
         scale=0.7, **DYNAMIC),
    Case("gdn_all_f32", "gated_delta_net", L=7, chunk=4, initial=True,
         **F32),
]
for i, c in enumerate(cases):
    c.seed = 1000 + i
by_name = {c.name: c for c in cases}
for c in cases:
    if c.twin_of:
        c.seed = by_name[c.twin_of].seed


def compile_case(c):
    try:
        return rlx.compile(module_text(c))
    except rlx.Error as e:
        return e


rlx.get_num_threads()  # loads the runtime before the compiling threads
with concurrent.futures.ThreadPoolExecutor(2) as pool:
    modules = list(pool.map(compile_case, cases))

for c, m in zip(cases, modules):
    ok = not isinstance(m, rlx.Error)
    check(f"{c.name}_compiles", ok, "" if ok else str(m))
    if ok:
        run_case(c, m)

# Two chunk lengths: the same results (outputs, loss, gradients) within
# rounding.
for c in cases:
    if c.twin_of:
        key, twin_key = (c.twin_of, c.batch, c.L), (c.name, c.batch, c.L)
        if key in results and twin_key in results:
            for i, (a, b) in enumerate(zip(results[key],
                                           results[twin_key])):
                close(f"{c.name}_vs_{c.twin_of}_{i}", b, a, CHUNK_TOL)
        else:
            check(f"{c.name}_vs_{c.twin_of}", False, "a case did not run")
finish()
