"""Checks a compiled example model against PyTorch.

usage: check_example.py MODULE.so NAME     (NAME: mlp or cnn)

For three fixed seeds it draws the example's inputs (rlx_testing.examples),
runs function NAME with rlx-run and compares with the float64 PyTorch
reference. Both examples end in a softmax fed by f32 contractions (K up to
128), so the probabilities are good to ~1e-6 absolute.
"""
import sys
import tempfile

import torch
from rlx_testing import Report, compare, run_function
from rlx_testing.examples import (cnn_inputs, cnn_reference, mlp_inputs,
                                  mlp_reference)

EXAMPLES = {"mlp": (mlp_inputs, mlp_reference),
            "cnn": (cnn_inputs, cnn_reference)}


def main(module, name):
    draw, reference = EXAMPLES[name]
    report = Report()
    with tempfile.TemporaryDirectory() as tmp:
        for seed in (0, 1, 2):
            inputs = draw(seed)
            case = f"{name}_seed{seed}"
            try:
                (got,) = run_function(module, name, inputs, f"{tmp}/{case}")
                want = reference(*[torch.from_numpy(x).double()
                                   for x in inputs])
                report.record(case, compare(got, want, (1e-5, 1e-6)))
            except Exception as e:
                report.record(case, f"{type(e).__name__}: {e}")
    report.finish()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
