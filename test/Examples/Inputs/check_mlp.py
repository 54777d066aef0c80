"""Checks a compiled examples/mlp.mlir against PyTorch.

usage: check_mlp.py MLP.so

mlp(x, w1, b1, w2, b2) = softmax(gelu(x @ w1 + b1) @ w2 + b2, axis=-1). For a
few fixed seeds it draws inputs (rlx_testing.examples), runs the function
with rlx-run and compares with the float64 reference.
"""
import sys
import tempfile

import torch
from rlx_testing import Report, compare, run_function
from rlx_testing.examples import mlp_inputs, mlp_reference


def main(module):
    report = Report()
    with tempfile.TemporaryDirectory() as tmp:
        for seed in (0, 1, 2):
            inputs = mlp_inputs(seed)
            name = f"mlp_seed{seed}"
            try:
                (got,) = run_function(module, "mlp", inputs, f"{tmp}/{name}")
                want = mlp_reference(*[torch.from_numpy(x).double()
                                       for x in inputs])
                # Two f32 matmuls (K = 64, 128) feed the softmax: its
                # probabilities are good to ~1e-6 absolute.
                report.record(name, compare(got, want, (1e-5, 1e-6)))
            except Exception as e:
                report.record(name, f"{type(e).__name__}: {e}")
    report.finish()


if __name__ == "__main__":
    main(sys.argv[1])
