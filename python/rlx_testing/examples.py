"""Inputs and PyTorch references for the bundled examples (examples/*.mlir),
shared by their end-to-end checks and the fusion tests."""
import math

import numpy as np
import torch
import torch.nn.functional as F


def mlp_inputs(seed):
    """x [8,64], w1 [64,128], b1 [128], w2 [128,10], b2 [10]; weights scaled
    like a trained layer (unit-variance activations)."""
    rng = np.random.default_rng(seed)
    shapes = [(8, 64), (64, 128), (128,), (128, 10), (10,)]
    inputs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    inputs[1] /= np.sqrt(64)
    inputs[3] /= np.sqrt(128)
    return inputs


def mlp_reference(x, w1, b1, w2, b2):
    return torch.softmax(F.gelu(x @ w1 + b1) @ w2 + b2, dim=-1)


def cnn_inputs(seed):
    """An image batch, conv weights scaled like a trained layer, batch-norm
    statistics with positive variances, and a linear classifier."""
    rng = np.random.default_rng(seed)
    normal = lambda *s: rng.standard_normal(s).astype(np.float32)
    return [
        normal(2, 3, 16, 16),
        normal(8, 3, 3, 3) / np.sqrt(27),
        1 + 0.1 * normal(8),                          # gamma
        0.1 * normal(8),                              # beta
        0.1 * normal(8),                              # running mean
        rng.uniform(0.5, 1.5, 8).astype(np.float32),  # running var
        normal(16, 8, 3, 3) / np.sqrt(72),
        normal(16, 10) / 4,
        0.1 * normal(10),
    ]


def cnn_reference(x, w1, gamma, beta, mean, var, w2, w3, b3):
    y = F.conv2d(x, w1, stride=1, padding=1)
    y = F.batch_norm(y, mean, var, gamma, beta, training=False, eps=1e-5)
    y = F.max_pool2d(F.relu(y), kernel_size=2, stride=2)
    y = F.conv2d(y, w2, stride=2, padding=1)
    y = F.adaptive_avg_pool2d(y, 1).flatten(1)
    return torch.softmax(y @ w3 + b3, dim=-1)


# examples/transformer_block.mlir: batch, sequence, model dimension, query
# heads, key/value heads, head dimension, MLP hidden size, rms_norm eps.
BLOCK = dict(batch=2, seq=32, dim=128, heads=8, kv_heads=2, head_dim=16,
             hidden=256, eps=1e-5)


def transformer_block_inputs(seed, batch=BLOCK["batch"], seq=BLOCK["seq"]):
    """x [batch, seq, 128] ([2, 32, 128] as the example declares it), the
    two rms_norm gains near 1, projections scaled like trained layers
    (unit-variance activations), and rope's cos/sin tables for positions
    0..seq-1 with Llama's frequencies 10000^(-2i / head_dim)."""
    b = dict(BLOCK, batch=batch, seq=seq)
    rng = np.random.default_rng(seed)
    normal = lambda *s: rng.standard_normal(s).astype(np.float32)
    dim, hidden = b["dim"], b["hidden"]
    qkv = (b["heads"] + 2 * b["kv_heads"]) * b["head_dim"]
    half = b["head_dim"] // 2
    angles = np.arange(b["seq"])[:, None] * 10000.0 ** (
        -np.arange(half) / half)
    return [
        normal(b["batch"], b["seq"], dim),
        1 + 0.1 * normal(dim),
        normal(dim, qkv) / np.sqrt(dim),
        np.cos(angles).astype(np.float32),
        np.sin(angles).astype(np.float32),
        normal(dim, dim) / np.sqrt(dim),
        1 + 0.1 * normal(dim),
        normal(dim, 2 * hidden) / np.sqrt(dim),
        normal(hidden, dim) / np.sqrt(hidden),
    ]


def rms_norm(x, gamma, eps):
    """rlx.rms_norm over the last axis (PyTorch 1.13 has no F.rms_norm)."""
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * gamma


def rope_neox(x, cos, sin, head_dim):
    """rlx.rope neox with n_rot = head_dim on [B, S, heads * head_dim]: in
    each head, pair i is (i, i + head_dim / 2), rotated by position s's
    angle i."""
    shape = x.shape
    heads = x.reshape(*shape[:-1], -1, head_dim)
    a, b = heads[..., :head_dim // 2], heads[..., head_dim // 2:]
    c, s = cos[:, None, :], sin[:, None, :]  # [S, 1, half]: every head
    return torch.cat([a * c - b * s, b * c + a * s], -1).reshape(shape)


def transformer_block_reference(x, attn_norm, wqkv, cos, sin, wo, mlp_norm,
                                wug, wdown):
    b = BLOCK
    heads, kv_heads, d = b["heads"], b["kv_heads"], b["head_dim"]
    batch, seq = x.shape[:2]
    qkv = rms_norm(x, attn_norm, b["eps"]) @ wqkv
    q, k, v = qkv.split([heads * d, kv_heads * d, kv_heads * d], -1)
    q = rope_neox(q, cos, sin, d).reshape(batch, seq, heads, d)
    k = rope_neox(k, cos, sin, d).reshape(batch, seq, kv_heads, d)
    v = v.reshape(batch, seq, kv_heads, d)
    # Causal grouped-query attention written out, [B, H, S, D].
    group = heads // kv_heads
    q, k, v = (t.transpose(1, 2) for t in (q, k, v))
    k, v = k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)
    scores = q @ k.transpose(-1, -2) / math.sqrt(d)
    future = torch.ones(seq, seq, dtype=torch.bool).triu(1)
    p = torch.softmax(scores.masked_fill(future, float("-inf")), -1)
    a = (p @ v).transpose(1, 2).reshape(batch, seq, heads * d)
    h = x + a @ wo
    up, gate = (rms_norm(h, mlp_norm, b["eps"]) @ wug).chunk(2, -1)
    return h + (F.silu(gate) * up) @ wdown


def compare_training(losses, params, model, optimizer, batch,
                     after_backward=None):
    """The --check of the training examples (lstm_lm.py, mamba_block.py):
    trains `model` (`model(*batch)` is the loss; its
    `parameters_in_module_order()` lines up with `params`) with `optimizer`
    for as many steps as `losses` has, and compares each step's loss with
    rlx's `losses` (relative 1e-4), the final `params` (1e-4 of each
    parameter's largest magnitude), and requires the loss to fall by a
    quarter. `after_backward(step)`, if given, runs after each backward
    and returns a number of failures. Prints what it found and a verdict;
    returns the number of failures."""
    failures, largest = 0, 0.0
    for step in range(len(losses)):
        optimizer.zero_grad()
        loss = model(*batch)
        loss.backward()
        if after_backward:
            failures += after_backward(step)
        optimizer.step()
        error = abs(losses[step] - loss.item()) / abs(loss.item())
        largest = max(largest, error)
        if error > 1e-4:
            print(f"step {step}: rlx loss {losses[step]:.6f}, torch "
                  f"{loss.item():.6f} (relative {error:.1e})")
            failures += 1
    print(f"losses: largest relative difference {largest:.1e}")
    worst = 0.0
    for got, want in zip(params, model.parameters_in_module_order()):
        want = want.detach().numpy()
        worst = max(worst, np.abs(got - want).max() / np.abs(want).max())
    print(f"final parameters: largest difference {worst:.1e} of the "
          "largest magnitude")
    if worst > 1e-4:
        failures += 1
    if not losses[-1] < 0.75 * losses[0]:
        print(f"the loss did not fall: {losses[0]:.4f} -> {losses[-1]:.4f}")
        failures += 1
    print("check:", "FAILED" if failures else "the losses and parameters "
          "match PyTorch's")
    return failures


def next_token_corpus(vocab, batch, tokens):
    """The training examples' corpus: `batch` sequences that follow token
    t with (3 t + 1) mod `vocab` from seeded starts (the next token is a
    function of the current one), as (tokens, targets) `[batch, tokens]`."""
    rng = np.random.default_rng(0)
    starts = rng.integers(0, vocab, batch)
    seq = np.zeros((batch, tokens + 1), np.int64)
    seq[:, 0] = starts
    for t in range(tokens):
        seq[:, t + 1] = (3 * seq[:, t] + 1) % vocab
    return seq[:, :-1], seq[:, 1:]


def train_with_rlx(module, params, batch, steps):
    """`steps` calls of the module's @train_step (parameters, then `batch`,
    in; the loss and the new parameters out), printing each loss; returns
    the losses and the final parameters."""
    losses = []
    for step in range(steps):
        loss, *params = module["train_step"](*params, *batch)
        losses.append(float(loss))
        print(f"step {step:2d}  loss {float(loss):.5f}")
    return losses, params
