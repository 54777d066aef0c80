# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# The sort family (RlxSortOps.td, and rlx.topk) against PyTorch 1.13 with
# float64 references: sort and argsort as torch.sort(stable=True) (values
# bit for bit, indices exactly) along every axis, ascending and descending,
# over ties, NaN, +-inf, -0.0, odd and long lines (many merge passes), f16,
# bf16, f32, f64, i8, i32 and i64; topk as the stable sort's first k
# columns (and torch.topk's values), k = 1 to n and a long line; the
# indices of torch.cummax (the latest of equal maxima, NaN taking over);
# histogram as torch.histc (f64 bit for bit; f32 bit for bit away from bin
# edges and as its stated formula everywhere; NaN not counted, which torch
# 1.13 counts in the first bin). `?` sizes, 0 rows and empty lines; 1 and 2
# threads give identical bits; the gradients of sort's and topk's values
# against autograd, and none through histogram (as through torch.histc).
import numpy as np
import torch

import rlx
from rlx_testing.checks import check, finish

rng = np.random.default_rng(18)
inf, nan = float("inf"), float("nan")
NP_ELEMENT = {np.float16: "f16", np.float32: "f32", np.float64: "f64",
              np.int8: "i8", np.int32: "i32", np.int64: "i64"}


def ttype(shape, element):
    return "tensor<" + "".join(f"{'?' if d is None else d}x"
                               for d in shape) + f"{element}>"


def ties(shape, dtype=np.float32, values=5):
    """Entries from a few values: most lines have repeated ones."""
    return rng.integers(-(values // 2), values - values // 2,
                        shape).astype(dtype)


def same(name, got, want):
    """Bit-for-bit equality (NaN equal to NaN, -0.0 distinct from 0.0)."""
    got, want = np.asarray(got), np.asarray(want)
    ok = got.shape == want.shape and got.dtype == want.dtype
    if ok and got.dtype.kind == "f":
        ok = np.array_equal(got.view(f"u{got.itemsize}"),
                            want.view(f"u{want.itemsize}"))
    elif ok:
        ok = np.array_equal(got, want)
    check(name, ok, f"got {got!r}, want {want!r}" if got.size < 64 else
          f"{np.sum(got != want)} elements differ")


def function(name, body, args, results):
    """A func.func named `name` of `args` (MLIR types) returning `results`
    (the last values `body` defines are %r0, %r1, ...)."""
    params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(args))
    names = ", ".join(f"%r{i}" for i in range(len(results)))
    return (f"func.func @{name}({params}) -> ({', '.join(results)}) {{\n"
            f"  {body}\n  return {names} : {', '.join(results)}\n}}\n")


def compile_functions(functions, **options):
    return rlx.compile("\n".join(functions), **options)


def torch_sort(x, axis, descending):
    """torch.sort(stable=True) in float64 (integers as they are): values in
    x's dtype, indices."""
    t = torch.from_numpy(x)
    if x.dtype.kind == "f":
        t = t.double()
    values, indices = torch.sort(t, dim=axis, descending=descending,
                                 stable=True)
    return values.numpy().astype(x.dtype), indices.numpy()


# --- sort and argsort -------------------------------------------------------

SORTS = []  # (name, input, axis, descending)
x3 = ties((3, 5, 7))
for axis in (0, 1, 2, -1, -3):
    for descending in (False, True):
        SORTS.append((f"axis{axis}".replace("-", "neg")
                      + ("_desc" if descending else ""), x3, axis,
                      descending))
special = ties((6, 13))
special[0, [1, 4, 9]] = nan
special[1, :] = nan
special[2, [0, 5]] = -inf
special[2, [3, 12]] = inf
special[3, :6] = -0.0
special[3, 6:] = 0.0
special[4, [2, 3]] = [nan, -inf]
for descending in (False, True):
    tag = "_desc" if descending else ""
    SORTS += [(f"special{tag}", special, 1, descending),
              (f"special_axis0{tag}", special, 0, descending),
              (f"rank1_odd{tag}", ties((33,)), 0, descending),
              (f"rank1_len1{tag}", ties((1,)), 0, descending),
              (f"rank1_len2{tag}", np.array([2.0, 1.0], np.float32), 0,
               descending),
              (f"long{tag}", rng.standard_normal((2, 1025)).astype(
                  np.float32), 1, descending),
              (f"long_ties{tag}", ties((3, 1000), values=7), -1, descending),
              (f"rank4{tag}", ties((2, 3, 1, 6)), 3, descending),
              (f"size1_axis{tag}", ties((4, 1, 3)), 1, descending),
              (f"f16{tag}", ties((4, 9), np.float16) / 2, 1, descending),
              (f"f64{tag}", rng.standard_normal((5, 8)), 0, descending),
              (f"i8{tag}", ties((3, 11), np.int8, values=200), 1, descending),
              (f"i32{tag}", ties((4, 10), np.int32, values=9), 1, descending),
              (f"i64{tag}", ties((4, 10), np.int64) * 2**40, 0, descending)]
imin, imax = np.iinfo(np.int32).min, np.iinfo(np.int32).max
SORTS.append(("i32_extremes", np.array([[imax, imin, 0, imin, imax]],
                                       np.int32), 1, False))

functions = []
for name, x, axis, descending in SORTS:
    t, ti = ttype(x.shape, NP_ELEMENT[x.dtype.type]), ttype(x.shape, "i64")
    flag = " descending" if descending else ""
    functions.append(function(
        f"sort_{name}", f"%r0, %r1 = rlx.sort %a0 axis = {axis}{flag} : "
        f"{t} -> {t}, {ti}", [t], [t, ti]))
    functions.append(function(
        f"argsort_{name}", f"%r0 = rlx.argsort %a0 axis = {axis}{flag} : "
        f"{t} -> {ti}", [t], [ti]))
module = compile_functions(functions)
for name, x, axis, descending in SORTS:
    values, indices = torch_sort(x, axis, descending)
    got_values, got_indices = module[f"sort_{name}"](x)
    same(f"sort_{name}_values", got_values, values)
    same(f"sort_{name}_indices", got_indices, indices)
    same(f"argsort_{name}", module[f"argsort_{name}"](x), indices)

# bf16 cannot cross numpy: f32 holding bf16-exact values is cast in, and
# the values cast back out.
xb = ties((3, 17), values=9) / 4
tb, tf = ttype(xb.shape, "bf16"), ttype(xb.shape, "f32")
ti = ttype(xb.shape, "i64")
bf16 = compile_functions([function(
    "sort_bf16", f"%x = rlx.cast %a0 : {tf} -> {tb}\n  "
    f"%v, %r1 = rlx.sort %x axis = 1 descending : {tb} -> {tb}, {ti}\n  "
    f"%r0 = rlx.cast %v : {tb} -> {tf}", [tf], [tf, ti])])
values, indices = torch_sort(xb, 1, True)
got_values, got_indices = bf16["sort_bf16"](xb)
same("sort_bf16_values", got_values, values)
same("sort_bf16_indices", got_indices, indices)

# `?` sizes: one module, lines of several lengths, no rows, empty lines.
dynamic = compile_functions([
    function("sort_dynamic", "%r0, %r1 = rlx.sort %a0 axis = 1 : "
             "tensor<?x?xf32> -> tensor<?x?xf32>, tensor<?x?xi64>",
             ["tensor<?x?xf32>"], ["tensor<?x?xf32>", "tensor<?x?xi64>"]),
    function("argsort_dynamic", "%r0 = rlx.argsort %a0 axis = 0 descending "
             ": tensor<?x?xf32> -> tensor<?x?xi64>", ["tensor<?x?xf32>"],
             ["tensor<?x?xi64>"])])
for shape in [(3, 1), (2, 7), (5, 64), (1, 129), (0, 4), (3, 0)]:
    x = ties(shape)
    label = "x".join(map(str, shape))
    values, indices = torch_sort(x, 1, False)
    got_values, got_indices = dynamic["sort_dynamic"](x)
    same(f"sort_dynamic_{label}_values", got_values, values)
    same(f"sort_dynamic_{label}_indices", got_indices, indices)
    same(f"argsort_dynamic_{label}", dynamic["argsort_dynamic"](x),
         torch_sort(x, 0, True)[1])

# --- topk: the stable sort's first k columns -------------------------------

TOPKS = []  # (name, input, k, smallest)
for smallest in (False, True):
    tag = "_smallest" if smallest else ""
    xk = ties((4, 9))
    for k in (1, 2, 3, 4, 8, 9):
        TOPKS.append((f"k{k}{tag}", xk, k, smallest))
    TOPKS += [(f"special{tag}", special, 5, smallest),
              (f"rank1{tag}", ties((7,)), 4, smallest),
              (f"rank3{tag}", ties((2, 3, 5)), 2, smallest),
              (f"long{tag}", rng.standard_normal((3, 5000)).astype(
                  np.float32), 50, smallest),
              (f"long_ties{tag}", ties((2, 3001), values=11), 37, smallest),
              (f"f16{tag}", ties((3, 8), np.float16), 4, smallest),
              (f"f64{tag}", ties((3, 8), np.float64), 8, smallest),
              (f"i8{tag}", ties((3, 8), np.int8), 5, smallest),
              (f"i64{tag}", ties((3, 8), np.int64) * 2**40, 3, smallest)]
functions = []
for name, x, k, smallest in TOPKS:
    t = ttype(x.shape, NP_ELEMENT[x.dtype.type])
    out = list(x.shape[:-1]) + [k]
    tv, ti = ttype(out, NP_ELEMENT[x.dtype.type]), ttype(out, "i64")
    functions.append(function(
        f"topk_{name}", f"%r0, %r1 = rlx.topk %a0 k = {k}"
        f"{' smallest' if smallest else ''} : {t} -> {tv}, {ti}", [t],
        [tv, ti]))
functions.append(function(
    "topk_dynamic", "%r0, %r1 = rlx.topk %a0 k = 3 : tensor<?x?xf32> -> "
    "tensor<?x3xf32>, tensor<?x3xi64>", ["tensor<?x?xf32>"],
    ["tensor<?x3xf32>", "tensor<?x3xi64>"]))
module = compile_functions(functions)
for name, x, k, smallest in TOPKS:
    values, indices = torch_sort(x, -1, not smallest)
    got_values, got_indices = module[f"topk_{name}"](x)
    same(f"topk_{name}_values", got_values, values[..., :k])
    same(f"topk_{name}_indices", got_indices, indices[..., :k])
    if x.dtype.kind == "f" and not np.isnan(x).any():
        # torch.topk orders ties arbitrarily, but its values are these.
        want = torch.topk(torch.from_numpy(x).double(), k,
                          largest=not smallest).values.numpy()
        same(f"topk_{name}_torch_values", got_values.astype(np.float64),
             want)
for shape in [(2, 3), (4, 17), (0, 5), (1, 300)]:
    x = ties(shape)
    values, indices = torch_sort(x, -1, True)
    got_values, got_indices = module["topk_dynamic"](x)
    label = "x".join(map(str, shape))
    same(f"topk_dynamic_{label}_values", got_values, values[:, :3])
    same(f"topk_dynamic_{label}_indices", got_indices, indices[:, :3])

# --- cummax_indices: torch.cummax's indices --------------------------------

CUMMAX = []  # (name, input, axis)
xc = ties((3, 5, 7))
for axis in (0, 1, 2, -1):
    CUMMAX.append((f"axis{axis}".replace("-", "neg"), xc, axis))
CUMMAX += [("special", special, 1), ("special_axis0", special, 0),
           ("infinities", np.array([[-inf, -inf, 1, -inf], [inf, 2, inf, inf]],
                                   np.float32), 1),
           ("rank1", ties((29,)), 0), ("f64", rng.standard_normal((4, 9)), 1),
           ("f16", ties((4, 9), np.float16), 1),
           ("i32", ties((4, 9), np.int32), 1),
           ("i64_extremes", np.array([[np.iinfo(np.int64).min] * 3 + [5]],
                                     np.int64), 1)]
functions = [function(
    f"cummax_{name}", f"%r0 = rlx.cummax_indices %a0 axis = {axis} : "
    f"{ttype(x.shape, NP_ELEMENT[x.dtype.type])} -> {ttype(x.shape, 'i64')}",
    [ttype(x.shape, NP_ELEMENT[x.dtype.type])], [ttype(x.shape, "i64")])
    for name, x, axis in CUMMAX]
functions.append(function(
    "cummax_dynamic", "%r0 = rlx.cummax_indices %a0 axis = 0 : "
    "tensor<?x?xf32> -> tensor<?x?xi64>", ["tensor<?x?xf32>"],
    ["tensor<?x?xi64>"]))
module = compile_functions(functions)
for name, x, axis in CUMMAX:
    # torch has no f16 cummax on the CPU; f32 orders f16 values the same.
    t = torch.from_numpy(x.astype(np.float32) if x.dtype == np.float16 else x)
    same(f"cummax_indices_{name}", module[f"cummax_{name}"](x),
         torch.cummax(t, dim=axis).indices.numpy())
for shape in [(6, 3), (1, 4), (0, 2), (9, 1)]:
    x = ties(shape)
    same(f"cummax_indices_dynamic_{'x'.join(map(str, shape))}",
         module["cummax_dynamic"](x),
         torch.cummax(torch.from_numpy(x), dim=0).indices.numpy())

# --- histogram: torch.histc -------------------------------------------------


def histc_formula(x, bins, lo, hi):
    """The op's stated formula, in x's dtype: NaN and out-of-range elements
    dropped, trunc((x - min) * bins / (max - min)), max in the last bin."""
    t = x.dtype.type
    lo, hi = t(lo), t(hi)
    flat = x.ravel()
    kept = flat[(flat >= lo) & (flat <= hi)]
    position = ((kept - lo) * t(bins) / (hi - lo)).astype(np.int64)
    return np.bincount(np.minimum(position, bins - 1),
                       minlength=bins).astype(x.dtype)


HISTOGRAMS = []  # (name, input, bins, min, max, edge-safe for torch f32)
for dtype in (np.float32, np.float64):
    tag = np.dtype(dtype).name
    uniform = rng.uniform(-1.5, 2.5, (7, 33)).astype(dtype)
    HISTOGRAMS += [
        (f"uniform_{tag}", uniform, 10, -1.0, 2.0, dtype == np.float64),
        (f"one_bin_{tag}", uniform, 1, 0.0, 1.0, dtype == np.float64),
        (f"many_bins_{tag}", uniform, 97, -1.5, 2.5, dtype == np.float64),
        # Sixteenths between eighth-wide bins: never on an edge.
        (f"edge_safe_{tag}", ((rng.integers(-20, 40, (5, 11)) * 2 + 1) / 32)
         .astype(dtype), 8, 0.0, 1.0, True),
        # Exactly min, max, the inner edges, and outside.
        (f"bounds_{tag}", np.array([0.0, 1.0, 0.25, 0.5, 0.75, -0.0, 1.5,
                                    -1e-9, inf, -inf], dtype), 4, 0.0, 1.0,
         True),
        (f"rank1_{tag}", rng.uniform(0, 1, (1000,)).astype(dtype), 13, 0.0,
         1.0, dtype == np.float64),
        # Many chunks, each counted apart.
        (f"large_{tag}", rng.standard_normal((300, 1001)).astype(dtype), 50,
         -2.5, 2.5, dtype == np.float64)]
functions = []
for name, x, bins, lo, hi, _ in HISTOGRAMS:
    t = ttype(x.shape, NP_ELEMENT[x.dtype.type])
    out = ttype([bins], NP_ELEMENT[x.dtype.type])
    functions.append(function(
        f"histogram_{name}", f"%r0 = rlx.histogram %a0 bins = {bins} "
        f"min = {lo!r} max = {hi!r} : {t} -> {out}", [t], [out]))
functions.append(function(
    "histogram_dynamic", "%r0 = rlx.histogram %a0 bins = 5 min = -2.0 "
    "max = 3.0 : tensor<?x?xf64> -> tensor<5xf64>", ["tensor<?x?xf64>"],
    ["tensor<5xf64>"]))
functions.append(function(
    "histogram_nan", "%r0 = rlx.histogram %a0 bins = 4 min = 0.0 max = 1.0 "
    ": tensor<6xf32> -> tensor<4xf32>", ["tensor<6xf32>"], ["tensor<4xf32>"]))
module = compile_functions(functions)
for name, x, bins, lo, hi, edge_safe in HISTOGRAMS:
    got = module[f"histogram_{name}"](x)
    same(f"histogram_{name}_formula", got, histc_formula(x, bins, lo, hi))
    if edge_safe:
        same(f"histogram_{name}_torch", got,
             torch.histc(torch.from_numpy(x), bins, lo, hi).numpy())
for shape in [(4, 25), (1, 1), (0, 3)]:
    x = rng.uniform(-3, 4, shape)
    same(f"histogram_dynamic_{'x'.join(map(str, shape))}",
         module["histogram_dynamic"](x),
         torch.histc(torch.from_numpy(x), 5, -2.0, 3.0).numpy())
xn = np.array([0.1, nan, 0.6, nan, 0.9, 1.0], np.float32)
same("histogram_nan_not_counted", module["histogram_nan"](xn),
     torch.histc(torch.from_numpy(xn[~np.isnan(xn)]), 4, 0.0, 1.0).numpy())

# --- 1 and 2 threads: identical bits ---------------------------------------

threads = compile_functions([
    function("sort_rows", "%r0, %r1 = rlx.sort %a0 axis = 1 descending : "
             "tensor<?x301xf32> -> tensor<?x301xf32>, tensor<?x301xi64>",
             ["tensor<?x301xf32>"],
             ["tensor<?x301xf32>", "tensor<?x301xi64>"]),
    function("topk_rows", "%r0, %r1 = rlx.topk %a0 k = 7 : tensor<?x301xf32>"
             " -> tensor<?x7xf32>, tensor<?x7xi64>", ["tensor<?x301xf32>"],
             ["tensor<?x7xf32>", "tensor<?x7xi64>"]),
    function("histogram_rows", "%r0 = rlx.histogram %a0 bins = 16 min = -2.0"
             " max = 2.0 : tensor<?x301xf32> -> tensor<16xf32>",
             ["tensor<?x301xf32>"], ["tensor<16xf32>"])])
x = ties((64, 301), values=13) / 3
for fn in ("sort_rows", "topk_rows", "histogram_rows"):
    rlx.set_num_threads(1)
    one = threads[fn](x)
    rlx.set_num_threads(2)
    two = threads[fn](x)
    one = one if isinstance(one, tuple) else (one,)
    two = two if isinstance(two, tuple) else (two,)
    for i, (a, b) in enumerate(zip(one, two)):
        same(f"{fn}_threads_{i}", b, a)
rlx.set_num_threads(0)

# --- gradients of the values, against autograd ------------------------------


def loss_function(name, body, shape, out_shape):
    """sum(op(x) * w) and its gradient function `<name>_grad`."""
    t, tw = ttype(shape, "f64"), ttype(out_shape, "f64")
    axes = ", ".join(str(d) for d in range(len(out_shape)))
    return (f"func.func @{name}(%x: {t}, %w: {tw}) -> tensor<f64> "
            f"attributes {{rlx.differentiate = array<i64: 0>}} {{\n"
            f"  {body}\n"
            f"  %p = rlx.mul %y, %w : ({tw}, {tw}) -> {tw}\n"
            f"  %l = rlx.reduce sum %p axes = [{axes}] : {tw} -> tensor<f64>\n"
            f"  return %l : tensor<f64>\n}}\n")


GRADIENTS = [  # (name, body, shape, out_shape, reference, input)
    ("sort_grad", "%y, %i = rlx.sort %x axis = 1 : tensor<4x9xf64> -> "
     "tensor<4x9xf64>, tensor<4x9xi64>", (4, 9), (4, 9),
     lambda t: torch.sort(t, dim=1, stable=True).values,
     rng.standard_normal((4, 9))),
    ("sort_grad_ties_desc", "%y, %i = rlx.sort %x axis = 0 descending : "
     "tensor<6x5xf64> -> tensor<6x5xf64>, tensor<6x5xi64>", (6, 5), (6, 5),
     lambda t: torch.sort(t, dim=0, descending=True, stable=True).values,
     ties((6, 5), np.float64)),
    ("sort_grad_dynamic", "%y, %i = rlx.sort %x axis = 1 descending : "
     "tensor<?x?xf64> -> tensor<?x?xf64>, tensor<?x?xi64>", (None, None),
     (None, None),
     lambda t: torch.sort(t, dim=1, descending=True, stable=True).values,
     rng.standard_normal((3, 11))),
    ("topk_grad", "%y, %i = rlx.topk %x k = 3 : tensor<5x8xf64> -> "
     "tensor<5x3xf64>, tensor<5x3xi64>", (5, 8), (5, 3),
     lambda t: torch.topk(t, 3).values, rng.standard_normal((5, 8))),
    ("topk_grad_smallest", "%y, %i = rlx.topk %x k = 2 smallest : "
     "tensor<4x6xf64> -> tensor<4x2xf64>, tensor<4x2xi64>", (4, 6), (4, 2),
     lambda t: torch.topk(t, 2, largest=False).values,
     rng.standard_normal((4, 6))),
]
module = compile_functions([loss_function(name, body, shape, out)
                            for name, body, shape, out, _, _ in GRADIENTS])
for name, _, _, _, reference, x in GRADIENTS:
    leaf = torch.tensor(x, requires_grad=True)
    y = reference(leaf)
    w = rng.standard_normal(tuple(y.shape))
    loss = (y * torch.tensor(w)).sum()
    loss.backward()
    got_loss, got_grad = module[f"{name}_grad"](x, w)
    check(f"{name}_loss", np.allclose(got_loss, loss.item(), rtol=1e-12,
                                      atol=1e-12), f"{got_loss} {loss.item()}")
    check(f"{name}_dx", np.allclose(got_grad, leaf.grad.numpy(), rtol=1e-12,
                                    atol=1e-12),
          f"max error {np.abs(got_grad - leaf.grad.numpy()).max()}")

# histogram passes no gradient (torch.histc's result does not require
# grad): the loss sum(histogram(x) * w) + sum(x * x) has the gradient 2x.
histogram_loss = compile_functions(["""
func.func @loss(%x: tensor<4x5xf64>, %w: tensor<3xf64>) -> tensor<f64>
    attributes {rlx.differentiate = array<i64: 0>} {
  %h = rlx.histogram %x bins = 3 min = -1.0 max = 1.0
      : tensor<4x5xf64> -> tensor<3xf64>
  %p = rlx.mul %h, %w : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %s = rlx.reduce sum %p axes = [0] : tensor<3xf64> -> tensor<f64>
  %q = rlx.mul %x, %x : (tensor<4x5xf64>, tensor<4x5xf64>) -> tensor<4x5xf64>
  %t = rlx.reduce sum %q axes = [0, 1] : tensor<4x5xf64> -> tensor<f64>
  %l = rlx.add %s, %t : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %l : tensor<f64>
}
"""])
x, w = rng.uniform(-1.5, 1.5, (4, 5)), rng.standard_normal(3)
leaf = torch.tensor(x, requires_grad=True)
loss = (torch.histc(leaf, 3, -1.0, 1.0) * torch.tensor(w)).sum() + \
    (leaf * leaf).sum()
loss.backward()
got_loss, got_grad = histogram_loss["loss_grad"](x, w)
check("histogram_grad_loss", np.allclose(got_loss, loss.item(), rtol=1e-12),
      f"{got_loss} {loss.item()}")
check("histogram_grad_dx", np.allclose(got_grad, leaf.grad.numpy(),
                                       rtol=1e-12, atol=0),
      f"{got_grad} {leaf.grad.numpy()}")

finish()
