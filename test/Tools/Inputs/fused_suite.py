# A suite of the fusion harness (rlx_testing.fusion) for recorded-suites.test
# and gpu-check-split.test: one function compiled fused and unfused, run on
# two draws.
import os
import tempfile

import numpy as np
import torch
from rlx_testing import Report
from rlx_testing.fusion import Case, run_case

CHAIN = """
func.func @chain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.exp %x : tensor<4x8xf32>
  %1 = rlx.add %0, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
"""

report = Report()
with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, "chain.mlir")
    with open(src, "w") as f:
        f.write(CHAIN)
    rng = np.random.default_rng(0)
    draws = [[rng.standard_normal((4, 8)).astype(np.float32)]
             for _ in range(2)]
    run_case(Case("chain", src, "chain", draws, lambda x: torch.exp(x) + x,
                  "f32"), tmp, report)
report.finish()
