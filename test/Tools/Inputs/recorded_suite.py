# A Suite for recorded-suites.test and gpu-check-split.test: one case that
# runs and one that does not compile (an op the dialect lacks), which a
# recording must carry to the replay as a failure.
import numpy as np
import torch
from rlx_testing import Suite

s = Suite()
s.case("exp_f32", "%r = rlx.exp %a0 : tensor<4x8xf32>",
       [np.linspace(-1, 1, 32, dtype=np.float32).reshape(4, 8)], torch.exp,
       out="tensor<4x8xf32>")
s.case("broken", "%r = rlx.no_such_op %a0 : tensor<2xf32>",
       [np.ones(2, np.float32)], torch.exp, out="tensor<2xf32>")
s.run()
