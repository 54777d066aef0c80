"""Checks a compiled example model against PyTorch.

usage: check_example.py MODULE.so NAME
       (NAME: mlp, cnn or transformer_block)

For three fixed seeds it draws the example's inputs (rlx_testing.examples),
runs function NAME with rlx-run and compares with the float64 PyTorch
reference. mlp and cnn end in a softmax fed by f32 contractions (K up to
128), so the probabilities are good to ~1e-6 absolute. The transformer
block's outputs (|y| up to ~5) are sums of two residual branches at the end
of a chain of f32 contractions (K up to 256), two rms_norms and attention;
the worst absolute error measured on these seeds is 2.5e-6 (the same when
PyTorch runs the block in f32), and atol = 2.5e-5 leaves 10x room.
"""
import sys
import tempfile

import torch
from rlx_testing import Report, compare, run_function
from rlx_testing.examples import (cnn_inputs, cnn_reference, mlp_inputs,
                                  mlp_reference, transformer_block_inputs,
                                  transformer_block_reference)

EXAMPLES = {"mlp": (mlp_inputs, mlp_reference),
            "cnn": (cnn_inputs, cnn_reference),
            "transformer_block": (transformer_block_inputs,
                                  transformer_block_reference)}
# (rtol, atol) per example; see the docstring.
TOLERANCE = {"mlp": (1e-5, 1e-6), "cnn": (1e-5, 1e-6),
             "transformer_block": (1e-5, 2.5e-5)}


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
                report.record(case, compare(got, want, TOLERANCE[name]))
            except Exception as e:
                report.record(case, f"{type(e).__name__}: {e}")
    report.finish()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
