# RUN: rm -rf %t && mkdir -p %t && %oracle_python %s %t
# REQUIRES: torch, mpi
# Data-parallel training over MPI (docs/distributed.md): examples/
# train_mlp.mlir compiled with rlx-compile --mesh=N --data-parallel (its
# batch split over N processes, the gradients all-reduced inside the step)
# and run under mpirun -np N rlx-run gives, step after step, the parameters
# and loss of one process on the whole batch: 2 and 4 processes, SGD and
# Adam, 5 steps each, within 2e-6 relative to the one-process module (the
# sums of the gradient blocks add in another order) and within 1e-4 of
# PyTorch in float64 after the first step. Then the failures: a module for 2
# processes started alone is an error naming the mesh; one process given a
# wrong input (MPMD launch) makes every process exit with an error, well
# before the timeout that guards against a hang.
import os
import subprocess
import sys
import time

import numpy as np
import torch

from rlx_testing.checks import check, check_close, finish

work = sys.argv[1]
root = os.path.join(os.path.dirname(__file__), "..", "..")
example = os.path.join(root, "examples", "train_mlp.mlir")
sys.path.insert(0, os.path.join(root, "examples"))
import train_mlp  # noqa: E402  (dataset, initial parameters, constants)

MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe",
          "--mca", "btl", "self,vader", "-x", "RLX_NUM_THREADS=1"]
# The example's own launcher, as `make demo` runs it.
check("train_mlp.mpirun", train_mlp.mpirun(2)[0] == "mpirun" and
      train_mlp.mpirun(2)[-2:] == ["-np", "2"])
STEPS = 5
TIMEOUT = 120


def compile_module(name, *flags):
    path = os.path.join(work, name)
    subprocess.run(["rlx-compile", example, "-o", path, *flags], check=True)
    return path


def run(module, function, inputs, num_outputs, processes=None):
    directory = os.path.join(work, f"{os.path.basename(module)}.{function}")
    os.makedirs(directory, exist_ok=True)
    launcher = MPIRUN + ["-np", str(processes)] if processes else ()
    return train_mlp.run("rlx-run", module, function, inputs, num_outputs,
                         directory, launcher)


def train(module, optimizer, processes=None):
    x, labels = train_mlp.dataset()
    params = train_mlp.initial_parameters()
    moments = [np.zeros(train_mlp.NUM_PARAMETER_ELEMENTS, np.float32)] * 2
    history = []
    for step in range(STEPS):
        if optimizer == "sgd":
            results = run(module, "train_step", params + [x, labels], 5,
                          processes)
        else:
            t = np.array(step + 1, np.float32)
            results = run(module, "adam_step",
                          params + moments + [t, x, labels], 7, processes)
            moments = results[5:7]
        params = results[1:5]
        history.append((float(results[0]), [p.copy() for p in params]))
    return history


def torch_first_sgd_step():
    x, labels = train_mlp.dataset()
    params = [torch.tensor(p, dtype=torch.float64, requires_grad=True)
              for p in train_mlp.initial_parameters()]
    w1, b1, w2, b2 = params
    logits = torch.tanh(torch.tensor(x, dtype=torch.float64) @ w1 + b1) @ w2 + b2
    loss = torch.nn.functional.cross_entropy(logits, torch.tensor(labels))
    loss.backward()
    return [(p - train_mlp.SGD_LEARNING_RATE * p.grad).detach().numpy()
            for p in params]


single = compile_module("single.so")
meshes = {n: compile_module(f"mesh{n}.so", f"--mesh={n}",
                            "--data-parallel=train_step:4:5",
                            "--data-parallel=adam_step:7:8")
          for n in (2, 4)}

for optimizer in ("sgd", "adam"):
    reference = train(single, optimizer)
    for processes, module in meshes.items():
        history = train(module, optimizer, processes)
        for step, ((loss, params), (ref_loss, ref_params)) in enumerate(
                zip(history, reference)):
            what = f"{optimizer} {processes} processes step {step}"
            check_close(f"{what} loss", np.array(loss), np.array(ref_loss),
                        rtol=2e-6, atol=1e-7)
            for i, (p, r) in enumerate(zip(params, ref_params)):
                check_close(f"{what} parameter {i}", p, r, rtol=2e-6,
                            atol=2e-7)

# The first SGD step against PyTorch in float64.
expected = torch_first_sgd_step()
first = train(meshes[2], "sgd", 2)[0][1]
for i, (p, e) in enumerate(zip(first, expected)):
    check_close(f"sgd 2 processes step 0 parameter {i} vs torch", p, e,
                rtol=1e-4, atol=1e-5)

# A mesh module alone: an error that says how to launch it.
x, labels = train_mlp.dataset()
params = train_mlp.initial_parameters()
inputs = params + [x, labels]
for i, array in enumerate(inputs):
    np.save(os.path.join(work, f"good{i}.npy"), array)
    np.save(os.path.join(work, f"bad{i}.npy"),
            array if i != 4 else array[:16])
alone = subprocess.run(["rlx-run", meshes[2], "-f", "train_step"] +
                       sum([["-i", os.path.join(work, f"good{i}.npy")]
                            for i in range(6)], []),
                       capture_output=True, text=True, timeout=TIMEOUT)
check("alone: fails", alone.returncode != 0)
check("alone: names the mesh", "mesh of 2 processes" in alone.stderr,
      alone.stderr)

# One process with a wrong input: every process stops, none hangs.
def launch(prefix):
    return ["-np", "1", "rlx-run", meshes[2], "-f", "train_step"] + sum(
        [["-i", os.path.join(work, f"{prefix}{i}.npy")] for i in range(6)], [])


start = time.monotonic()
try:
    failed = subprocess.run(MPIRUN + launch("good") + [":"] + launch("bad"),
                            capture_output=True, text=True, timeout=TIMEOUT)
    hung = False
except subprocess.TimeoutExpired:
    hung = True
elapsed = time.monotonic() - start
check("bad input on one process: no hang", not hung)
if not hung:
    output = failed.stdout + failed.stderr
    check("bad input on one process: fails", failed.returncode != 0)
    check("bad input on one process: names the input",
          "rank 1" in output and "input 4" in output, output)
    check("bad input on one process: the other process stops too",
          "rank 0" in output, output)
    check(f"bad input on one process: stops in {elapsed:.1f} s",
          elapsed < TIMEOUT / 2)

finish()
