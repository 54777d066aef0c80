"""Imports a PyTorch model into rlx, compiles its training step and trains
it, step for step against torch.optim (`make demo` runs it).

The model is written in plain torch.nn; its loss is part of the module, so
that the imported graph returns the scalar rlx.grad differentiates. The
parameters become inputs of the graph; rlx.Trainer compiles one Adam step
(the gradient function --rlx-autodiff makes, and the update in rlx ops) and
keeps the parameters and moments between steps.

    PYTHONPATH=python /usr/bin/python3 examples/train_torch.py [--steps N]
"""

import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

import rlx


class Classifier(nn.Module):
    """A small residual MLP classifier with its cross-entropy loss."""

    def __init__(self, features=8, hidden=64, classes=4):
        super().__init__()
        self.embed = nn.Linear(features, hidden)
        self.block = nn.Sequential(nn.LayerNorm(hidden),
                                   nn.Linear(hidden, hidden), nn.GELU(),
                                   nn.Linear(hidden, hidden))
        self.head = nn.Linear(hidden, classes)

    def forward(self, x, labels):
        h = self.embed(x)
        h = h + self.block(h)
        return F.cross_entropy(self.head(h), labels)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--lr", type=float, default=1e-2)
    args = parser.parse_args()

    torch.manual_seed(0)
    model = Classifier()
    x = torch.randn(128, 8)
    labels = (x[:, :2] > 0).long() @ torch.tensor([1, 2])

    start = time.perf_counter()
    imported = rlx.from_torch(model, (x, labels))
    trainer = rlx.Trainer(imported.graph, imported.parameter_inputs(),
                          rlx.Adam(lr=args.lr))
    print(f"imported {len(imported.parameter_names)} parameters and "
          f"compiled the training step in "
          f"{time.perf_counter() - start:.1f} s")

    reference = torch.optim.Adam(model.parameters(), lr=args.lr)
    worst = 0.0
    for step in range(1, args.steps + 1):
        loss = trainer.step(x=x.numpy(), labels=labels.numpy())
        reference.zero_grad()
        torch_loss = model(x, labels)
        torch_loss.backward()
        reference.step()
        worst = max(worst, abs(loss - torch_loss.item()))
        if step == 1 or step % 5 == 0:
            print(f"step {step:3d}: rlx loss {loss:.6f}  "
                  f"torch loss {torch_loss.item():.6f}")
    print(f"largest loss difference over {args.steps} steps: {worst:.2e}")
    if worst > 1e-4:
        raise SystemExit("rlx and PyTorch diverged")


if __name__ == "__main__":
    main()
