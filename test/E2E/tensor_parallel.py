# RUN: rm -rf %t && mkdir -p %t && %oracle_python %s %t
# REQUIRES: mpi
# Tensor parallelism over MPI (docs/distributed.md): the transformer block of
# Inputs/tensor_parallel_block.mlir with q, k, v, up and gate split by
# columns (whole heads) and wo and wdown by rows, compiled with --mesh=2 and
# --mesh=4 and run under mpirun, gives the forward output and the loss and
# every gradient (x, both norms' weights, all seven projections) of the
# module compiled without a mesh, within 2e-5 relative (partial sums add in
# another order). The forward and the backward pass have one all-reduce of
# activations per sub-block and every process runs its own heads: checked
# on the partitioned IR.
import os
import subprocess
import sys

import numpy as np

from rlx_testing.checks import check, check_close, finish

work = sys.argv[1]
source = os.path.join(os.path.dirname(__file__), "Inputs",
                      "tensor_parallel_block.mlir")
MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe",
          "--mca", "btl", "self,vader", "-x", "RLX_NUM_THREADS=1"]
TIMEOUT = 120

rng = np.random.default_rng(0)


def normal(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


positions = np.arange(8)[:, None] * (10000.0 ** (-np.arange(2) / 2))[None, :]
x = normal(2, 8, 32)
weights = [1 + normal(32, scale=0.1), normal(32, 32, scale=0.2),
           normal(32, 16, scale=0.2), normal(32, 16, scale=0.2),
           np.cos(positions).astype(np.float32),
           np.sin(positions).astype(np.float32), normal(32, 32, scale=0.2),
           1 + normal(32, scale=0.1), normal(32, 64, scale=0.2),
           normal(32, 64, scale=0.2), normal(64, 32, scale=0.2)]
dy = normal(2, 8, 32)
forward_inputs = [x] + weights
grad_inputs = forward_inputs + [dy]
GRAD_NAMES = ["loss", "x", "attn_norm", "wq", "wk", "wv", "wo", "mlp_norm",
              "wup", "wgate", "wdown"]


def run(module, function, inputs, num_outputs, processes=None):
    directory = os.path.join(work, f"{os.path.basename(module)}.{function}")
    os.makedirs(directory, exist_ok=True)
    args = ["rlx-run", module, "-f", function]
    for i, array in enumerate(inputs):
        path = os.path.join(directory, f"in{i}.npy")
        np.save(path, array)
        args += ["-i", path]
    out = os.path.join(directory, "out")
    args += ["-o", out]
    if processes:
        args = MPIRUN + ["-np", str(processes)] + args
    subprocess.run(args, check=True, capture_output=True, timeout=TIMEOUT)
    return [np.load(os.path.join(out, f"out{i}.npy"))
            for i in range(num_outputs)]


def compile_module(name, *flags):
    path = os.path.join(work, name)
    subprocess.run(["rlx-compile", source, "-o", path, *flags], check=True)
    return path


single = compile_module("single.so")
want_forward = run(single, "tp_forward", forward_inputs, 1)[0]
want_grads = run(single, "tp_grad", grad_inputs, 11)
check("the block's output is not trivial", np.abs(want_forward).max() > 0.1)

for processes in (2, 4):
    module = compile_module(f"mesh{processes}.so", f"--mesh={processes}")
    got = run(module, "tp_forward", forward_inputs, 1, processes)[0]
    check_close(f"{processes} processes: forward", got, want_forward,
                rtol=2e-5, atol=2e-6)
    grads = run(module, "tp_grad", grad_inputs, 11, processes)
    for name, g, w in zip(GRAD_NAMES, grads, want_grads):
        scale = max(float(np.abs(w).max()), 1e-3)
        check_close(f"{processes} processes: {name}", g, w, rtol=2e-5,
                    atol=2e-5 * scale)

# The partitioned forward pass: one all-reduce after each row-parallel
# matmul, and each process's attention over its own heads.
partitioned = subprocess.run(
    ["rlx-opt", source, "--rlx-autodiff", "--inline",
     "--rlx-shard-annotate=mesh=2",
     "--rlx-shard-partition"], check=True, capture_output=True,
    text=True).stdout
forward = partitioned[partitioned.index("func.func @tp_forward"):]
forward = forward[:forward.index("\n  }\n")]
check("forward: 2 all-reduces", forward.count("shard.all_reduce") == 2,
      forward.count("shard.all_reduce"))
check("forward: no gathers", "insert_slice" not in forward)
check("forward: 4 heads and 2 key/value heads per process",
      "heads = 4 kv_heads = 2" in forward)
# The backward pass adds the partial input gradients of each sub-block's
# column-parallel projections before one all-reduce (Megatron's): 2 forward
# and 2 backward all-reduces of activations; the rest gather the split
# weights' gradients into the replicated results.
grad = partitioned[partitioned.index("func.func @tp_grad"):]
grad = grad[:grad.index("\n  }\n")]
activation = "tensor<2x8x32xf32> -> tensor<2x8x32xf32>"
activation_reduces = [line for line in grad.splitlines()
                      if "shard.all_reduce" in line and activation in line]
check("backward: 2 + 2 all-reduces of activations",
      len(activation_reduces) == 4, len(activation_reduces))

finish()
