"""Checks a compiled examples/cnn.mlir against PyTorch.

usage: check_cnn.py CNN.so

For a few fixed seeds it draws an image batch and weights (conv weights
scaled like a trained layer, positive running variances), runs `cnn` with
rlx-run and compares with the same network written with torch.nn.functional
in float64.
"""
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F
from rlx_testing import Report, compare, run_function


def reference(x, w1, gamma, beta, mean, var, w2, w3, b3):
    y = F.conv2d(x, w1, stride=1, padding=1)
    y = F.batch_norm(y, mean, var, gamma, beta, training=False, eps=1e-5)
    y = F.max_pool2d(F.relu(y), kernel_size=2, stride=2)
    y = F.conv2d(y, w2, stride=2, padding=1)
    y = F.adaptive_avg_pool2d(y, 1).flatten(1)
    return torch.softmax(y @ w3 + b3, dim=-1)


def draw(rng):
    normal = lambda *s: rng.standard_normal(s).astype(np.float32)
    return [
        normal(2, 3, 16, 16),
        normal(8, 3, 3, 3) / np.sqrt(27),
        1 + 0.1 * normal(8),                                   # gamma
        0.1 * normal(8),                                       # beta
        0.1 * normal(8),                                       # running mean
        rng.uniform(0.5, 1.5, 8).astype(np.float32),           # running var
        normal(16, 8, 3, 3) / np.sqrt(72),
        normal(16, 10) / 4,
        0.1 * normal(10),
    ]


def main(module):
    report = Report()
    with tempfile.TemporaryDirectory() as tmp:
        for seed in (0, 1, 2):
            inputs = draw(np.random.default_rng(seed))
            name = f"cnn_seed{seed}"
            try:
                (got,) = run_function(module, "cnn", inputs, f"{tmp}/{name}")
                want = reference(*[torch.from_numpy(x).double()
                                   for x in inputs])
                # Two f32 convolutions (K = 27, 72) and a matmul feed the
                # softmax: probabilities are good to ~1e-6 absolute.
                report.record(name, compare(got, want, (1e-5, 1e-6)))
            except Exception as e:
                report.record(name, f"{type(e).__name__}: {e}")
    report.finish()


if __name__ == "__main__":
    main(sys.argv[1])
