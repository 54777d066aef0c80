#!/usr/bin/env python3
"""Runs examples/quantized_decoder.mlir on seeded random weights.

    quantized_decoder.py [--check] [--steps N]

Each step feeds 8 random token embeddings through @decoder_step with int4
group-quantized projections (packed here: two 4-bit values per byte, the
low nibble first, value (u - 8) * scale, one f32 scale per group of 32),
four int4 experts (the same packing, per expert) with top-2 routing, and
top-p sampling keyed by
(seed, offset = step). It prints the sampled tokens. With --check it also
computes the layer in float64 numpy from the same packed weights and
requires

    logits: |rlx - ref| <= 1e-4 * (1 + |ref|)      (f32 contractions of
            at most 128 terms after rms_norms; the worst measured is
            printed, ~1e-6)
    tokens: equal to the sampling definition applied to rlx's own logits
            with the row's uniform from a numpy Philox4x32-10 (the stream
            of rlx.rng_uniform: row t is element t), unless the uniform
            falls within 1e-5 (relative) of a CDF boundary
and exits 1 otherwise (it prints the smallest gap between a token's second
and third router logits: a routing that differed would move the logits). A wrong nibble order, group scale, expert id or gate
moves the logits by ~1; a wrong Philox key or nucleus rule changes tokens.
"""
import argparse
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import rlx  # noqa: E402

T, DIM, HEADS, HEAD_DIM, EXPERTS, HIDDEN, VOCAB, GROUP = 8, 64, 4, 16, 4, \
    128, 256, 32
TOP_K, TOP_P, TEMPERATURE = 40, 0.9, 0.8
EPS = 1e-5

MASK = np.uint64(0xFFFFFFFF)


def philox_words(seed, offset, n):
    """Word i of the Philox4x32-10 stream of (seed, offset), i < n."""
    m0, m1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
    w0, w1 = np.uint64(0x9E3779B9), np.uint64(0xBB67AE85)
    index = np.arange(n, dtype=np.uint64)
    block = index >> np.uint64(2)
    seed, offset = np.uint64(seed), np.uint64(offset)
    c = [block & MASK, block >> np.uint64(32), np.full(n, offset & MASK),
         np.full(n, offset >> np.uint64(32))]
    k0, k1 = seed & MASK, seed >> np.uint64(32)
    for r in range(10):
        if r:
            k0, k1 = (k0 + w0) & MASK, (k1 + w1) & MASK
        p0, p1 = m0 * c[0], m1 * c[2]
        c = [(p1 >> np.uint64(32)) ^ c[1] ^ k0, p1 & MASK,
             (p0 >> np.uint64(32)) ^ c[3] ^ k1, p0 & MASK]
    lane = (index & np.uint64(3)).astype(np.int64)
    return np.choose(lane, c).astype(np.uint32)


def quantize_int4(w):
    """(packed [N, K/2] i8, scales [N, K/GROUP] f32, dequantized [N, K]) of
    a float weight [N, K]: 4-bit values u in [0, 15] around 8."""
    n, k = w.shape
    groups = w.reshape(n, k // GROUP, GROUP)
    scales = (np.abs(groups).max(2) / 7.0).astype(np.float32)
    u = np.clip(np.round(groups / scales[..., None]) + 8, 0, 15).astype(
        np.uint8).reshape(n, k)
    packed = (u[:, 0::2] | (u[:, 1::2] << 4)).view(np.int8)
    dequantized = (u.astype(np.float64) - 8) * np.repeat(
        scales.astype(np.float64), GROUP, 1)
    return packed, scales, dequantized


def rms_norm(x, gamma):
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + EPS) * gamma


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def reference(x, p):
    """The layer in float64: (logits, expert ids, smallest router gap)."""
    n1 = rms_norm(x, p["attn_norm"])
    qkv = n1 @ p["wqkv_f"].T
    q, k, v = (qkv[:, i * DIM:(i + 1) * DIM].reshape(T, HEADS, HEAD_DIM)
               .transpose(1, 0, 2) for i in range(3))
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(HEAD_DIM)
    scores = np.where(np.tril(np.ones((T, T), bool)), scores, -np.inf)
    a = (softmax(scores) @ v).transpose(1, 0, 2).reshape(T, DIM)
    h = x + a @ p["wo_f"].T
    n2 = rms_norm(h, p["moe_norm"])
    r = n2 @ p["router"]
    order = np.argsort(-r, 1, kind="stable")
    ids = order[:, :2]
    margin = (np.take_along_axis(r, order[:, 1:2], 1) -
              np.take_along_axis(r, order[:, 2:3], 1)).min()
    gates = softmax(np.take_along_axis(r, ids, 1))
    moe = np.zeros_like(h)
    for t in range(T):
        for j in range(2):
            e = ids[t, j]
            u = p["up_f"][e] @ n2[t]
            moe[t] += gates[t, j] * (p["down_f"][e] @ (u / (1 + np.exp(-u))))
    y = h + moe
    return rms_norm(y, p["out_norm"]) @ p["lm_f"].T, ids, margin


def sample_definition(logits, u):
    """rlx.sample's tokens for rows of float64 logits and their uniforms;
    also whether each row's uniform lies near a CDF boundary."""
    x = logits / TEMPERATURE
    order = np.argsort(-x, 1, kind="stable")
    s = np.take_along_axis(x, order, 1)
    e = np.exp(s - s[:, :1])
    e[:, TOP_K:] = 0
    c = np.cumsum(e, 1)
    before = np.concatenate([np.zeros((len(x), 1)), c[:, :-1]], 1)
    kept = (e > 0) & (before < TOP_P * c[:, -1:])
    n = kept.sum(1)
    mass = c[np.arange(len(x)), n - 1]
    target = u * mass
    j = np.minimum((kept & (c <= target[:, None])).sum(1), n - 1)
    near = (kept & (np.abs(c - target[:, None]) <= 1e-5 * mass[:, None])).any(1)
    return order[np.arange(len(x)), j], near


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--steps", type=int, default=4)
    args = parser.parse_args()
    rng = np.random.default_rng(18)
    f32 = np.float32
    p = {"attn_norm": 1 + 0.1 * rng.standard_normal(DIM),
         "moe_norm": 1 + 0.1 * rng.standard_normal(DIM),
         "out_norm": 1 + 0.1 * rng.standard_normal(DIM),
         "router": rng.standard_normal((DIM, EXPERTS))}
    p = {name: value.astype(f32).astype(np.float64)
         for name, value in p.items()}
    packed = {}
    for name, n in (("wqkv", 3 * DIM), ("wo", DIM), ("lm", VOCAB)):
        w = rng.standard_normal((n, DIM)) / np.sqrt(DIM)
        packed[name], packed[name + "_s"], p[name + "_f"] = \
            quantize_int4(w)
    # Experts: [E, N, K] weights quantized expert by expert.
    for name, n, k in (("up", HIDDEN, DIM), ("down", DIM, HIDDEN)):
        experts = [quantize_int4(rng.standard_normal((n, k)) / np.sqrt(k))
                   for _ in range(EXPERTS)]
        packed[name], packed[name + "_s"], p[name + "_f"] = (
            np.stack(part) for part in zip(*experts))
    module = rlx.compile_file(os.path.join(ROOT, "examples",
                                           "quantized_decoder.mlir"))
    step = module["decoder_step"]
    seed = 0x5EED
    worst, failures, skipped = 0.0, 0, 0
    for offset in range(args.steps):
        x = rng.standard_normal((T, DIM)).astype(f32)
        tokens, logits = step(
            x, p["attn_norm"].astype(f32), packed["wqkv"], packed["wqkv_s"],
            packed["wo"], packed["wo_s"], p["moe_norm"].astype(f32),
            p["router"].astype(f32), packed["up"], packed["up_s"],
            packed["down"], packed["down_s"], p["out_norm"].astype(f32),
            packed["lm"],
            packed["lm_s"], np.array(seed, np.int64),
            np.array(offset, np.int64))
        print(f"step {offset}  tokens {' '.join(map(str, tokens))}")
        if not args.check:
            continue
        want, _, margin = reference(x.astype(np.float64), p)
        error = (np.abs(logits - want) / (1 + np.abs(want))).max()
        worst = max(worst, error)
        u = (philox_words(seed, offset, T) >> 8).astype(np.float64) * 2.0**-24
        expected, near = sample_definition(logits.astype(np.float64), u)
        mismatched = (tokens != expected) & ~near
        skipped += int(near.sum())
        print(f"        logits error {error:.1e}  router margin "
              f"{margin:.1e}  tokens {'ok' if not mismatched.any() else 'MISMATCH'}")
        if error > 1e-4 or mismatched.any():
            failures += 1
    if args.check:
        print(f"{args.steps - failures} of {args.steps} steps match the "
              f"float64 reference (worst logits error {worst:.1e}; "
              f"{skipped} rows at a CDF boundary not compared)")
        sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
