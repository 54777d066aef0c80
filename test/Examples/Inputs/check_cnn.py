"""Checks a compiled examples/cnn.mlir against PyTorch.

usage: check_cnn.py CNN.so

For a few fixed seeds it draws an image batch and weights
(rlx_testing.examples), runs `cnn` with rlx-run and compares with the same
network written with torch.nn.functional in float64.
"""
import sys
import tempfile

import torch
from rlx_testing import Report, compare, run_function
from rlx_testing.examples import cnn_inputs, cnn_reference


def main(module):
    report = Report()
    with tempfile.TemporaryDirectory() as tmp:
        for seed in (0, 1, 2):
            inputs = cnn_inputs(seed)
            name = f"cnn_seed{seed}"
            try:
                (got,) = run_function(module, "cnn", inputs, f"{tmp}/{name}")
                want = cnn_reference(*[torch.from_numpy(x).double()
                                       for x in inputs])
                # Two f32 convolutions (K = 27, 72) and a matmul feed the
                # softmax: probabilities are good to ~1e-6 absolute.
                report.record(name, compare(got, want, (1e-5, 1e-6)))
            except Exception as e:
                report.record(name, f"{type(e).__name__}: {e}")
    report.finish()


if __name__ == "__main__":
    main(sys.argv[1])
