#!/usr/bin/env python3
"""Trains examples/train_mlp.mlir for 50 steps through the runtime.

    train_mlp.py RLX_RUN MODULE.so WORKDIR [--optimizer sgd|adam] [--check]
                 [--processes N]

Every step runs `train_step` (SGD, the default) or `adam_step` with rlx-run
on the current parameters (and, for Adam, its moments and the step number)
and a fixed synthetic dataset (3 classes of 4-feature points around three
centres, seeded), prints the loss and feeds the updated state to the next
step. With --check the same loop runs in PyTorch (float32, the same initial
parameters and data, torch.optim.SGD / torch.optim.Adam with the module's
hyperparameters) and every step's loss must agree within a relative 1e-4;
the script exits 1 otherwise. With --processes N, MODULE.so is a mesh module
(rlx-compile --mesh=N --data-parallel=train_step:4:5 or adam_step:7:8,
docs/distributed.md) and each step runs under `mpirun -np N`: every process
takes its block of the batch and the gradients are all-reduced inside the
step, so the losses are those of one process on the whole batch.
"""
import argparse
import os
import subprocess
import sys

import numpy as np

STEPS = 50
# As the module's rlx.constants.
SGD_LEARNING_RATE = 0.5
ADAM_LEARNING_RATE = 0.05
ADAM_BETAS = (0.9, 0.999)
ADAM_EPS = 1e-8
PARAMETER_SHAPES = [(4, 16), (16,), (16, 3), (3,)]
NUM_PARAMETER_ELEMENTS = sum(int(np.prod(s)) for s in PARAMETER_SHAPES)


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
            for s in PARAMETER_SHAPES]


def mpirun(processes):
    """The launcher of `processes` MPI processes on this machine."""
    launcher = ["mpirun", "--oversubscribe", "-x", "RLX_NUM_THREADS=1"]
    if os.geteuid() == 0:
        launcher.append("--allow-run-as-root")
    return launcher + ["-np", str(processes)]


def run(rlx_run, module, function, inputs, num_outputs, workdir,
        launcher=()):
    args = [*launcher, rlx_run, module, "-f", function]
    for i, array in enumerate(inputs):
        path = os.path.join(workdir, f"in{i}.npy")
        np.save(path, array)
        args += ["-i", path]
    out = os.path.join(workdir, "out")
    subprocess.run(args + ["-o", out], check=True, capture_output=True)
    return [np.load(os.path.join(out, f"out{i}.npy"))
            for i in range(num_outputs)]


def rlx_losses(rlx_run, module, workdir, optimizer, launcher=()):
    x, labels = dataset()
    params = initial_parameters()
    moments = [np.zeros(NUM_PARAMETER_ELEMENTS, np.float32)] * 2
    losses = []
    os.makedirs(workdir, exist_ok=True)
    for step in range(STEPS):
        if optimizer == "sgd":
            results = run(rlx_run, module, "train_step",
                          params + [x, labels], 5, workdir, launcher)
        else:
            t = np.array(step + 1, np.float32)
            results = run(rlx_run, module, "adam_step",
                          params + moments + [t, x, labels], 7, workdir,
                          launcher)
            moments = results[5:7]
        losses.append(float(results[0]))
        params = results[1:5]
    return losses


def torch_losses(optimizer):
    import torch
    import torch.nn.functional as F
    x, labels = dataset()
    x, labels = torch.from_numpy(x), torch.from_numpy(labels)
    params = [torch.tensor(p, requires_grad=True)
              for p in initial_parameters()]
    if optimizer == "sgd":
        torch_optimizer = torch.optim.SGD(params, lr=SGD_LEARNING_RATE)
    else:
        torch_optimizer = torch.optim.Adam(params, lr=ADAM_LEARNING_RATE,
                                           betas=ADAM_BETAS, eps=ADAM_EPS)
    losses = []
    for _ in range(STEPS):
        w1, b1, w2, b2 = params
        loss = F.cross_entropy(torch.tanh(x @ w1 + b1) @ w2 + b2, labels)
        losses.append(float(loss))
        torch_optimizer.zero_grad()
        loss.backward()
        torch_optimizer.step()
    return losses


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rlx_run")
    parser.add_argument("module")
    parser.add_argument("workdir")
    parser.add_argument("--optimizer", choices=["sgd", "adam"], default="sgd")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--processes", type=int, default=0,
                        help="run each step under mpirun -np N")
    args = parser.parse_args()
    launcher = mpirun(args.processes) if args.processes else ()
    losses = rlx_losses(args.rlx_run, args.module, args.workdir,
                        args.optimizer, launcher)
    reference = torch_losses(args.optimizer) if args.check else None
    failed = 0
    print(f"{args.optimizer}" + (f" on {args.processes} processes"
                                 if args.processes else "") + ":")
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
