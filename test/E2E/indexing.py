# RUN: %oracle_python %s
# REQUIRES: torch
# gather (index_select / embedding), gather_elements (torch.gather), pad (all
# modes, F.pad), tile, reverse (flip), trilu (triu/tril), roll, kv_append
# (slice assignment) and dot_general (einsum). Out-of-range gather indices
# follow the documented rule: [-n, 0) wraps once, the rest clamps.
import numpy as np
import torch
import torch.nn.functional as F
from rlx_testing import Suite, elem_of, type_of, ttype

rng = np.random.default_rng(11)
s = Suite(fold=True)


def randn(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


def ranged_indices(index, n):
    """The rlx rule for an index into an axis of size n."""
    index = torch.where(index < 0, index + n, index)
    return index.clamp(0, n - 1)


# gather: result = table shape with `axis` replaced by the indices' shape.
def gather_case(name, table, indices, axis):
    a = axis % table.ndim
    shape = table.shape[:a] + indices.shape + table.shape[a + 1:]
    out = ttype(shape, elem_of(table))

    def ref(t, i):
        picked = t.index_select(a, ranged_indices(i, t.shape[a]).reshape(-1))
        return picked.reshape(shape)
    s.case(name, f"%r = rlx.gather %a0, %a1 axis = {axis} : "
           f"({type_of(table)}, {type_of(indices)}) -> {out}",
           [table, indices], ref, out=out, tol="exact")


emb = randn(10, 4)
tokens = rng.integers(0, 10, (2, 3))
gather_case("gather_embedding_i64", emb, tokens.astype(np.int64), 0)
s.case("gather_matches_embedding",
       "%r = rlx.gather %a0, %a1 axis = 0 : (tensor<10x4xf32>, "
       "tensor<2x3xi64>) -> tensor<2x3x4xf32>",
       [emb, tokens.astype(np.int64)], lambda t, i: F.embedding(i, t),
       out="tensor<2x3x4xf32>", tol="exact")
gather_case("gather_axis1_i32", randn(3, 7, 2), rng.integers(0, 7, (5,))
            .astype(np.int32), 1)
gather_case("gather_last_axis_2d_indices", randn(2, 3, 5, dtype=np.float16),
            rng.integers(0, 5, (2, 2)).astype(np.int64), -1)
gather_case("gather_rank0_index", randn(4, 6), np.array(2, np.int32), 1)
gather_case("gather_size1_axis", randn(1, 3), np.zeros((4,), np.int64), 0)
gather_case("gather_out_of_range_i64", emb,
            np.array([-1, -10, 10, 25, -11, -1000, 3], np.int64), 0)
gather_case("gather_out_of_range_i32", randn(3, 5).astype(np.int64),
            np.array([[2**31 - 1, -2**31], [5, -4]], np.int32), 1)

# gather_elements: torch.gather.
def gather_elements_case(name, x, indices, axis):
    out = ttype(indices.shape, elem_of(x))

    def ref(t, i):
        a = axis % t.dim()
        return torch.gather(t, a, ranged_indices(i, t.shape[a]))
    s.case(name, f"%r = rlx.gather_elements %a0, %a1 axis = {axis} : "
           f"({type_of(x)}, {type_of(indices)}) -> {out}",
           [x, indices], ref, out=out, tol="exact")


x34 = randn(3, 4)
gather_elements_case("gather_elements_axis0", x34,
                     rng.integers(0, 3, (2, 4)).astype(np.int64), 0)
gather_elements_case("gather_elements_axis1_i32_smaller", x34,
                     rng.integers(0, 4, (2, 3)).astype(np.int32), 1)
gather_elements_case("gather_elements_3d_neg_axis", randn(2, 3, 5),
                     rng.integers(0, 5, (2, 3, 7)).astype(np.int64), -1)
gather_elements_case("gather_elements_out_of_range", x34,
                     np.array([[-1, 3, 4, -5], [9, -4, 0, -100]], np.int64), 1)


# pad: pads are [lo0, hi0, lo1, hi1, ...] from dimension 0. F.pad takes the
# trailing dimensions last-first and, outside constant mode, wants one or two
# leading batch dimensions, which the reference adds when the case lacks them.
def pad_case(name, x, mode, pads, value=None):
    shape = [n + pads[2 * d] + pads[2 * d + 1] for d, n in enumerate(x.shape)]
    out = ttype(shape, elem_of(x))
    padded = [d for d in range(x.ndim) if pads[2 * d] or pads[2 * d + 1]]
    first = padded[0] if padded else x.ndim
    torch_pads = []
    for d in reversed(range(first, x.ndim)):
        torch_pads += [pads[2 * d], pads[2 * d + 1]]
    attrs = "" if value is None else f" value = {value}"

    def ref(t):
        if mode == "constant":
            return F.pad(t, torch_pads, value=0.0 if value is None else value)
        lead = max(0, 2 - first)
        t = t.reshape((1,) * lead + tuple(t.shape))
        # replicate/reflect/circular are not implemented for integers.
        r = F.pad(t.double(), torch_pads, mode=mode).to(t.dtype)
        return r.reshape(shape)
    s.case(name, f"%r = rlx.pad {mode} %a0 pads = {pads}{attrs} : "
           f"{type_of(x)} -> {out}", [x], ref, out=out, tol="exact")


x235 = randn(2, 3, 5)
x2345 = randn(2, 3, 4, 5)
pad_case("pad_constant_all_dims", x235, "constant", [1, 0, 0, 2, 3, 1])
pad_case("pad_constant_value", x235, "constant", [0, 0, 2, 2, 0, 1], -1.5)
pad_case("pad_constant_i32", rng.integers(-9, 9, (3, 4)).astype(np.int32),
         "constant", [1, 2, 0, 3], 7.0)
pad_case("pad_constant_f16", x235.astype(np.float16), "constant",
         [0, 0, 1, 1, 1, 1], 0.25)
# Negative pads crop (F.pad does the same), alone or mixed with positive
# ones (F.pad rejects a crop to nothing: test/Conversion covers that).
pad_case("pad_constant_crop", x235, "constant", [0, -1, -1, 2, -2, -1], 3.0)
pad_case("pad_constant_crop_to_one", x235, "constant", [0, 0, -1, -1, 1, 0])
pad_case("pad_reflect_last", x235, "reflect", [0, 0, 0, 0, 2, 3])
pad_case("pad_reflect_len_minus_1", x235, "reflect", [0, 0, 0, 0, 4, 4])
pad_case("pad_reflect_2d", x2345, "reflect", [0, 0, 0, 0, 3, 1, 1, 4])
pad_case("pad_reflect_whole_2d", randn(3, 4), "reflect", [2, 1, 3, 3])
pad_case("pad_replicate_last", x235, "replicate", [0, 0, 0, 0, 7, 2])
pad_case("pad_replicate_2d", x2345, "replicate", [0, 0, 0, 0, 5, 0, 2, 6])
pad_case("pad_replicate_size1", randn(2, 3, 1), "replicate",
         [0, 0, 0, 0, 2, 3])
pad_case("pad_replicate_i64", rng.integers(-9, 9, (2, 3, 4)),
         "replicate", [0, 0, 0, 0, 1, 2])
pad_case("pad_circular_last", x235, "circular", [0, 0, 0, 0, 2, 1])
pad_case("pad_circular_full_length", x235, "circular", [0, 0, 0, 0, 5, 5])
pad_case("pad_circular_2d", x2345, "circular", [0, 0, 0, 0, 4, 1, 0, 3])

# tile: numpy tile with one rep per dimension.
for name, x, reps in (("tile_2d", x34, [2, 3]),
                      ("tile_3d_ones", x235, [1, 2, 1]),
                      ("tile_size1", randn(1, 3), [4, 1]),
                      ("tile_i1", x34 > 0, [2, 2])):
    shape = [n * r for n, r in zip(x.shape, reps)]
    out = ttype(shape, elem_of(x))
    s.case(name, f"%r = rlx.tile %a0 reps = {reps} : {type_of(x)} -> {out}",
           [x], lambda t, reps=reps: torch.tile(t, reps), out=out,
           tol="exact")

# reverse: torch.flip.
for name, x, axes in (("reverse_axis0", x34, [0]),
                      ("reverse_two_axes", x235, [0, -1]),
                      ("reverse_all_odd", randn(3, 5, 7), [0, 1, 2]),
                      ("reverse_size1_i32", rng.integers(0, 9, (1, 4))
                       .astype(np.int32), [0, 1])):
    s.case(name, f"%r = rlx.reverse %a0 axes = {axes} : {type_of(x)}", [x],
           lambda t, axes=axes: torch.flip(t, axes), out=type_of(x),
           tol="exact")

# trilu: torch.triu / torch.tril over the last two dims.
for part, fn in (("upper", torch.triu), ("lower", torch.tril)):
    for name, x, diagonal in (("square", randn(4, 4), 0),
                              ("wide_pos", randn(3, 5), 2),
                              ("tall_neg", randn(5, 3), -1),
                              ("batched", randn(2, 3, 4), 1),
                              ("beyond", randn(3, 4), 7),
                              ("below", randn(3, 4), -6),
                              ("i1", randn(3, 3) > 0, -1)):
        s.case(f"trilu_{part}_{name}",
               f"%r = rlx.trilu {part} %a0 diagonal = {diagonal} : "
               f"{type_of(x)}", [x],
               lambda t, fn=fn, k=diagonal: fn(t, k), out=type_of(x),
               tol="exact")

# roll: torch.roll, including negative, oversized and repeated shifts.
for name, x, shifts, dims in (("roll_one", x34, [1], [1]),
                              ("roll_negative", x34, [-1], [0]),
                              ("roll_oversized", x235, [13, -11], [2, 1]),
                              ("roll_repeated_dim", x235, [2, 4], [-1, 2]),
                              ("roll_full_turn", x34, [4], [1]),
                              ("roll_size1_i64", rng.integers(0, 9, (1, 5)),
                               [3, 2], [0, 1])):
    s.case(name, f"%r = rlx.roll %a0 shifts = {shifts} dims = {dims} : "
           f"{type_of(x)}", [x],
           lambda t, sh=shifts, d=dims: torch.roll(t, sh, d),
           out=type_of(x), tol="exact")


# kv_append: slice assignment at the clamped position.
def kv_case(name, cache, update, position, axis):
    a = axis % cache.ndim

    def ref(c, u, p):
        rows, length = u.shape[a], c.shape[a]
        start = int(min(max(int(p), 0), length - rows))
        c = c.clone()
        index = [slice(None)] * c.dim()
        index[a] = slice(start, start + rows)
        c[tuple(index)] = u
        return c
    s.case(name, f"%r = rlx.kv_append %a0, %a1 at %a2 axis = {axis} : "
           f"{type_of(cache)}, {type_of(update)}, {type_of(position)}",
           [cache, update, position], ref, out=type_of(cache), tol="exact")


cache = randn(2, 8, 3)
row = randn(2, 1, 3)
rows3 = randn(2, 3, 3)
kv_case("kv_append_first", cache, row, np.array(0, np.int64), 1)
kv_case("kv_append_middle_i32", cache, row, np.array(5, np.int32), 1)
kv_case("kv_append_last_row", cache, row, np.array(7, np.int64), -2)
kv_case("kv_append_rows_at_end", cache, rows3, np.array(5, np.int64), 1)
kv_case("kv_append_past_end_clamps", cache, rows3, np.array(7, np.int64), 1)
kv_case("kv_append_huge_clamps", cache, row, np.array(2**40, np.int64), 1)
kv_case("kv_append_negative_clamps", cache, rows3, np.array(-2, np.int32), 1)
kv_case("kv_append_axis0_whole", randn(4, 3), randn(4, 3),
        np.array(1, np.int64), 0)
kv_case("kv_append_f16", cache.astype(np.float16), row.astype(np.float16),
        np.array(3, np.int64), 1)


# dot_general against torch.einsum.
def dot_case(name, lhs, rhs, lb, rb, lc, rc, tol=None):
    letters = iter("abcdefghijklmnop")
    lsub, rsub = [None] * lhs.ndim, [None] * rhs.ndim
    for l, r in zip(lb + lc, rb + rc):
        lsub[l] = rsub[r] = next(letters)
    for subs in (lsub, rsub):
        for d, v in enumerate(subs):
            subs[d] = v or next(letters)
    free_l = [lsub[d] for d in range(lhs.ndim) if d not in lb + lc]
    free_r = [rsub[d] for d in range(rhs.ndim) if d not in rb + rc]
    out_sub = [lsub[d] for d in lb] + free_l + free_r
    equation = f"{''.join(lsub)},{''.join(rsub)}->{''.join(out_sub)}"
    shape = [lhs.shape[d] for d in lb]
    shape += [lhs.shape[d] for d in range(lhs.ndim) if d not in lb + lc]
    shape += [rhs.shape[d] for d in range(rhs.ndim) if d not in rb + rc]
    out = ttype(shape, elem_of(lhs))
    s.case(name, f"%r = rlx.dot_general %a0, %a1 batching_dims = {lb} x {rb}"
           f", contracting_dims = {lc} x {rc} : ({type_of(lhs)}, "
           f"{type_of(rhs)}) -> {out}", [lhs, rhs],
           lambda l, r: torch.einsum(equation, l, r), out=out, tol=tol)


dot_case("dot_general_bmm", randn(2, 3, 4), randn(2, 4, 5), [0], [0], [2],
         [1])
dot_case("dot_general_matmul", randn(3, 4), randn(4, 5), [], [], [1], [0])
dot_case("dot_general_permuted", randn(4, 3, 2), randn(5, 2, 4), [2], [1],
         [0], [2])
dot_case("dot_general_two_contracting", randn(3, 4, 5), randn(5, 6, 4), [],
         [], [1, 2], [2, 0])
dot_case("dot_general_outer", randn(3), randn(4), [], [], [], [])
dot_case("dot_general_dot", randn(7), randn(7), [], [], [0], [0])
dot_case("dot_general_f64", randn(2, 3, 5, dtype=np.float64),
         randn(3, 5, 2, dtype=np.float64), [0], [2], [2], [1])
dot_case("dot_general_f16", randn(2, 16, 3, dtype=np.float16),
         randn(2, 16, 4, dtype=np.float16), [0], [0], [1], [1])
dot_case("dot_general_i32", rng.integers(-5, 5, (2, 3, 4)).astype(np.int32),
         rng.integers(-5, 5, (4, 2)).astype(np.int32), [], [], [2], [0])
s.run()
