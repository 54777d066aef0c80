# RUN: %oracle_python %s
# RUN: env RLX_TEST_TARGET=gpu-blocks-descending %oracle_python %s
# Dynamic shapes for the indexing and scan families: gather (an embedding
# lookup with `?` batch and sequence, and a gather from a `?` axis, whose
# clamping reads the axis length at run time), gather_elements, pad in every
# mode on `?` dimensions, tile, reverse and roll along `?` axes (coordinates
# computed from the run-time length), trilu, kv_append into a cache of
# run-time length, dot_general, argmax/argmin, the cumulative scans and
# topk over `?` rows and row lengths. One compiled module per function, run
# at sizes 1, odd and larger than a tile, against PyTorch (float64 where
# values are computed). The second RUN line runs the GPU's kernels on the
# CPU.
import numpy as np
import torch
import torch.nn.functional as F
from rlx_testing import Suite

rng = np.random.default_rng(1516)
s = Suite()
F32_TOL = (2e-5, 2e-6)


def randn(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def indices(high, *shape):
    """Indices in [-high, high + 2): some wrap, some clamp."""
    return rng.integers(-high, high + 2, shape).astype(np.int64)


# --- gathers ------------------------------------------------------------------


def clamp_rule(i, n):
    i = torch.where(i < 0, i + n, i)
    return i.clamp(0, n - 1)


table = randn(50, 8)
s.dynamic_case(
    "gathers",
    """%r0 = rlx.gather %a0, %a1 axis = 0 : (tensor<50x8xf32>, tensor<?x?xi64>) -> tensor<?x?x8xf32>
  %r1 = rlx.gather %a2, %a3 axis = 1 : (tensor<3x?xf32>, tensor<?xi64>) -> tensor<3x?xf32>
  %r2 = rlx.gather_elements %a4, %a5 axis = 1 : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>""",
    ["tensor<50x8xf32>", "tensor<?x?xi64>", "tensor<3x?xf32>",
     "tensor<?xi64>", "tensor<?x?xf32>", "tensor<?x?xi64>"],
    ["tensor<?x?x8xf32>", "tensor<3x?xf32>", "tensor<?x?xf32>"],
    [[table, indices(50, b, t), randn(3, n), indices(n, m), randn(b, n),
      indices(n, b, m)]
     for b, t, n, m in ((1, 1, 1, 1), (2, 7, 5, 9), (3, 40, 37, 70))],
    lambda tab, ids, x, j, y, k: (
        tab[clamp_rule(ids, 50)], x[:, clamp_rule(j, x.shape[1])],
        torch.gather(y, 1, clamp_rule(k, y.shape[1]))))

# --- pad, tile, reverse, roll, trilu --------------------------------------------


def torch_pad(x, mode, pads):
    """rlx pads [lo0, hi0, lo1, hi1] of a rank-2 tensor through F.pad, which
    wants a batch and channel for the non-constant modes."""
    flat = [pads[2], pads[3], pads[0], pads[1]]
    if mode == "constant":
        return F.pad(x, flat, value=1.5)
    return F.pad(x[None, None], flat, mode=mode)[0, 0]


X = "tensor<?x?xf32>"
PADS = [1, 2, 2, 1]
s.dynamic_case(
    "pad",
    "\n  ".join(
        f"%r{i} = rlx.pad {mode} %a0 pads = {PADS}"
        f"{' value = 1.5' if mode == 'constant' else ''} : {X} -> {X}"
        for i, mode in enumerate(("constant", "reflect", "replicate",
                                  "circular"))),
    [X], [X] * 4,
    [[randn(m, n)] for m, n in ((3, 3), (5, 9), (33, 70))],
    lambda x: tuple(torch_pad(x, mode, PADS) for mode in
                    ("constant", "reflect", "replicate", "circular")))

s.dynamic_case(
    "copies",
    f"""%r0 = rlx.tile %a0 reps = [2, 3] : {X} -> {X}
  %r1 = rlx.reverse %a0 axes = [0, 1] : {X}
  %r2 = rlx.roll %a0 shifts = [1, -7, 3] dims = [0, 1, 0] : {X}
  %r3 = rlx.trilu upper %a0 diagonal = 1 : {X}
  %r4 = rlx.trilu lower %a0 diagonal = -1 : {X}""",
    [X], [X] * 5,
    [[randn(m, n)] for m, n in ((1, 1), (5, 9), (33, 70))],
    lambda x: (x.repeat(2, 3), x.flip(0, 1), torch.roll(x, (4, -7), (0, 1)),
               torch.triu(x, 1), torch.tril(x, -1)))

# --- kv_append into a cache of run-time length ----------------------------------


def kv_append(cache, update, position):
    start = int(min(max(int(position), 0), cache.shape[1] - update.shape[1]))
    out = cache.clone()
    out[:, start:start + update.shape[1]] = update
    return out


CACHE, UPDATE = "tensor<1x?x2x8xf32>", "tensor<1x?x2x8xf32>"
s.dynamic_case(
    "kv_append",
    f"%r = rlx.kv_append %a0, %a1 at %a2 axis = 1 : {CACHE}, {UPDATE}, "
    "tensor<i64>",
    [CACHE, UPDATE, "tensor<i64>"], CACHE,
    [[randn(1, c, 2, 8), randn(1, u, 2, 8), np.array(p, np.int64)]
     for c, u, p in ((1, 1, 0), (9, 1, 4), (9, 3, 8), (40, 5, -3))],
    kv_append)

# --- dot_general ------------------------------------------------------------------

s.dynamic_case(
    "dot_general",
    "%r = rlx.dot_general %a0, %a1 batching_dims = [0] x [1], "
    "contracting_dims = [2] x [0] : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> "
    "tensor<?x?x?xf32>",
    ["tensor<?x?x?xf32>", "tensor<?x?x?xf32>"], "tensor<?x?x?xf32>",
    [[randn(b, m, k), randn(k, b, n)]
     for b, m, k, n in ((1, 1, 1, 1), (2, 5, 9, 3), (3, 33, 17, 40))],
    lambda a, b: torch.einsum("bmk,kbn->bmn", a, b), tol=F32_TOL)

# --- argmax/argmin, scans, topk ------------------------------------------------------

s.dynamic_case(
    "arg_reduce",
    f"""%r0 = rlx.argmax %a0 axis = 1 : {X} -> tensor<?xi64>
  %r1 = rlx.argmin %a0 axis = 0 keep_dim : {X} -> tensor<1x?xi32>""",
    [X], ["tensor<?xi64>", "tensor<1x?xi32>"],
    [[randn(m, n)] for m, n in ((1, 1), (5, 9), (33, 70))],
    lambda x: (x.argmax(1), x.argmin(0, keepdim=True).int()))


def exclusive_cumsum(x, axis):
    return torch.cumsum(x, axis) - x


s.dynamic_case(
    "scans",
    f"""%r0 = rlx.cumsum %a0 axis = 1 : {X}
  %r1 = rlx.cumsum %a0 axis = 0 exclusive : {X}
  %r2 = rlx.cumprod %a1 axis = -1 : {X}
  %r3 = rlx.cummax %a0 axis = 1 : {X}""",
    [X, X], [X] * 4,
    [[randn(m, n), rng.uniform(0.8, 1.2, (m, n)).astype(np.float32)]
     for m, n in ((1, 1), (5, 9), (33, 70))],
    lambda x, y: (torch.cumsum(x, 1), exclusive_cumsum(x, 0),
                  torch.cumprod(y, -1), torch.cummax(x, 1).values),
    tol=F32_TOL)


def topk(x, k, smallest):
    order = torch.sort(x, dim=-1, descending=not smallest, stable=True)
    return order.values[..., :k], order.indices[..., :k]


s.dynamic_case(
    "topk",
    f"""%v0, %i0 = rlx.topk %a0 k = 3 : {X} -> tensor<?x3xf32>, tensor<?x3xi64>
  %v1, %i1 = rlx.topk %a0 k = 1 smallest : {X} -> tensor<?x1xf32>, tensor<?x1xi64>
  return %v0, %i0, %v1, %i1 : tensor<?x3xf32>, tensor<?x3xi64>, tensor<?x1xf32>, tensor<?x1xi64>""",
    [X], ["tensor<?x3xf32>", "tensor<?x3xi64>", "tensor<?x1xf32>",
          "tensor<?x1xi64>"],
    [[randn(m, n)] for m, n in ((1, 3), (5, 9), (33, 70))],
    lambda x: (*topk(x, 3, False), *topk(x, 1, True)))

s.run()
