# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# The scatters and the n-d gather (RlxScatterOps.td) against references
# written here as the ops' definitions (loops over the updates in row-major
# order, float64) and against PyTorch 1.13 where torch has the op:
# scatter_elements with every reduction, scatter_add, scatter_nd with batch
# dimensions and slices, gather_nd; repeated indices (last wins with none,
# accumulated in order otherwise), negative indices, out-of-range updates
# dropped (gathers clamp); integer and float element types; `?` sizes; 1 vs
# 2 threads bit for bit; the gradients of data and updates for every
# reduction (exact with zero factors for mul, shared ties for max/min)
# against autograd and the references' exact derivatives.
import itertools

import numpy as np
import torch

import rlx
from rlx_testing.checks import check, finish

rng = np.random.default_rng(18)

COMBINE = {
    "none": lambda cur, upd: upd,
    "add": lambda cur, upd: cur + upd,
    "mul": lambda cur, upd: cur * upd,
    "max": lambda cur, upd: max(cur, upd) if cur == cur and upd == upd
    else float("nan"),
    "min": lambda cur, upd: min(cur, upd) if cur == cur and upd == upd
    else float("nan"),
}


def wrap(index, n):
    """The coordinate an index writes, or None where it is dropped."""
    index = int(index)
    index = index + n if index < 0 else index
    return index if 0 <= index < n else None


def clamp(index, n):
    index = int(index)
    index = index + n if index < 0 else index
    return min(max(index, 0), n - 1)


def ref_scatter_elements(data, indices, updates, axis, reduction):
    out = data.astype(np.float64).copy() if data.dtype.kind == "f" \
        else data.copy()
    combine = COMBINE[reduction]
    for q in itertools.product(*map(range, indices.shape)):
        at = list(q)
        at[axis] = wrap(indices[q], data.shape[axis])
        if at[axis] is None:
            continue
        out[tuple(at)] = combine(out[tuple(at)], updates[q])
    return out


def ref_scatter_nd(data, indices, updates, reduction, batch=0):
    out = data.astype(np.float64).copy() if data.dtype.kind == "f" \
        else data.copy()
    combine = COMBINE[reduction]
    depth = indices.shape[-1]
    for q in itertools.product(*map(range, indices.shape[:-1])):
        coords = [wrap(indices[q][j], data.shape[batch + j])
                  for j in range(depth)]
        if None in coords:
            continue
        for s in itertools.product(*map(range, data.shape[batch + depth:])):
            at = tuple(q[:batch]) + tuple(coords) + s
            out[at] = combine(out[at], updates[q + s])
    return out


def ref_gather_nd(data, indices, batch=0):
    depth = indices.shape[-1]
    out = np.empty(indices.shape[:-1] + data.shape[batch + depth:],
                   data.dtype)
    for q in itertools.product(*map(range, indices.shape[:-1])):
        coords = [clamp(indices[q][j], data.shape[batch + j])
                  for j in range(depth)]
        out[q] = data[tuple(q[:batch]) + tuple(coords)]
    return out


def same(name, got, want, tol=0.0):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        check(name, False, f"shape {got.shape} != {want.shape}")
        return
    err = np.abs(got.astype(np.float64) - want.astype(np.float64))
    err = np.where(np.isnan(got.astype(np.float64)) &
                   np.isnan(want.astype(np.float64)), 0, err)
    check(name, bool(np.all(err <= tol)), f"max error {err.max()}")


def run(build, *arrays, threads=None, dtypes=None, dynamic=()):
    g = rlx.Graph("f")
    inputs = []
    for i, a in enumerate(arrays):
        shape = [None if (i, d) in dynamic else s
                 for d, s in enumerate(a.shape)]
        inputs.append(g.tensor(shape, dtype=a.dtype, name=f"a{i}"))
    g.output(build(g, *inputs))
    kwargs = {"threads": threads} if threads else {}
    return g.compile(**kwargs)(*arrays)


# scatter_elements: every reduction, three axes, indices smaller than the
# data outside the axis, repeated, negative and out-of-range indices.
data = rng.standard_normal((5, 6, 4)).astype(np.float32)
for axis, reduction in itertools.product((0, 1, -1),
                                          ("none", "add", "mul", "max",
                                           "min")):
    n = data.shape[axis]
    ishape = [4, 5, 3]
    indices = rng.integers(-n - 2, n + 2, ishape).astype(np.int64)
    updates = rng.standard_normal(ishape).astype(np.float32)
    got = run(lambda g, d, i, u: g.scatter_elements(
        d, i, u, axis=axis, reduction=reduction), data, indices, updates)
    want = ref_scatter_elements(data, indices, updates, axis % 3, reduction)
    same(f"scatter_elements_{reduction}_axis{axis}", got, want, 2e-6)

# Against torch where it has the op (indices in range and non-negative).
torch_reduce = {"add": "sum", "mul": "prod", "max": "amax", "min": "amin"}
indices = rng.integers(0, 6, (4, 5, 3)).astype(np.int64)
updates = rng.standard_normal((4, 5, 3)).astype(np.float32)
for reduction, name in torch_reduce.items():
    want = torch.from_numpy(data).double().scatter_reduce(
        1, torch.from_numpy(indices), torch.from_numpy(updates).double(),
        name, include_self=True)
    got = run(lambda g, d, i, u: g.scatter_elements(
        d, i, u, axis=1, reduction=reduction), data, indices, updates)
    same(f"scatter_elements_{reduction}_vs_torch", got, want.numpy(), 2e-6)
unique = np.stack([rng.permutation(6)[:5] for _ in range(12)]).reshape(
    4, 3, 5).transpose(0, 2, 1).copy()
want = torch.from_numpy(data).double().scatter(
    1, torch.from_numpy(unique), torch.from_numpy(updates).double())
got = run(lambda g, d, i, u: g.scatter_elements(d, i, u, axis=1,
                                                reduction="none"),
          data, unique, updates)
same("scatter_elements_none_vs_torch", got, want.numpy())
want = torch.from_numpy(data).double().scatter_add(
    1, torch.from_numpy(indices), torch.from_numpy(updates).double())
got = run(lambda g, d, i, u: g.scatter_add(d, i, u, axis=1), data, indices,
          updates)
same("scatter_add_vs_torch", got, want.numpy(), 2e-6)

# Last wins: every update of a row written to one position.
row = np.zeros((2, 3), np.float32)
got = run(lambda g, d, i, u: g.scatter_elements(d, i, u, axis=1,
                                                reduction="none"),
          row, np.array([[1, 1, 1, 1], [2, -1, 5, 0]], np.int64),
          np.array([[1, 2, 3, 4], [5, 6, 7, 8]], np.float32))
same("scatter_elements_last_wins", got, [[0, 4, 0], [8, 0, 6]])

# Integer and half types; i32 indices; NaN through max.
for dtype in (np.int32, np.int64, np.float64):
    d = (rng.integers(-9, 9, (6, 5)) if dtype != np.float64
         else rng.standard_normal((6, 5))).astype(dtype)
    i = rng.integers(-6, 6, (6, 5)).astype(np.int32)
    u = (rng.integers(-9, 9, (6, 5)) if dtype != np.float64
         else rng.standard_normal((6, 5))).astype(dtype)
    for reduction in ("add", "max", "none"):
        got = run(lambda g, a, b, c: g.scatter_elements(
            a, b, c, axis=0, reduction=reduction), d, i, u)
        same(f"scatter_elements_{np.dtype(dtype).name}_{reduction}", got,
             ref_scatter_elements(d, i, u, 0, reduction))
nan_data = np.array([[1.0, np.nan, 3.0]], np.float32)
got = run(lambda g, a, b, c: g.scatter_elements(a, b, c, axis=1,
                                                reduction="max"),
          nan_data, np.array([[0, 2]], np.int64),
          np.array([[np.nan, 7.0]], np.float32))
same("scatter_elements_max_nan", got, [[np.nan, np.nan, 7.0]])
f16 = rng.standard_normal((8, 16)).astype(np.float32)
i = rng.integers(0, 16, (8, 16)).astype(np.int64)
u = rng.standard_normal((8, 16)).astype(np.float32)
got = run(lambda g, a, b, c: g.cast(g.scatter_elements(
    g.cast(a, dtype="f16"), b, g.cast(c, dtype="f16"), axis=1,
    reduction="add"), dtype="f32"), f16, i, u)
same("scatter_elements_f16_add", got,
     ref_scatter_elements(f16.astype(np.float16).astype(np.float64), i,
                          u.astype(np.float16).astype(np.float64), 1, "add"),
     2e-2)

# `?` sizes, and 1 vs 2 threads bit for bit on a large scatter.
d = rng.standard_normal((7, 9)).astype(np.float32)
i = rng.integers(-9, 12, (5, 9)).astype(np.int64)
u = rng.standard_normal((5, 9)).astype(np.float32)
got = run(lambda g, a, b, c: g.scatter_elements(a, b, c, axis=1,
                                                reduction="add"),
          d, i, u, dynamic={(0, 0), (1, 0), (2, 0)})
same("scatter_elements_dynamic", got, ref_scatter_elements(d, i, u, 1,
                                                           "add"), 2e-6)
big = rng.standard_normal((512, 256)).astype(np.float32)
bi = rng.integers(0, 512, (512, 256)).astype(np.int64)
bu = rng.standard_normal((512, 256)).astype(np.float32)
outs = [run(lambda g, a, b, c: g.scatter_elements(a, b, c, axis=0,
                                                  reduction="add"),
            big, bi, bu, threads=t) for t in (1, 2)]
check("scatter_elements_threads", np.array_equal(outs[0], outs[1]))
same("scatter_elements_large", outs[0],
     torch.from_numpy(big).double().scatter_add(
         0, torch.from_numpy(bi), torch.from_numpy(bu).double()).numpy(),
     1e-4)

# scatter_nd: points and slices, batch dimensions, every reduction.
data = rng.standard_normal((4, 5, 6)).astype(np.float32)
cases = [((7, 2), 0), ((3, 2, 1), 0), ((6, 3), 0), ((4, 3, 1), 1),
         ((4, 2, 2), 1)]
for (ishape, batch), reduction in itertools.product(
        cases, ("none", "add", "mul", "max", "min")):
    depth = ishape[-1]
    bounds = data.shape[batch:batch + depth]
    indices = np.stack([rng.integers(-b - 1, b + 1, ishape[:-1])
                        for b in bounds], -1).astype(np.int64)
    if batch:
        indices = indices.reshape(ishape)
    ushape = ishape[:-1] + data.shape[batch + depth:]
    updates = rng.standard_normal(ushape).astype(np.float32)
    got = run(lambda g, d, i, u: g.scatter_nd(
        d, i, u, reduction=reduction, batch_dims=batch), data, indices,
        updates)
    same(f"scatter_nd_{'x'.join(map(str, ishape))}_b{batch}_{reduction}",
         got, ref_scatter_nd(data, indices, updates, reduction, batch), 2e-6)
# x[idx] = v in torch (index_put_ with unique positions).
idx = np.array([[0, 1], [3, 4], [2, 0]], np.int64)
upd = rng.standard_normal((3, 6)).astype(np.float32)
want = torch.from_numpy(data).double().clone()
want[idx[:, 0], idx[:, 1]] = torch.from_numpy(upd).double()
got = run(lambda g, d, i, u: g.scatter_nd(d, i, u, reduction="none"),
          data, idx, upd)
same("scatter_nd_vs_index_put", got, want.numpy())
got = run(lambda g, d, i, u: g.scatter_nd(d, i, u, reduction="add"),
          data, idx, upd, dynamic={(0, 0), (0, 2), (1, 0), (2, 0), (2, 1)})
same("scatter_nd_dynamic", got, ref_scatter_nd(data, idx, upd, "add"), 2e-6)

# gather_nd: clamped coordinates, batch dimensions, `?` sizes.
for ishape, batch in cases:
    depth = ishape[-1]
    bounds = data.shape[batch:batch + depth]
    indices = np.stack([rng.integers(-b - 2, b + 2, ishape[:-1])
                        for b in bounds], -1).astype(np.int64)
    got = run(lambda g, d, i: g.gather_nd(d, i, batch_dims=batch), data,
              indices)
    same(f"gather_nd_{'x'.join(map(str, ishape))}_b{batch}", got,
         ref_gather_nd(data, indices, batch))
got = run(lambda g, d, i: g.gather_nd(d, i), data, idx,
          dynamic={(0, 0), (0, 1), (1, 0)})
same("gather_nd_dynamic", got, ref_gather_nd(data, idx))
want = torch.from_numpy(data)[idx[:, 0], idx[:, 1]].numpy()
same("gather_nd_vs_torch", run(lambda g, d, i: g.gather_nd(d, i), data, idx),
     want)


# Gradients of sum(op(...) * t) for data and updates.
def grads(build, data, indices, updates, target):
    g = rlx.Graph("loss")
    d = g.tensor(data.shape, name="d")
    i = g.tensor(indices.shape, dtype="i64", name="i")
    u = g.tensor(updates.shape, name="u")
    t = g.tensor(target.shape, name="t")
    g.output(g.reduce(build(g, d, i, u) * t, kind="sum",
                      axes=list(range(len(target.shape)))))
    out = rlx.grad(g, wrt=[d, u]).compile()(data, indices, updates, target)
    return np.asarray(out[1]), np.asarray(out[2])


def exact_grads(data, indices, updates, target, axis, reduction, nd=False):
    """The derivatives of the loss from the definition: for each factor at a
    position, the result's derivative with respect to it."""
    d = data.astype(np.float64)
    u = updates.astype(np.float64)
    # The factors landing at each position, data's first.
    factors = {at: [("d", at, d[at])] for at in np.ndindex(d.shape)}
    if nd:
        depth = indices.shape[-1]
        for q in np.ndindex(indices.shape[:-1]):
            coords = [wrap(indices[q][j], d.shape[j]) for j in range(depth)]
            if None in coords:
                continue
            for s in np.ndindex(d.shape[depth:]):
                at = tuple(coords) + s
                factors[at].append(("u", q + s, u[q + s]))
    else:
        for q in np.ndindex(indices.shape):
            at = list(q)
            at[axis] = wrap(indices[q], d.shape[axis])
            if at[axis] is not None:
                factors[tuple(at)].append(("u", q, u[q]))
    gd, gu = np.zeros_like(d), np.zeros_like(u)
    for at, fs in factors.items():
        w = target[at]
        values = [v for _, _, v in fs]
        for k, (kind, where, v) in enumerate(fs):
            if reduction == "none":
                share = 1.0 if k == len(fs) - 1 else 0.0
            elif reduction == "add":
                share = 1.0
            elif reduction == "mul":
                share = np.prod(values[:k] + values[k + 1:])
            else:
                best = max(values) if reduction == "max" else min(values)
                share = (v == best) / sum(x == best for x in values)
            (gd if kind == "d" else gu)[where] += w * share
    return gd, gu


data = rng.standard_normal((4, 6)).astype(np.float32)
indices = rng.integers(-7, 8, (3, 6)).astype(np.int64)
updates = rng.standard_normal((3, 6)).astype(np.float32)
# Zero factors for mul (one and two at a position), ties for max/min.
data[0, 0] = 0.0
updates[0, 0], updates[1, 0], updates[2, 1] = 0.0, 0.0, 0.0
tied = np.round(rng.standard_normal((4, 6)) * 2).astype(np.float32)
tied_updates = np.round(rng.standard_normal((3, 6)) * 2).astype(np.float32)
target = rng.standard_normal((4, 6)).astype(np.float32)
for reduction in ("none", "add", "mul", "max", "min"):
    d, u = (tied, tied_updates) if reduction in ("max", "min") else (
        data, updates)
    for axis in (0, 1):
        got = grads(lambda g, a, i, b: g.scatter_elements(
            a, i, b, axis=axis, reduction=reduction), d, indices, u, target)
        want = exact_grads(d, indices, u, target, axis, reduction)
        same(f"grad_data_scatter_elements_{reduction}_axis{axis}", got[0],
             want[0], 1e-5)
        same(f"grad_updates_scatter_elements_{reduction}_axis{axis}", got[1],
             want[1], 1e-5)
got = grads(lambda g, a, i, b: g.scatter_add(a, i, b, axis=1), data,
            indices, updates, target)
want = exact_grads(data, indices, updates, target, 1, "add")
same("grad_data_scatter_add", got[0], want[0], 1e-6)
same("grad_updates_scatter_add", got[1], want[1], 1e-6)

# Against autograd: torch's scatter_reduce (in-range indices, no zeros).
pos = rng.integers(0, 6, (3, 6)).astype(np.int64)
upd = rng.standard_normal((3, 6)).astype(np.float32) + 3
base = rng.standard_normal((4, 6)).astype(np.float32) + 3
for reduction, name in torch_reduce.items():
    td = torch.from_numpy(base).double().requires_grad_()
    tu = torch.from_numpy(upd).double().requires_grad_()
    loss = (td.scatter_reduce(1, torch.from_numpy(pos), tu, name,
                              include_self=True)
            * torch.from_numpy(target).double()).sum()
    loss.backward()
    got = grads(lambda g, a, i, b: g.scatter_elements(
        a, i, b, axis=1, reduction=reduction), base, pos, upd, target)
    same(f"grad_data_{reduction}_vs_autograd", got[0], td.grad.numpy(), 1e-5)
    same(f"grad_updates_{reduction}_vs_autograd", got[1], tu.grad.numpy(),
         1e-5)

# scatter_nd's gradients (slices of 6 at 2-d positions into [4, 5, 6]).
data = rng.standard_normal((4, 5, 6)).astype(np.float32)
indices = np.stack([rng.integers(-5, 6, 7), rng.integers(-6, 6, 7)],
                   -1).astype(np.int64)
indices[3] = indices[1]
updates = rng.standard_normal((7, 6)).astype(np.float32)
target = rng.standard_normal((4, 5, 6)).astype(np.float32)
for reduction in ("none", "add", "mul", "max", "min"):
    got = grads(lambda g, a, i, b: g.scatter_nd(a, i, b, reduction=reduction),
                data, indices, updates, target)
    want = exact_grads(data, indices, updates, target, None, reduction,
                       nd=True)
    same(f"grad_data_scatter_nd_{reduction}", got[0], want[0], 1e-5)
    same(f"grad_updates_scatter_nd_{reduction}", got[1], want[1], 1e-5)

# gather_nd's gradient against autograd of advanced indexing (clamped
# coordinates made explicit for torch).
indices = np.stack([rng.integers(-6, 6, (3, 4)), rng.integers(-7, 7, (3, 4))],
                   -1).astype(np.int64)
g = rlx.Graph("loss")
d_in = g.tensor(data.shape, name="d")
i_in = g.tensor(indices.shape, dtype="i64", name="i")
t_in = g.tensor((3, 4, 6), name="t")
g.output(g.reduce(g.gather_nd(d_in, i_in) * t_in, kind="sum",
                  axes=[0, 1, 2]))
t = rng.standard_normal((3, 4, 6)).astype(np.float32)
got = rlx.grad(g, wrt=[d_in]).compile()(data, indices, t)
td = torch.from_numpy(data).double().requires_grad_()
rows = torch.tensor([[clamp(v, 4) for v in r] for r in indices[..., 0]])
cols = torch.tensor([[clamp(v, 5) for v in r] for r in indices[..., 1]])
(td[rows, cols] * torch.from_numpy(t).double()).sum().backward()
same("grad_gather_nd", np.asarray(got[1]), td.grad.numpy(), 1e-6)

finish()
