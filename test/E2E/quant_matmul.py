# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# The quantized contractions (RlxQuantMatmulOps.td) compiled from MLIR
# text, against references in exact integer arithmetic or float64:
#  - rlx.qmatmul: the i32 accumulator exactly (signed and unsigned storage,
#    per-tensor and per-column zero points, a batch, `?` rows); the
#    requantized i8 result bit for bit against torch.ops.quantized.linear
#    (PyTorch 1.13, per-tensor and per-channel weights) and against the
#    documented formula in numpy for signed outputs and zero points;
#  - rlx.qconv: the i32 accumulator exactly (stride, padding, dilation,
#    groups, per-channel weight zero points, a `?` batch) and requantized
#    against torch.ao.nn.quantized.functional.conv2d bit for bit;
#  - rlx.dequant_matmul: every scheme (int8 and int4 at group sizes 32, 64
#    and 128 with f16 and f32 scales, with and without zero points; GGUF
#    Q8_0 and Q4_0 packed here byte by byte as llama.cpp lays them out),
#    odd M and N, a batch, `?` rows and f16 inputs, within the f32
#    summation bound; the input gradient against torch autograd;
#  - rlx.scaled_matmul: every FP8 code of both formats decoded exactly
#    (NaN included), and random products within the f32 summation bound.
import numpy as np
import torch
import torch.ao.nn.quantized.functional as qF

import rlx
from rlx_testing.blockquant import random_block_weight
from rlx_testing.checks import check, finish

rng = np.random.default_rng(18)
torch.manual_seed(18)
U = 2.0 ** -24  # f32 unit roundoff


def within_bound(name, got, want, bound):
    """|got - want| <= bound elementwise (shapes equal)."""
    got = np.asarray(got, np.float64)
    ok = got.shape == want.shape and bool(np.all(np.abs(got - want) <= bound))
    err = np.abs(got - want).max() if got.shape == want.shape else got.shape
    check(name, ok, f"max error {err}")


def exact(name, got, want):
    """got == want elementwise, as integers."""
    got = np.asarray(got)
    if got.shape != want.shape:
        check(name, False, f"shape {got.shape}, want {want.shape}")
        return
    differ = np.count_nonzero(got.astype(np.int64) != want.astype(np.int64))
    check(name, differ == 0, f"{differ} elements differ")


def t(shape, element):
    return "tensor<" + "x".join(str(s) for s in shape) + ("x" if shape else "") + element + ">"


#===------------------------------------------------------------------------===#
# qmatmul
#===------------------------------------------------------------------------===#

M, K, N = 5, 37, 7
functions = []


def qmatmul_fn(name, lhs, flags="", rhs_zp=(), requant=None, scale="f32"):
    """A function returning rlx.qmatmul of its operands."""
    rhs = t([K, N], "i8")
    args = [("a", t(lhs, "i8")), ("b", rhs), ("az", t([], "i32")),
            ("bz", t(list(rhs_zp), "i32"))]
    body = "%a, %b, %az, %bz"
    out_shape = list(lhs[:-1]) + [N]
    out = t(out_shape, "i32")
    if requant is not None:
        args += [("as", t([], scale)), ("bs", t(list(requant), scale)),
                 ("os", t([], scale)), ("oz", t([], "i32"))]
        body += " requantize %as, %bs, %os, %oz"
        out = t(out_shape, "i8")
    sig = ", ".join(f"%{n}: {ty}" for n, ty in args)
    types = ", ".join(ty for _, ty in args)
    functions.append(
        f"func.func @{name}({sig}) -> {out} {{\n"
        f"  %y = rlx.qmatmul {body} {flags} : ({types}) -> {out}\n"
        f"  return %y : {out}\n}}\n")


qmatmul_fn("qmm_i32", [M, K])
qmatmul_fn("qmm_i32_unsigned", ["?", K], "lhs_unsigned rhs_unsigned", [N])
qmatmul_fn("qmm_i32_batch", [2, 3, K], "rhs_unsigned")
qmatmul_fn("qmm_u8_64", [64, K], "lhs_unsigned output_unsigned", (), (), "f64")
qmatmul_fn("qmm_u8_pc", ["?", K], "lhs_unsigned output_unsigned", [N], [N],
           "f64")
qmatmul_fn("qmm_i8_pc", [M, K], "", [N], [N])


def int_reference(a, b, az, bz, a_unsigned=False, b_unsigned=False):
    a = a.view(np.uint8) if a_unsigned else a
    b = b.view(np.uint8) if b_unsigned else b
    return (a.astype(np.int64) - az) @ (b.astype(np.int64) - bz)


def requant_reference(acc, as_, bs, os_, oz, unsigned):
    """The documented epilogue: the multiplier in f64 (from the scales as
    given) rounded to f32, the product in f32."""
    mult = (np.float64(as_) * np.asarray(bs, np.float64) / np.float64(os_))
    v = (acc.astype(np.float32) * mult.astype(np.float32)).astype(np.float32)
    q = np.round(v).astype(np.int64) + oz  # numpy rounds half to even
    return np.clip(q, 0, 255) if unsigned else np.clip(q, -128, 127)


module = rlx.compile("\n".join(functions))

i8 = lambda *s: rng.integers(-128, 128, s).astype(np.int8)
a, b = i8(M, K), i8(K, N)
az, bz = np.array(-3, np.int32), np.array(5, np.int32)
exact("qmatmul_i32", module["qmm_i32"](a, b, az, bz),
      int_reference(a, b, -3, 5))
# Extreme values: -128 - 127 zero points give the largest products.
a_ext, b_ext = np.full((M, K), -128, np.int8), np.full((K, N), 127, np.int8)
exact("qmatmul_i32_extreme",
      module["qmm_i32"](a_ext, b_ext, np.array(127, np.int32),
                        np.array(-128, np.int32)),
      int_reference(a_ext, b_ext, 127, -128))
for rows in (1, 4):
    ar = i8(rows, K)
    bzc = rng.integers(0, 256, N).astype(np.int32)
    exact(f"qmatmul_i32_unsigned_{rows}",
          module["qmm_i32_unsigned"](ar, b, np.array(128, np.int32), bzc),
          int_reference(ar, b, 128, bzc, True, True))
ab = i8(2, 3, K)
exact("qmatmul_i32_batch",
      module["qmm_i32_batch"](ab, b, np.array(7, np.int32),
                              np.array(200, np.int32)),
      int_reference(ab, b, 7, 200, False, True))

# Requantized, against torch.ops.quantized.linear (quint8 x qint8 ->
# quint8) with the engines torch 1.13 has on this CPU; torch's scales are
# doubles, passed as f64. M is larger here so that near-ties occur.
engines = [e for e in ("fbgemm", "onednn", "qnnpack")
           if e in torch.backends.quantized.supported_engines]
check("quantized_engine", bool(engines), torch.backends.quantized.supported_engines)
xs, xz, ys, yz = 0.05, 128, 0.07, 120
for per_channel in (False, True):
    xf = torch.randn(64, K)
    wf = torch.randn(N, K)
    x_q = torch.quantize_per_tensor(xf, xs, xz, torch.quint8)
    if per_channel:
        wsc = torch.rand(N, dtype=torch.float64) * 0.02 + 0.01
        w_q = torch.quantize_per_channel(wf, wsc, torch.zeros(N, dtype=torch.int64),
                                         0, torch.qint8)
        bs = wsc.numpy()
    else:
        w_q = torch.quantize_per_tensor(wf, 0.02, 0, torch.qint8)
        bs = np.array(0.02, np.float64)
    a = x_q.int_repr().numpy().view(np.int8)
    b = np.ascontiguousarray(w_q.int_repr().numpy().T)
    args = (a, b, np.array(xz, np.int32),
            np.zeros(N, np.int32) if per_channel else np.array(0, np.int32),
            np.array(xs, np.float64), bs, np.array(ys, np.float64),
            np.array(yz, np.int32))
    fn = module["qmm_u8_pc" if per_channel else "qmm_u8_64"]
    got = np.asarray(fn(*args)).view(np.uint8)
    for engine in engines:
        torch.backends.quantized.engine = engine
        packed = torch.ops.quantized.linear_prepack(w_q, None)
        want = torch.ops.quantized.linear(x_q, packed, ys, yz).int_repr().numpy()
        exact(f"qmatmul_vs_torch_{engine}_{'pc' if per_channel else 'pt'}",
              got, want)
    acc = int_reference(a, b, xz, 0, True)
    exact(f"qmatmul_u8_formula_{'pc' if per_channel else 'pt'}", got,
          requant_reference(acc, xs, bs, ys, yz, True))

# Signed output, per-column weight zero points and scales, saturating at
# both ends.
a, b = i8(M, K), i8(K, N)
bzc = rng.integers(-20, 20, N).astype(np.int32)
bsc = (rng.random(N) * 0.05 + 0.001).astype(np.float32)
got = module["qmm_i8_pc"](a, b, np.array(3, np.int32), bzc,
                          np.array(0.03, np.float32), bsc,
                          np.array(0.04, np.float32), np.array(-10, np.int32))
acc = int_reference(a, b, 3, bzc)
want = requant_reference(acc, 0.03, bsc, 0.04, -10, False)
exact("qmatmul_i8_per_column", got, want)
check("qmatmul_i8_saturates", bool((want == 127).any() and (want == -128).any()),
      "the case reaches both bounds")

#===------------------------------------------------------------------------===#
# qconv
#===------------------------------------------------------------------------===#

CONV = dict(stride=[2, 1], padding=[1, 1, 2, 2], dilation=[1, 2], groups=2)
XS, WS = [2, 4, 9, 7], [6, 2, 3, 3]
OUT = [2, 6, 5, 7]


def qconv_fn(name, xshape, flags, wz_shape, requant=None):
    args = [("x", t(xshape, "i8")), ("w", t(WS, "i8")), ("xz", t([], "i32")),
            ("wz", t(wz_shape, "i32"))]
    body = "%x, %w, %xz, %wz"
    out_shape = [xshape[0]] + OUT[1:]
    out = t(out_shape, "i32")
    if requant is not None:
        args += [("xs", t([], "f64")), ("ws", t(requant, "f64")),
                 ("ys", t([], "f64")), ("yz", t([], "i32"))]
        body += " requantize %xs, %ws, %ys, %yz"
        out = t(out_shape, "i8")
    attrs = (f"stride = {CONV['stride']} padding = {CONV['padding']} "
             f"dilation = {CONV['dilation']} groups = {CONV['groups']}")
    sig = ", ".join(f"%{n}: {ty}" for n, ty in args)
    types = ", ".join(ty for _, ty in args)
    return (f"func.func @{name}({sig}) -> {out} {{\n"
            f"  %y = rlx.qconv {body} {attrs} {flags} : ({types}) -> {out}\n"
            f"  return %y : {out}\n}}\n")


def conv_reference(x, w, stride, padding, dilation, groups):
    """Exact integer conv2d (NCHW) of int64 arrays, zero padding."""
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (padding[0], padding[1]),
                    (padding[2], padding[3])))
    oh = (xp.shape[2] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (xp.shape[3] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, oh, ow), np.int64)
    og = o // groups
    for g in range(groups):
        xs_ = xp[:, g * cg:(g + 1) * cg]
        for i in range(kh):
            for j in range(kw):
                patch = xs_[:, :, i * dilation[0]:i * dilation[0] + stride[0] * (oh - 1) + 1:stride[0],
                            j * dilation[1]:j * dilation[1] + stride[1] * (ow - 1) + 1:stride[1]]
                out[:, g * og:(g + 1) * og] += np.einsum(
                    "nchw,oc->nohw", patch, w[g * og:(g + 1) * og, :, i, j])
    return out


module = rlx.compile("\n".join([
    qconv_fn("qconv_i32", XS, "weight_unsigned", []),
    qconv_fn("qconv_i32_dyn", ["?"] + XS[1:], "input_unsigned", [6]),
    qconv_fn("qconv_u8", XS, "input_unsigned output_unsigned", [], []),
    qconv_fn("qconv_u8_pc", XS, "input_unsigned output_unsigned", [6], [6]),
]))
x, w = i8(*XS), i8(*WS)
exact("qconv_i32", module["qconv_i32"](x, w, np.array(-5, np.int32),
                                       np.array(130, np.int32)),
      conv_reference(x.astype(np.int64) + 5,
                     w.view(np.uint8).astype(np.int64) - 130, **CONV))
for batch in (1, 3):
    xb = i8(batch, *XS[1:])
    wzc = rng.integers(-9, 9, 6).astype(np.int32)
    exact(f"qconv_i32_dyn_{batch}",
          module["qconv_i32_dyn"](xb, w, np.array(100, np.int32), wzc),
          conv_reference(xb.view(np.uint8).astype(np.int64) - 100,
                         w.astype(np.int64) - wzc[:, None, None, None], **CONV))
for per_channel in (False, True):
    x_q = torch.quantize_per_tensor(torch.randn(*XS), xs, xz, torch.quint8)
    wf = torch.randn(*WS)
    if per_channel:
        wsc = torch.rand(6, dtype=torch.float64) * 0.02 + 0.01
        w_q = torch.quantize_per_channel(wf, wsc, torch.zeros(6, dtype=torch.int64),
                                         0, torch.qint8)
        ws_arg, wz_arg = wsc.numpy(), np.zeros(6, np.int32)
    else:
        w_q = torch.quantize_per_tensor(wf, 0.02, 0, torch.qint8)
        ws_arg, wz_arg = np.array(0.02), np.array(0, np.int32)
    a = x_q.int_repr().numpy().view(np.int8)
    b = w_q.int_repr().numpy()
    got = np.asarray(module["qconv_u8_pc" if per_channel else "qconv_u8"](
        a, b, np.array(xz, np.int32), wz_arg, np.array(xs), ws_arg,
        np.array(ys), np.array(yz, np.int32))).view(np.uint8)
    label = "pc" if per_channel else "pt"
    for engine in engines:
        torch.backends.quantized.engine = engine
        try:
            want = qF.conv2d(x_q, w_q, None, stride=tuple(CONV["stride"]),
                             padding=(1, 2), dilation=tuple(CONV["dilation"]),
                             groups=2, scale=ys, zero_point=yz).int_repr().numpy()
        except RuntimeError as e:  # an engine without this configuration
            print(f"note: {engine} {label}: {str(e).splitlines()[0]}")
            continue
        exact(f"qconv_vs_torch_{engine}_{label}", got, want)
    acc = conv_reference(a.view(np.uint8).astype(np.int64) - xz,
                         b.astype(np.int64), **CONV)
    exact(f"qconv_u8_formula_{label}", got,
          requant_reference(acc, xs, np.asarray(ws_arg).reshape(-1, 1, 1) if per_channel else ws_arg,
                            ys, yz, True))

#===------------------------------------------------------------------------===#
# dequant_matmul
#===------------------------------------------------------------------------===#

N = 7


def make_weight(scheme, k, g, scale_type=np.float32, zero_points=False):
    """(operands, W float64 [N, k]) for `scheme`."""
    return random_block_weight(rng, scheme, (N,), k, g, scale_type,
                               zero_points)


cases = []  # (name, scheme, g, k, x shape, x type, scale type, zero points)
for g in (32, 64, 128):
    k = 3 * g
    for scheme in ("int8", "int4"):
        cases.append((f"{scheme}_g{g}", scheme, g, k, [5, k], "f32", np.float32, False))
    cases.append((f"int4_g{g}_f16_zp", "int4", g, k, ["?", k], "f32", np.float16, True))
cases.append(("int8_g64_f16_zp", "int8", 64, 192, [2, 3, 192], "f32", np.float16, True))
cases.append(("q8_0", "q8_0", 32, 96, [5, 96], "f32", None, False))
cases.append(("q4_0", "q4_0", 32, 160, ["?", 160], "f32", None, False))
cases.append(("q4_0_batch", "q4_0", 32, 64, [2, 3, 64], "f32", None, False))
cases.append(("q4_0_f16", "q4_0", 32, 96, [5, 96], "f16", None, False))
cases.append(("int4_f16", "int4", 32, 64, [5, 64], "f16", np.float16, False))

functions = []
weights = {}
for name, scheme, g, k, xshape, xtype, stype, zp in cases:
    ops, w = make_weight(scheme, k, g, stype or np.float32, zp)
    weights[name] = (ops, w)
    arg_types = [t(xshape, xtype)] + [
        t(o.shape, {np.dtype(np.int8): "i8", np.dtype(np.float16): "f16",
                    np.dtype(np.float32): "f32"}[o.dtype]) for o in ops]
    names = ["%x", "%w", "%s", "%z"][:len(arg_types)]
    operands = ", ".join(names[:3])
    if zp:
        operands += " zero_points %z"
    group = f" group_size = {g}" if g != 32 else ""
    out = t(xshape[:-1] + [N], xtype)
    sig = ", ".join(f"{n}: {ty}" for n, ty in zip(names, arg_types))
    functions.append(
        f"func.func @{name}({sig}) -> {out} {{\n"
        f"  %y = rlx.dequant_matmul {operands} scheme = \"{scheme}\"{group} : "
        f"({', '.join(arg_types)}) -> {out}\n  return %y : {out}\n}}\n")

# The input gradient of sum(dequant_matmul(x, W) * c).
GK = 96
for scheme, g in (("int4", 32), ("q4_0", 32), ("int8", 32), ("q8_0", 32)):
    ops, w = make_weight(scheme, GK, g, np.float32, scheme == "int4")
    weights["grad_" + scheme] = (ops, w)
    arg_types = [t([4, GK], "f32")] + [t(o.shape, "i8" if o.dtype == np.int8 else "f32") for o in ops]
    names = ["%x", "%w", "%s", "%z"][:len(arg_types)]
    operands = ", ".join(names[:3]) + (" zero_points %z" if len(ops) == 3 else "")
    sig = ", ".join(f"{n}: {ty}" for n, ty in zip(names, arg_types))
    y = t([4, N], "f32")
    functions.append(
        f"func.func @grad_{scheme}({sig}, %c: {y}) -> tensor<f32> "
        f"attributes {{rlx.differentiate = array<i64: 0>}} {{\n"
        f"  %y = rlx.dequant_matmul {operands} scheme = \"{scheme}\" : "
        f"({', '.join(arg_types)}) -> {y}\n"
        f"  %p = rlx.mul %y, %c : ({y}, {y}) -> {y}\n"
        f"  %l = rlx.reduce sum %p axes = [0, 1] : {y} -> tensor<f32>\n"
        f"  return %l : tensor<f32>\n}}\n")

module = rlx.compile("\n".join(functions))
for name, scheme, g, k, xshape, xtype, stype, zp in cases:
    ops, w = weights[name]
    shapes = [[5, 2][i % 2] if s == "?" else s for i, s in enumerate(xshape)]
    x = rng.standard_normal(shapes).astype(np.float32)
    if xtype == "f16":
        x = x.astype(np.float16)
    got = module[name](x, *ops)
    want = x.astype(np.float64) @ w.T
    bound = (k + 2) * U * (np.abs(x.astype(np.float64)) @ np.abs(w).T) + 1e-30
    if xtype == "f16":
        bound = bound + np.abs(want) * 2.0 ** -11
    within_bound(f"dequant_matmul_{name}", got, want, bound)

for scheme in ("int4", "q4_0", "int8", "q8_0"):
    ops, w = weights["grad_" + scheme]
    x = rng.standard_normal((4, GK)).astype(np.float32)
    c = rng.standard_normal((4, N)).astype(np.float32)
    xt = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    loss = ((xt @ torch.tensor(w).T) * torch.tensor(c, dtype=torch.float64)).sum()
    loss.backward()
    got = module[f"grad_{scheme}_grad"](x, *ops, c)
    within_bound(f"dequant_matmul_grad_{scheme}_loss", got[0],
                 np.array(loss.item()), 1e-4 * (1 + abs(loss.item())))
    within_bound(f"dequant_matmul_grad_{scheme}_dx", got[1], xt.grad.numpy(),
                 1e-5 * (1 + np.abs(xt.grad.numpy())))

#===------------------------------------------------------------------------===#
# scaled_matmul
#===------------------------------------------------------------------------===#


def decode_e4m3fn(codes):
    c = codes.astype(np.int64) & 0xFF
    s = np.where(c & 0x80, -1.0, 1.0)
    e, m = (c >> 3) & 15, c & 7
    v = np.where(e == 0, m / 8.0 * 2.0 ** -6, (1 + m / 8.0) * 2.0 ** (e - 7.0))
    v = np.where((c & 0x7F) == 0x7F, np.nan, v)
    return s * v


def decode_e5m2(codes):
    bits = (codes.astype(np.uint16) & 0xFF) << 8
    return bits.astype(np.uint16).view(np.float16).astype(np.float64)


FORMATS = {"e4m3fn": ("f8E4M3FN", decode_e4m3fn, 0x38),
           "e5m2": ("f8E5M2", decode_e5m2, 0x3C)}
functions = []


def scaled_fn(name, lhs, rhs, fa, fb):
    ta, tb = FORMATS[fa][0], FORMATS[fb][0]
    out = t(lhs[:-1] + [rhs[1]], "f32")
    functions.append(
        f"func.func @{name}(%a: {t(lhs, 'i8')}, %b: {t(rhs, 'i8')}, "
        f"%sa: tensor<f32>, %sb: tensor<f32>) -> {out} {{\n"
        f"  %fa = rlx.fp8_from_bits %a format = \"{fa}\" : ({t(lhs, 'i8')}) -> {t(lhs, ta)}\n"
        f"  %fb = rlx.fp8_from_bits %b format = \"{fb}\" : ({t(rhs, 'i8')}) -> {t(rhs, tb)}\n"
        f"  %y = rlx.scaled_matmul %fa, %fb, %sa, %sb : ({t(lhs, ta)}, {t(rhs, tb)}, "
        f"tensor<f32>, tensor<f32>) -> {out}\n  return %y : {out}\n}}\n")


for fmt in FORMATS:
    scaled_fn(f"codes_{fmt}", [256, 1], [1, 1], fmt, fmt)
scaled_fn("mm_e4m3_e5m2", ["?", 45], [45, 9], "e4m3fn", "e5m2")
scaled_fn("mm_e5m2_e4m3", [2, 3, 33], [33, 9], "e5m2", "e4m3fn")
scaled_fn("mm_e4m3_e4m3", [5, 64], [64, 9], "e4m3fn", "e4m3fn")
module = rlx.compile("\n".join(functions))

one = np.array(1.0, np.float32)
codes = np.arange(256, dtype=np.uint8).view(np.int8).reshape(256, 1)
for fmt, (_, decode, one_code) in FORMATS.items():
    got = np.asarray(module[f"codes_{fmt}"](
        codes, np.array([[one_code]], np.uint8).view(np.int8), one, one))[:, 0]
    want = decode(np.arange(256))
    same = np.array_equal(np.isnan(got), np.isnan(want)) and np.array_equal(
        got[~np.isnan(got)], want[~np.isnan(want)])
    check(f"fp8_decode_{fmt}", same, f"{np.sum(got != want)} codes differ")


def random_codes(shape, fmt):
    """Random finite codes of `fmt` (no NaN or infinity)."""
    c = rng.integers(0, 256, shape)
    finite = np.isfinite(FORMATS[fmt][1](c))
    return np.where(finite, c, 0x20).astype(np.uint8).view(np.int8)


for name, lhs, rhs, fa, fb in (
        ("mm_e4m3_e5m2", [7, 45], [45, 9], "e4m3fn", "e5m2"),
        ("mm_e5m2_e4m3", [2, 3, 33], [33, 9], "e5m2", "e4m3fn"),
        ("mm_e4m3_e4m3", [5, 64], [64, 9], "e4m3fn", "e4m3fn")):
    a, b = random_codes(lhs, fa), random_codes(rhs, fb)
    sa, sb = np.array(0.37, np.float32), np.array(-2.5, np.float32)
    da, db = FORMATS[fa][1](a.view(np.uint8)), FORMATS[fb][1](b.view(np.uint8))
    want = (da @ db) * float(sa) * float(sb)
    k = lhs[-1]
    bound = (k + 3) * U * (np.abs(da) @ np.abs(db)) * abs(float(sa) * float(sb)) + 1e-30
    within_bound(f"scaled_matmul_{name}", module[name](a, b, sa, sb), want, bound)

finish()
