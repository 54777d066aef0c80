#!/usr/bin/env python3
"""Trains the Mamba language model of examples/mamba_block.mlir with SGD.

    mamba_block.py [--steps N] [--check]

The corpus is lstm_lm.py's: 4 sequences of 13 tokens drawn from a fixed
cyclic pattern over a 32-token vocabulary (seeded). The model embeds the
tokens, adds one Mamba block (mamba_ssm's Mamba with its default structure
and initialization: d_model 16, d_inner 32, d_state 8, d_conv 4, dt_rank 1)
applied to their RMSNorm, and predicts the next token with a linear head.
Each step runs @train_step (the loss, its gradient through the
rlx.selective_scan's decomposition, and an SGD update with learning rate 1)
and prints the loss. With --check the same training runs in PyTorch
(nn.Embedding, nn.Linear, nn.Conv1d with groups = d_inner, F.softplus,
F.silu, rlx_testing.sequence.selective_scan in float32 for the scan,
torch.optim.SGD, the same initial parameters) and every step's loss must
agree within a relative 1e-4, each gradient of the first step (@gradients)
and each final parameter within 1e-4 of its largest magnitude; the script
exits 1 otherwise. The loss must also fall by a quarter at least (the
pattern is learnable).
"""
import argparse
import math
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import rlx  # noqa: E402
from rlx_testing.examples import (  # noqa: E402
    compare_training, next_token_corpus, train_with_rlx)
from rlx_testing.sequence import selective_scan  # noqa: E402

MLIR = os.path.join(ROOT, "examples", "mamba_block.mlir")
VOCAB, D_MODEL, BATCH, TOKENS = 32, 16, 4, 12
D_INNER, D_STATE, D_CONV = 2 * D_MODEL, 8, 4
DT_RANK = math.ceil(D_MODEL / 16)
LEARNING_RATE = 1.0
PARAMETERS = ["emb", "norm_w", "w_in", "conv_w", "conv_b", "w_x", "w_dt",
              "dt_bias", "A_log", "D", "w_out", "w_head", "b_head"]


class RMSNorm(nn.Module):
    """mamba_ssm's RMSNorm (torch 1.13 has no nn.RMSNorm)."""

    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        rstd = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return x * rstd * self.weight


class Mamba(nn.Module):
    """mamba_ssm's Mamba (the reference path of its forward): in_proj to x
    and z, a causal depthwise conv1d and silu on x, x_proj to dt, B, C,
    dt_proj, the selective scan with D, and out_proj; the initialization of
    dt_proj, A_log and D is mamba_ssm's."""

    def __init__(self, dt_min=0.001, dt_max=0.1, dt_init_floor=1e-4):
        super().__init__()
        self.in_proj = nn.Linear(D_MODEL, 2 * D_INNER, bias=False)
        self.conv1d = nn.Conv1d(D_INNER, D_INNER, D_CONV, groups=D_INNER,
                                padding=D_CONV - 1)
        self.x_proj = nn.Linear(D_INNER, DT_RANK + 2 * D_STATE, bias=False)
        self.dt_proj = nn.Linear(DT_RANK, D_INNER)
        std = DT_RANK ** -0.5
        nn.init.uniform_(self.dt_proj.weight, -std, std)
        # dt_proj's bias is softplus^-1 of a step log-uniform in
        # [dt_min, dt_max].
        dt = torch.exp(torch.rand(D_INNER) * (math.log(dt_max)
                                              - math.log(dt_min))
                       + math.log(dt_min)).clamp(min=dt_init_floor)
        with torch.no_grad():
            self.dt_proj.bias.copy_(dt + torch.log(-torch.expm1(-dt)))
        states = torch.arange(1, D_STATE + 1, dtype=torch.float32)
        self.A_log = nn.Parameter(torch.log(states).repeat(D_INNER, 1))
        self.D = nn.Parameter(torch.ones(D_INNER))
        self.out_proj = nn.Linear(D_INNER, D_MODEL, bias=False)

    def forward(self, h):
        length = h.shape[1]
        x, z = self.in_proj(h).transpose(1, 2).chunk(2, dim=1)
        x = F.silu(self.conv1d(x)[..., :length])  # [batch, d_inner, L]
        dt, B, C = self.x_proj(x.transpose(1, 2)).split(
            [DT_RANK, D_STATE, D_STATE], dim=-1)
        delta = F.softplus(F.linear(dt, self.dt_proj.weight).transpose(1, 2)
                           + self.dt_proj.bias[:, None])
        A = -torch.exp(self.A_log)
        y = selective_scan(x, delta, A, B.transpose(1, 2), C.transpose(1, 2),
                           D=self.D)
        return self.out_proj((y * F.silu(z)).transpose(1, 2))


class LanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D_MODEL)
        self.norm = RMSNorm(D_MODEL)
        self.mixer = Mamba()
        self.head = nn.Linear(D_MODEL, VOCAB)

    def forward(self, tokens, targets):
        e = self.embed(tokens)
        logits = self.head(e + self.mixer(self.norm(e))).reshape(-1, VOCAB)
        return F.cross_entropy(logits, targets.reshape(-1))

    def parameters_in_module_order(self, gradients=False):
        """The @loss arguments: emb, norm_w, w_in, conv_w, conv_b, w_x, w_dt,
        dt_bias, A_log, D, w_out, w_head, b_head (the linear layers' weights
        transposed: the module multiplies on the right); with `gradients`,
        their .grad in the same layout."""
        m = self.mixer
        order = [(self.embed.weight, False), (self.norm.weight, False),
                 (m.in_proj.weight, True), (m.conv1d.weight, False),
                 (m.conv1d.bias, False), (m.x_proj.weight, True),
                 (m.dt_proj.weight, True), (m.dt_proj.bias, False),
                 (m.A_log, False), (m.D, False), (m.out_proj.weight, True),
                 (self.head.weight, True), (self.head.bias, False)]
        tensors = [(p.grad if gradients else p, t) for p, t in order]
        return [p.t() if t else p for p, t in tensors]


def check_gradients(module, params, tokens, targets, model):
    """@gradients at the initial parameters against the .grad of `model`
    after its first backward pass, each within 1e-4 of its largest
    magnitude. Most of the block's output is its skip D u at the
    initialization (the steps are small), so the losses and the final
    parameters hardly depend on the scan's state; its gradients (A_log,
    dt_bias, dt_proj, B and C through x_proj) are checked here. Returns
    the number of failures (0 or 1)."""
    _, *got = module["gradients"](*params, tokens, targets)
    worst, name = 0.0, None
    for i, (g, want) in enumerate(zip(
            got, model.parameters_in_module_order(gradients=True))):
        want = want.detach().numpy()
        error = np.abs(g - want).max() / np.abs(want).max()
        if error > worst:
            worst, name = error, PARAMETERS[i]
    print(f"gradients at step 0: largest difference {worst:.1e} of the "
          f"gradient's largest magnitude ({name})")
    return int(worst > 1e-4)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()

    torch.manual_seed(0)
    model = LanguageModel()
    tokens, targets = next_token_corpus(VOCAB, BATCH, TOKENS)
    params = [p.detach().numpy().astype(np.float32).copy()
              for p in model.parameters_in_module_order()]
    initial = [p.copy() for p in params]
    module = rlx.compile_file(MLIR)
    losses, params = train_with_rlx(module, params, (tokens, targets),
                                    args.steps)

    if not args.check:
        return 0
    optimizer = torch.optim.SGD(model.parameters(), lr=LEARNING_RATE)
    batch = (torch.tensor(tokens), torch.tensor(targets))
    failures = compare_training(
        losses, params, model, optimizer, batch,
        after_backward=lambda step: check_gradients(
            module, initial, tokens, targets, model) if step == 0 else 0)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
