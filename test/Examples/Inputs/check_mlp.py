"""Checks a compiled examples/mlp.mlir against PyTorch.

usage: check_mlp.py MLP.so

mlp(x, w1, b1, w2, b2) = softmax(gelu(x @ w1 + b1) @ w2 + b2, axis=-1) on
x: [8,64], w1: [64,128], b1: [128], w2: [128,10], b2: [10], all f32. For a
few fixed seeds it draws inputs (weights scaled like a trained layer), runs
the function with rlx-run and compares with the float64 reference.
"""
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F
from rlx_testing import Report, compare, run_function

SHAPES = [(8, 64), (64, 128), (128,), (128, 10), (10,)]


def reference(x, w1, b1, w2, b2):
    return torch.softmax(F.gelu(x @ w1 + b1) @ w2 + b2, dim=-1)


def main(module):
    report = Report()
    with tempfile.TemporaryDirectory() as tmp:
        for seed in (0, 1, 2):
            rng = np.random.default_rng(seed)
            inputs = [rng.standard_normal(shape).astype(np.float32)
                      for shape in SHAPES]
            inputs[1] /= np.sqrt(64)  # w1, w2: unit-variance activations
            inputs[3] /= np.sqrt(128)
            name = f"mlp_seed{seed}"
            try:
                (got,) = run_function(module, "mlp", inputs, f"{tmp}/{name}")
                want = reference(*[torch.from_numpy(x).double()
                                   for x in inputs])
                # Two f32 matmuls (K = 64, 128) feed the softmax: its
                # probabilities are good to ~1e-6 absolute.
                report.record(name, compare(got, want, (1e-5, 1e-6)))
            except Exception as e:
                report.record(name, f"{type(e).__name__}: {e}")
    report.finish()


if __name__ == "__main__":
    main(sys.argv[1])
