# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# rlx.sample (RlxSampleOps.td) against its definition in float64 with the
# rows' uniforms from a numpy Philox4x32-10 (python/rlx_testing/philox.py):
# (1) the token of every row equals the definition's except where u lies
#     within TOL (relative) of a CDF boundary or the nucleus sum within TOL
#     of top_p (TOL = 1e-5 for f32/f16/bf16 logits, computed in f32; 1e-12
#     for f64), over many (seed, offset) pairs and attribute sets;
# (2) 2^16 rows of one small-vocabulary row (V = 8, 20, 50) per attribute
#     set: a chi-square test of the token counts against the exact
#     renormalized probabilities must not reject at p = 1e-4, and no token
#     outside the kept set ever appears;
# (3) temperature = 0 is the argmax (ties to the smaller index, first NaN);
# (4) `?` rows; (5) 1 and 2 threads give identical tokens; f16 and bf16
# logits; i32 results; the stated NaN / +inf / all -inf rows.
import numpy as np
import torch

import rlx
from rlx_testing.checks import check, finish
from rlx_testing.philox import words


def uniforms(seed, offset, rows, f64=False):
    """rlx.rng_uniform of the rows in f32 (top 24 bits) or f64 (32 bits)."""
    bits = 32 if f64 else 24
    return (words(seed, offset, rows) >> (32 - bits)).astype(np.float64) * \
        2.0 ** -bits


def key(value):
    return np.array(value, np.int64)


def bf16_round(x):
    """f32 -> nearest-even bf16, kept in an f32 array."""
    b = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF0000
    return b.astype(np.uint32).view(np.float32)


def definition(logits, top_k, top_p, temperature, u, tol):
    """(tokens, ambiguous, kept, probabilities) of rows of float64 logits by
    the op's definition; `ambiguous` marks rows within `tol` of a boundary."""
    logits = np.asarray(logits, np.float64)
    rows, vocabulary = logits.shape
    r = np.arange(rows)
    if temperature == 0:
        return np.argmax(logits, 1), np.zeros(rows, bool), None, None
    x = logits / temperature
    order = np.argsort(-x, axis=1, kind="stable")
    s = np.take_along_axis(x, order, 1)
    e = np.exp(s - s[:, :1])
    if 0 < top_k < vocabulary:
        e[:, top_k:] = 0
    c = np.cumsum(e, 1)
    before = np.concatenate([np.zeros((rows, 1)), c[:, :-1]], 1)
    total = c[:, -1:]
    kept = e > 0
    ambiguous = np.zeros(rows, bool)
    if top_p < 1:
        kept &= before < top_p * total
        ambiguous |= (np.abs(before / total - top_p) < tol).any(1)
    n = kept.sum(1)
    mass = c[r, n - 1]
    t = u * mass
    count = (kept & (c <= t[:, None])).sum(1)
    j = np.minimum(count, n - 1)
    ambiguous |= (kept & (np.abs(c - t[:, None]) <= tol * mass[:, None])).any(1)
    probabilities = np.where(kept, e, 0) / mass[:, None]
    return order[r, j], ambiguous, np.take_along_axis(
        kept, np.argsort(order, 1), 1), np.take_along_axis(
        probabilities, np.argsort(order, 1), 1)


def ttype(shape, dtype):
    return "tensor<" + "".join(f"{'?' if d is None else d}x"
                               for d in shape) + dtype + ">"


def attrs(top_k, top_p, temperature):
    return f"top_k = {top_k} top_p = {top_p!r} temperature = {temperature!r}"


def function(name, shape, dtype, config, result="i64", cast_from=None):
    """A func @name(logits, seed, offset) -> tokens; with cast_from the
    logits arrive in that type and are cast to `dtype` first."""
    t_in = ttype(shape, cast_from or dtype)
    t_l = ttype(shape, dtype)
    t_r = ttype(shape[:-1], result)
    body = []
    logits = "%l"
    if cast_from:
        body.append(f"  %c = rlx.cast %l : {t_in} -> {t_l}")
        logits = "%c"
    body.append(f"  %t = rlx.sample {logits}, %s, %o {attrs(*config)} : "
                f"{t_l} -> {t_r}")
    return "\n".join([
        f"func.func @{name}(%l: {t_in}, %s: tensor<i64>, %o: tensor<i64>) "
        f"-> {t_r} {{", *body, f"  return %t : {t_r}", "}"])


CONFIGS = [(0, 1.0, 1.0), (5, 1.0, 1.0), (0, 0.8, 1.0), (10, 0.9, 0.7),
           (3, 0.5, 1.5), (0, 1.0, 2.0), (1, 1.0, 1.0), (0, 0.05, 1.0),
           (40, 0.95, 0.5)]

# --- (1) exactness ----------------------------------------------------------
ROWS, VOCAB = 512, 64
functions = []
for i, config in enumerate(CONFIGS):
    functions.append(function(f"f32_{i}", [ROWS, VOCAB], "f32", config))
    functions.append(function(f"f64_{i}", [ROWS, VOCAB], "f64", config))
    functions.append(function(f"f16_{i}", [ROWS, VOCAB], "f16", config))
    functions.append(function(f"bf16_{i}", [ROWS, VOCAB], "bf16", config,
                              cast_from="f32"))
    functions.append(function(f"dyn_{i}", [None, VOCAB], "f32", config,
                              result="i32"))
functions.append(function("greedy", [None, 16], "f32", (5, 0.5, 0.0)))
functions.append(function("greedy_f16", [8, 16], "f16", (0, 1.0, 0.0),
                          result="i32"))
functions.append(function("special", [None, 6], "f32", (0, 0.9, 1.0)))
functions.append(function("vector", [VOCAB], "f32", (0, 0.9, 0.8)))
module = rlx.compile("\n".join(functions))

rng = np.random.default_rng(0)
pairs = [(0, 0), (42, 7), (2**40 + 3, 2**33), (-1, -1), (7, 123456789),
         (-(2**63), 5)]
for i, config in enumerate(CONFIGS):
    for dtype in ["f32", "f64", "f16", "bf16", "dyn"]:
        worst, tested, skipped = 0, 0, 0
        for seed, offset in pairs:
            logits = rng.normal(0, 2.5, (ROWS, VOCAB))
            if dtype == "f16":
                logits = logits.astype(np.float16)
            elif dtype == "f64":
                logits = logits.astype(np.float64)
            else:
                logits = logits.astype(np.float32)
                if dtype == "bf16":
                    logits = bf16_round(logits)
            got = module[f"{dtype}_{i}"](logits, key(seed), key(offset))
            f64 = dtype == "f64"
            u = uniforms(seed, offset, ROWS, f64)
            want, ambiguous, _, _ = definition(
                logits.astype(np.float64), *config, u,
                1e-12 if f64 else 1e-5)
            bad = (got.astype(np.int64) != want) & ~ambiguous
            worst += int(bad.sum())
            tested += int((~ambiguous).sum())
            skipped += int(ambiguous.sum())
        check(f"exact_{dtype}_{config}", worst == 0 and tested > 0.9 * len(
            pairs) * ROWS, f"{worst} of {tested} rows differ "
              f"({skipped} near a boundary skipped)")

# Ties (integer logits): equal logits ordered by the smaller index, in the
# top-k cut and in the inverse CDF.
for i, config in enumerate(CONFIGS):
    logits = np.round(rng.normal(0, 1.5, (ROWS, VOCAB))).astype(np.float32)
    u = uniforms(5, i, ROWS)
    got = module[f"f32_{i}"](logits, key(5), key(i))
    want, ambiguous, _, _ = definition(logits, *config, u, 1e-5)
    bad = (got != want) & ~ambiguous
    check(f"ties_{config}", not bad.any() and (~ambiguous).sum() > 0.9 * ROWS,
          f"{int(bad.sum())} rows differ, {int(ambiguous.sum())} skipped")

# --- (4) `?` rows: any count, the same rows as a static batch ----------------
for rows in [1, 3, 1000]:
    logits = rng.normal(0, 2, (rows, VOCAB)).astype(np.float32)
    got = module["dyn_3"](logits, key(9), key(rows))
    want, ambiguous, _, _ = definition(logits, *CONFIGS[3],
                                       uniforms(9, rows, rows), 1e-5)
    check(f"dynamic_rows_{rows}", got.shape == (rows,) and got.dtype ==
          np.int32 and np.array_equal(got[~ambiguous], want[~ambiguous]),
          (got.shape, got.dtype))
logits = rng.normal(0, 2, VOCAB).astype(np.float32)
got = module["vector"](logits, key(4), key(2))
want, ambiguous, _, _ = definition(logits[None], 0, 0.9, 0.8,
                                   uniforms(4, 2, 1), 1e-5)
check("rank1_logits", got.shape == () and (ambiguous[0] or int(got) ==
                                           want[0]), got)

# --- (3) greedy ---------------------------------------------------------------
logits = np.round(rng.normal(0, 1.5, (300, 16))).astype(np.float32)  # ties
logits[5, 3] = np.nan
logits[5, 9] = np.nan
got = module["greedy"](logits, key(1), key(2))
want = np.argmax(np.where(np.isnan(logits), np.inf, logits), 1)
want[5] = 3
check("greedy", np.array_equal(got, want),
      np.count_nonzero(got != want))
check("greedy_seed_independent", np.array_equal(
    got, module["greedy"](logits, key(99), key(-5))))
h = np.round(rng.normal(0, 2, (8, 16))).astype(np.float16)
check("greedy_f16", np.array_equal(module["greedy_f16"](h, key(0), key(0)),
                                   np.argmax(h, 1)))

# --- the stated rows without a distribution ---------------------------------
inf, nan = np.inf, np.nan
special = np.array([[0, 1, nan, 2, nan, 0],     # first NaN
                    [0, inf, 1, inf, 2, 3],     # first +inf
                    [-inf] * 6,                 # all -inf: 0
                    [-inf, -inf, 1, -inf, -inf, -inf],  # the one finite
                    [nan, inf, 0, 0, 0, 0],
                    [3e38, -3e38, 0, 1, 2, 3]],  # the rest underflow
                   np.float32)
got = module["special"](special, key(3), key(3))
check("special_rows", list(got[:5]) == [2, 1, 0, 2, 0] and got[5] == 0,
      list(got))

# --- (5) 1 and 2 threads ------------------------------------------------------
big = rng.normal(0, 2, (20000, VOCAB)).astype(np.float32)
rlx.set_num_threads(1)
one = module["dyn_3"](big, key(11), key(12))
rlx.set_num_threads(2)
two = module["dyn_3"](big, key(11), key(12))
rlx.set_num_threads(0)
check("threads", np.array_equal(one, two), np.count_nonzero(one != two))

# --- (2) distribution ---------------------------------------------------------
N = 1 << 16


def chi2_pvalue(observed, expected):
    """Chi-square p-value, bins with expected count < 5 pooled."""
    order = np.argsort(expected)
    observed, expected = observed[order], expected[order]
    small = expected < 5
    obs = list(observed[~small])
    exp = list(expected[~small])
    if small.any():
        obs.append(observed[small].sum())
        exp.append(expected[small].sum())
    obs, exp = np.array(obs, np.float64), np.array(exp, np.float64)
    stat = float(((obs - exp) ** 2 / exp).sum())
    df = len(obs) - 1
    if df < 1:
        return 1.0, stat, df
    return float(torch.special.gammaincc(torch.tensor(df / 2.0, dtype=torch.float64),
                                         torch.tensor(stat / 2.0, dtype=torch.float64))), stat, df


functions = []
rows_of = {}
for vocabulary in [8, 20, 50]:
    row = rng.normal(0, 0.7, vocabulary)
    row[1] = row[0]  # a tie: equal probabilities ordered by index
    rows_of[vocabulary] = row.astype(np.float32)
    for i, config in enumerate(CONFIGS):
        functions.append(function(f"d{vocabulary}_{i}", [N, vocabulary],
                                  "f32", config))
distribution = rlx.compile("\n".join(functions))
for vocabulary, row in rows_of.items():
    logits = np.tile(row, (N, 1))
    for i, config in enumerate(CONFIGS):
        got = distribution[f"d{vocabulary}_{i}"](logits, key(vocabulary),
                                                 key(i))
        _, _, kept, probabilities = definition(row[None].astype(np.float64),
                                               *config, np.zeros(1), 0)
        counts = np.bincount(got, minlength=vocabulary)
        outside = int(counts[~kept[0]].sum())
        p, stat, df = chi2_pvalue(counts[kept[0]].astype(np.float64),
                                  N * probabilities[0][kept[0]])
        check(f"distribution_V{vocabulary}_{config}", outside == 0 and
              p > 1e-4, f"chi2 {stat:.1f} df {df} p {p:.2g}, "
              f"{outside} outside the kept set")

finish()
