#!/usr/bin/env python3
"""Trains the LSTM language model of examples/lstm_lm.mlir with SGD.

    lstm_lm.py [--steps N] [--check]

The corpus is 4 sequences of 13 tokens drawn from a fixed cyclic pattern
over a 32-token vocabulary (seeded); each step runs @train_step (the loss,
its gradient through the rlx.lstm's decomposition, and an SGD update with
learning rate 1) and prints the loss. With --check the same training runs
in PyTorch (nn.Embedding, nn.LSTM(batch_first=True), nn.Linear,
torch.optim.SGD, float32, the same initial parameters) and every step's
loss must agree within a relative 1e-4, the final parameters within 1e-4
of their largest magnitude; the script exits 1 otherwise. The loss must
also fall by a quarter at least (the pattern is learnable).
"""
import argparse
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

VOCAB, EMBED, HIDDEN, BATCH, TOKENS = 32, 16, 32, 4, 12
LEARNING_RATE = 1.0


class LanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMBED)
        self.lstm = nn.LSTM(EMBED, HIDDEN, batch_first=True)
        self.head = nn.Linear(HIDDEN, VOCAB)

    def forward(self, tokens, targets):
        y, _ = self.lstm(self.embed(tokens))
        logits = self.head(y).reshape(-1, VOCAB)
        return F.cross_entropy(logits, targets.reshape(-1))

    def parameters_in_module_order(self):
        """The @loss arguments: emb, w_ih, w_hh, b_ih, b_hh, w_out, b_out
        (the head's weight transposed: the module multiplies on the
        right)."""
        return [self.embed.weight, *self.lstm._flat_weights,
                self.head.weight.t(), self.head.bias]


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
    module = rlx.compile_file(os.path.join(ROOT, "examples", "lstm_lm.mlir"))
    losses, params = train_with_rlx(module, params, (tokens, targets),
                                    args.steps)

    if not args.check:
        return 0
    optimizer = torch.optim.SGD(model.parameters(), lr=LEARNING_RATE)
    batch = (torch.tensor(tokens), torch.tensor(targets))
    return 1 if compare_training(losses, params, model, optimizer,
                                 batch) else 0


if __name__ == "__main__":
    sys.exit(main())
