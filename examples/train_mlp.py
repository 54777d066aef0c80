#!/usr/bin/env python3
"""Trains examples/train_mlp.mlir for 50 SGD steps through the runtime.

    train_mlp.py RLX_RUN MODULE.so WORKDIR [--check]

Every step runs `train_step` with rlx-run on the current parameters and a
fixed synthetic dataset (3 classes of 4-feature points around three
centres, seeded), prints the loss and feeds the updated parameters to the
next step. With --check the same loop runs in PyTorch (float32, the same
initial parameters and data) and every step's loss must agree within a
relative 1e-4; the script exits 1 otherwise.
"""
import os
import subprocess
import sys

import numpy as np

STEPS = 50
LEARNING_RATE = 0.5  # as the module's rlx.constant


def dataset():
    rng = np.random.default_rng(0)
    centres = np.array([[2, 0, 0, 1], [-1, 2, 0, -1], [0, -2, 2, 0]],
                       np.float32)
    labels = rng.integers(0, 3, 32).astype(np.int64)
    x = centres[labels] + rng.standard_normal((32, 4)).astype(np.float32)
    return x.astype(np.float32), labels


def initial_parameters():
    rng = np.random.default_rng(1)
    return [(rng.standard_normal(s) * 0.5).astype(np.float32)
            for s in [(4, 16), (16,), (16, 3), (3,)]]


def rlx_losses(rlx_run, module, workdir):
    x, labels = dataset()
    params = initial_parameters()
    losses = []
    os.makedirs(workdir, exist_ok=True)
    for step in range(STEPS):
        args = [rlx_run, module, "-f", "train_step"]
        for i, array in enumerate(params + [x, labels]):
            path = os.path.join(workdir, f"in{i}.npy")
            np.save(path, array)
            args += ["-i", path]
        out = os.path.join(workdir, "out")
        subprocess.run(args + ["-o", out], check=True, capture_output=True)
        results = [np.load(os.path.join(out, f"out{i}.npy")) for i in range(5)]
        losses.append(float(results[0]))
        params = results[1:]
    return losses


def torch_losses():
    import torch
    import torch.nn.functional as F
    x, labels = dataset()
    x, labels = torch.from_numpy(x), torch.from_numpy(labels)
    params = [torch.tensor(p, requires_grad=True)
              for p in initial_parameters()]
    losses = []
    for _ in range(STEPS):
        w1, b1, w2, b2 = params
        loss = F.cross_entropy(torch.tanh(x @ w1 + b1) @ w2 + b2, labels)
        losses.append(float(loss))
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            params = [(p - LEARNING_RATE * g).requires_grad_()
                      for p, g in zip(params, grads)]
    return losses


def main():
    rlx_run, module, workdir = sys.argv[1:4]
    losses = rlx_losses(rlx_run, module, workdir)
    reference = torch_losses() if "--check" in sys.argv[4:] else None
    failed = 0
    for step, loss in enumerate(losses):
        line = f"step {step:2d}  loss {loss:.6f}"
        if reference is not None:
            ok = abs(loss - reference[step]) <= 1e-4 * abs(reference[step])
            failed += not ok
            line += f"  PyTorch {reference[step]:.6f}" + ("" if ok else "  MISMATCH")
        print(line)
    if reference is not None:
        print(f"{STEPS - failed} of {STEPS} steps match PyTorch")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
