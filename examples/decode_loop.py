#!/usr/bin/env python3
"""Decodes 32 tokens with examples/decode_loop.mlir through the runtime.

    decode_loop.py RLX_RUN MODULE.so WORKDIR [--check]

Every step runs `decode_step` with rlx-run on one new token and the key and
value caches the previous step returned, starting from empty caches
([1, 0, 2, 16]): step p sees p cached keys, attends over p + 1 and returns
caches of p + 1. The token embeddings (one per step) and the layer's
parameters are seeded random; cos/sin are the neox rotary tables (base
10000) of position p. Each step prints the cache length it grew to and,
with --check, the largest absolute difference of the output and of the two
caches from the same layer in PyTorch float64, which keeps its own caches
from step 0 (so the comparison covers the errors that the rlx caches carry
from step to step). Every step must match within

    |rlx - torch| <= ATOL + RTOL * |torch|,  ATOL = RTOL = 1e-4

or the script exits 1. Why that bound: the outputs are ~1 in size (|y| up
to ~5) and come from f32 contractions of at most 128 terms, two rms_norms,
a softmax over at most 32 keys and two residual additions; the cached keys
and values are one f32 projection (plus rope for the keys) each, computed
once and then copied unchanged. The worst difference measured over the 32
steps is 1.4e-6 (printed at the end), so 1e-4 leaves ~70x room, while a
wrong head mapping, [up, gate] order or rotation sign moves the outputs by
~1.
"""
import argparse
import os
import subprocess
import sys

import numpy as np

STEPS = 32
DIM, HEADS, KV_HEADS, HEAD_DIM, HIDDEN = 64, 4, 2, 16, 128
EPS = 1e-5          # the rms_norms' eps in the module
ROPE_BASE = 10000.0
ATOL = RTOL = 1e-4
# decode_step's parameters after x, the caches and cos/sin, in order.
PARAMETER_SHAPES = [
    ("attn_norm", (DIM,)),
    ("wqkv", (DIM, (HEADS + 2 * KV_HEADS) * HEAD_DIM)),
    ("wo", (HEADS * HEAD_DIM, DIM)),
    ("mlp_norm", (DIM,)),
    ("wug", (DIM, 2 * HIDDEN)),
    ("wdown", (HIDDEN, DIM)),
]


def parameters():
    """Seeded weights, scaled by 1/sqrt(fan-in) so activations stay ~1."""
    rng = np.random.default_rng(0)
    params = []
    for name, shape in PARAMETER_SHAPES:
        if name.endswith("norm"):
            p = 1.0 + 0.1 * rng.standard_normal(shape)
        else:
            p = rng.standard_normal(shape) / np.sqrt(shape[0])
        params.append(p.astype(np.float32))
    return params


def tokens():
    """One seeded embedding per step, [1, 1, DIM] each."""
    rng = np.random.default_rng(1)
    return [rng.standard_normal((1, 1, DIM)).astype(np.float32)
            for _ in range(STEPS)]


def rope_tables(position):
    """cos/sin [1, HEAD_DIM / 2] of one position (neox, base 10000)."""
    inv_freq = ROPE_BASE ** (-np.arange(0, HEAD_DIM, 2) / HEAD_DIM)
    angle = position * inv_freq
    return (np.cos(angle)[None].astype(np.float32),
            np.sin(angle)[None].astype(np.float32))


def run(rlx_run, module, inputs, workdir):
    """Runs decode_step on the npy files of `inputs` (paths or arrays)."""
    args = [rlx_run, module, "-f", "decode_step"]
    for i, array in enumerate(inputs):
        if isinstance(array, str):
            path = array
        else:
            path = os.path.join(workdir, f"in{i}.npy")
            np.save(path, array)
        args += ["-i", path]
    out = os.path.join(workdir, "out")
    subprocess.run(args + ["-o", out], check=True, capture_output=True)
    return [np.load(os.path.join(out, f"out{i}.npy")) for i in range(3)]


def rlx_decode(rlx_run, module, workdir):
    """The outputs and caches of every step, [(out, k_cache, v_cache)]."""
    os.makedirs(workdir, exist_ok=True)
    # The parameters are the same every step: write them once.
    param_paths = []
    for (name, _), p in zip(PARAMETER_SHAPES, parameters()):
        path = os.path.join(workdir, f"{name}.npy")
        np.save(path, p)
        param_paths.append(path)
    k_cache = np.zeros((1, 0, KV_HEADS, HEAD_DIM), np.float32)
    v_cache = np.zeros((1, 0, KV_HEADS, HEAD_DIM), np.float32)
    results = []
    for position, x in enumerate(tokens()):
        cos, sin = rope_tables(position)
        out, k_cache, v_cache = run(
            rlx_run, module,
            [x, k_cache, v_cache, cos, sin] + param_paths, workdir)
        results.append((out, k_cache, v_cache))
    return results


def torch_decode():
    """The same loop in PyTorch float64, from the formulas of the ops."""
    import torch

    def rms_norm(x, w):
        return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + EPS) * w

    def rope(x, cos, sin):   # x [..., H, HEAD_DIM]; neox: pairs (i, i + 8)
        half = HEAD_DIM // 2
        a, b = x[..., :half], x[..., half:]
        return torch.cat([a * cos - b * sin, b * cos + a * sin], -1)

    def attention(q, k, v):  # q [1, 1, H, D], k/v [1, T, KV_HEADS, D]
        group = HEADS // KV_HEADS   # query head h reads kv head h // group
        k = k.repeat_interleave(group, dim=2)
        v = v.repeat_interleave(group, dim=2)
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k) / HEAD_DIM ** 0.5
        return torch.einsum("bhqk,bkhd->bqhd", scores.softmax(-1), v)

    attn_norm, wqkv, wo, mlp_norm, wug, wdown = [
        torch.from_numpy(p).double() for p in parameters()]
    k_cache = torch.zeros(1, 0, KV_HEADS, HEAD_DIM, dtype=torch.float64)
    v_cache = torch.zeros(1, 0, KV_HEADS, HEAD_DIM, dtype=torch.float64)
    results = []
    for position, x in enumerate(tokens()):
        x = torch.from_numpy(x).double()
        cos, sin = [torch.from_numpy(t).double()
                    for t in rope_tables(position)]
        qkv = rms_norm(x, attn_norm) @ wqkv
        q = qkv[..., :HEADS * HEAD_DIM].reshape(1, 1, HEADS, HEAD_DIM)
        k = qkv[..., HEADS * HEAD_DIM:(HEADS + KV_HEADS) * HEAD_DIM]
        v = qkv[..., (HEADS + KV_HEADS) * HEAD_DIM:]
        k = k.reshape(1, 1, KV_HEADS, HEAD_DIM)
        v = v.reshape(1, 1, KV_HEADS, HEAD_DIM)
        q, k = rope(q, cos, sin), rope(k, cos, sin)
        k_cache = torch.cat([k_cache, k], 1)
        v_cache = torch.cat([v_cache, v], 1)
        a = attention(q, k_cache, v_cache).reshape(1, 1, DIM)
        h = x + a @ wo
        up_gate = rms_norm(h, mlp_norm) @ wug
        up, gate = up_gate[..., :HIDDEN], up_gate[..., HIDDEN:]
        out = h + (torch.nn.functional.silu(gate) * up) @ wdown
        results.append((out.numpy(), k_cache.numpy(), v_cache.numpy()))
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rlx_run")
    parser.add_argument("module")
    parser.add_argument("workdir")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    got = rlx_decode(args.rlx_run, args.module, args.workdir)
    reference = torch_decode() if args.check else None
    failed = 0
    worst = [0.0, 0.0, 0.0]
    for step, (out, k_cache, v_cache) in enumerate(got):
        line = (f"step {step:2d}  cache {k_cache.shape[1]:2d}"
                f"  |out|max {np.abs(out).max():.4f}")
        if reference is not None:
            ok = True
            diffs = []
            for i, (a, b) in enumerate(zip((out, k_cache, v_cache),
                                           reference[step])):
                if a.shape != b.shape:
                    ok = False
                    diffs.append(float("inf"))
                    continue
                ok &= bool(np.all(np.abs(a - b) <= ATOL + RTOL * np.abs(b)))
                diffs.append(float(np.abs(a - b).max()))
                worst[i] = max(worst[i], diffs[-1])
            failed += not ok
            line += ("  max|diff| out {:.1e} k {:.1e} v {:.1e}".format(*diffs)
                     + ("" if ok else "  MISMATCH"))
        print(line)
    if reference is not None:
        print("worst max|diff| out {:.1e} k_cache {:.1e} v_cache {:.1e}"
              .format(*worst))
        print(f"{STEPS - failed} of {STEPS} steps match PyTorch")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
