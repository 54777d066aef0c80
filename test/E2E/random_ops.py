# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# The random ops (RlxRandomOps.td) against a numpy Philox4x32-10 written
# here from Random123's definition and checked on its known-answer vectors:
# rng_bits bit for bit (shapes not a multiple of 4, 64-bit seeds and
# offsets), rng_uniform exactly from the bits, rng_normal within float
# error of Box-Muller in float64 on the same bits; moments and
# Kolmogorov-Smirnov tests of both distributions; dropout's mask, scale,
# `?` sizes and gradient; identical numbers at 1 and 2 threads.
import math

import numpy as np

import rlx
from rlx_testing.checks import check, finish
from rlx_testing.philox import philox, words

# Random123's known-answer vectors for philox4x32-10.
KATS = [
    ([0, 0, 0, 0], [0, 0], [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
    ([0xFFFFFFFF] * 4, [0xFFFFFFFF] * 2,
     [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]),
    ([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344],
     [0xA4093822, 0x299F31D0],
     [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]),
]
for counter, key, want in KATS:
    got = [int(w) for w in philox(counter, key)]
    check(f"kat_{counter[0]:x}", got == want, [hex(w) for w in got])


def key(value):
    return np.array(value, np.int64)


def generator(op, shape, dtype, threads=None, **attributes):
    g = rlx.Graph(op)
    seed, offset = g.tensor([], "i64", name="seed"), g.tensor([], "i64",
                                                              name="offset")
    g.output(getattr(g, op)(seed, offset, shape=shape, dtype=dtype,
                            **attributes))
    return g.compile(threads=threads)


# -- the generator, bit for bit ----------------------------------------------
bits = {shape: generator("rng_bits", shape, "i32")
        for shape in [(4, 8), (3, 5, 7), (1000,), ()]}
first = bits[(4, 8)](key(0), key(0)).view(np.uint32).reshape(-1)[:4]
check("kat_through_rlx", [int(w) for w in first] == KATS[0][2],
      [hex(w) for w in first])
for shape, function in bits.items():
    n = int(np.prod(shape))
    for seed, offset in [(0, 0), (42, 7), (2**40 + 3, 2**33), (-1, -1),
                         (-(2**63), 5)]:
        got = function(key(seed), key(offset)).view(np.uint32).reshape(-1)
        want = words(seed, offset, n)
        check(f"bits_{shape}_{seed}_{offset}", np.array_equal(got, want),
              f"{np.count_nonzero(got != want)} of {n} words differ")
a = bits[(1000,)](key(1), key(0))
b = bits[(1000,)](key(1), key(1))
check("offsets_differ", np.count_nonzero(a == b) < 5,
      np.count_nonzero(a == b))

# -- uniform: the top bits of each word, exactly -----------------------------
n = 1 << 18
for dtype, bits_kept in [("f32", 24), ("f16", 11), ("bf16", 8), ("f64", 32)]:
    got = generator("rng_uniform", [n], dtype)(key(3), key(11))
    want = (words(3, 11, n) >> (32 - bits_kept)).astype(np.float64) * \
        2.0 ** -bits_kept
    check(f"uniform_{dtype}", np.array_equal(got.astype(np.float64), want),
          np.abs(got - want).max())
scaled = generator("rng_uniform", [4096], "f32", low=-2.0, high=3.0)(
    key(5), key(0))
want = -2.0 + 5.0 * (words(5, 0, 4096) >> 8).astype(np.float64) * 2.0 ** -24
check("uniform_bounds", np.allclose(scaled, want, rtol=0, atol=4e-7) and
      scaled.min() >= -2.0 and scaled.max() < 3.0, np.abs(scaled - want).max())


def ks_statistic(sample, cdf):
    sample = np.sort(np.asarray(sample, np.float64))
    m = len(sample)
    values = cdf(sample)
    return max(np.max(np.arange(1, m + 1) / m - values),
               np.max(values - np.arange(m) / m))


# Moments within 5 standard errors; KS at the 0.1% level (1.95 / sqrt(n)).
u = generator("rng_uniform", [n], "f32")(key(2024), key(0)).astype(np.float64)
check("uniform_mean", abs(u.mean() - 0.5) < 5 * math.sqrt(1 / 12 / n),
      u.mean())
check("uniform_variance", abs(u.var() - 1 / 12) < 5 * math.sqrt(1 / 180 / n),
      u.var())
d = ks_statistic(u, lambda x: x)
check("uniform_ks", d < 1.95 / math.sqrt(n), d)

# -- normal: Box-Muller on the same words -------------------------------------


def box_muller(seed, offset, count):
    w = words(seed, offset, (count + 3) // 4 * 4).reshape(-1, 4)
    radius_words = np.stack([w[:, 0], w[:, 0], w[:, 2], w[:, 2]], 1)
    angle_words = np.stack([w[:, 1], w[:, 1], w[:, 3], w[:, 3]], 1)
    uu = ((radius_words >> 8).astype(np.float64) + 1) * 2.0 ** -24
    vv = (angle_words >> 8).astype(np.float64) * 2.0 ** -24
    r = np.sqrt(-2 * np.log(uu))
    z = np.where(np.arange(4) % 2 == 0, r * np.cos(2 * np.pi * vv),
                 r * np.sin(2 * np.pi * vv))
    return z.reshape(-1)[:count]


z = generator("rng_normal", [n], "f32")(key(77), key(3)).astype(np.float64)
reference = box_muller(77, 3, n)
check("normal_values", np.allclose(z, reference, rtol=2e-5, atol=2e-5),
      np.abs(z - reference).max())
check("normal_mean", abs(z.mean()) < 5 / math.sqrt(n), z.mean())
check("normal_variance", abs(z.var() - 1) < 5 * math.sqrt(2 / n), z.var())
normal_cdf = np.vectorize(lambda x: 0.5 * (1 + math.erf(x / math.sqrt(2))))
d = ks_statistic(z, normal_cdf)
check("normal_ks", d < 1.95 / math.sqrt(n), d)
shifted = generator("rng_normal", [5, 7], "f64", mean=3.0, std=0.5)(
    key(9), key(1))
check("normal_mean_std_f64",
      np.allclose(shifted.reshape(-1), 3.0 + 0.5 * box_muller(9, 1, 35),
                  rtol=1e-12, atol=1e-12),
      np.abs(shifted.reshape(-1) - 3.0 - 0.5 * box_muller(9, 1, 35)).max())
half = generator("rng_normal", [64], "f16")(key(77), key(3))
check("normal_f16", np.allclose(half.astype(np.float64), reference[:64],
                                rtol=1e-3, atol=2e-3),
      np.abs(half - reference[:64]).max())

# -- identical at 1 and 2 threads ---------------------------------------------
one = generator("rng_normal", [256, 1024], "f32", threads=1)(key(1), key(2))
two = generator("rng_normal", [256, 1024], "f32", threads=2)(key(1), key(2))
check("normal_threads", np.array_equal(one, two))
check("normal_threads_reference",
      np.allclose(one.reshape(-1), box_muller(1, 2, 256 * 1024), rtol=2e-5,
                  atol=2e-5))

# -- dropout ------------------------------------------------------------------
p = 0.3
g = rlx.Graph("dropout")
x = g.tensor([None, 96], name="x")
seed, offset = g.tensor([], "i64", name="seed"), g.tensor([], "i64",
                                                          name="offset")
g.output(g.dropout(x, seed, offset, p=p))
dropout = g.compile()
keep_threshold = round(p * 2**24)
for rows in (1, 37):
    xs = np.random.default_rng(rows).standard_normal((rows, 96)).astype(
        np.float32)
    got = dropout(xs, key(12), key(34))
    keep = (words(12, 34, rows * 96) >> 8 >= keep_threshold).reshape(rows, 96)
    want = np.where(keep, xs * np.float32(1 / (1 - p)), 0)
    check(f"dropout_{rows}", np.array_equal(got, want),
          np.abs(got - want).max())
kept = dropout(np.ones((37, 96), np.float32), key(12), key(34)) != 0
uniform = generator("rng_uniform", [37, 96], "f32")(key(12), key(34))
check("dropout_is_uniform_ge_p", np.array_equal(kept, uniform >= p))
big = dropout(np.ones((4096, 96), np.float32), key(5), key(6))
fraction = np.count_nonzero(big) / big.size
check("dropout_fraction", abs(fraction - (1 - p)) < 5 * math.sqrt(
    p * (1 - p) / big.size), fraction)
check("dropout_threads",
      np.array_equal(g.compile(threads=2)(np.ones((4096, 96), np.float32),
                                          key(5), key(6)), big))
rlx.set_num_threads(1)

# The gradient: the same mask and scale on the cotangent.
g = rlx.Graph("loss")
x, w = g.tensor([8, 16], name="x"), g.tensor([8, 16], name="w")
seed, offset = g.tensor([], "i64", name="seed"), g.tensor([], "i64",
                                                          name="offset")
g.output(g.reduce(g.dropout(x, seed, offset, p=0.5) * w, kind="sum",
                  axes=[0, 1]))
xs = np.random.default_rng(0).standard_normal((8, 16)).astype(np.float32)
ws = np.random.default_rng(1).standard_normal((8, 16)).astype(np.float32)
loss, dx = rlx.grad(g, wrt=[x]).compile()(xs, ws, key(3), key(4))
keep = (words(3, 4, 128) >> 8 >= round(0.5 * 2**24)).reshape(8, 16)
check("dropout_grad", np.allclose(dx, np.where(keep, 2 * ws, 0), rtol=0,
                                  atol=0), np.abs(dx - np.where(keep, 2 * ws,
                                                                 0)).max())
check("dropout_grad_loss",
      np.isclose(loss, np.sum(np.where(keep, 2 * xs, 0) * ws,
                              dtype=np.float64), rtol=1e-5), loss)

finish()
