# A one-case suite for cuda-harness.test: rlx.exp on a 4x8 tensor.
import numpy as np
import torch
from rlx_testing import Suite

s = Suite()
s.case("exp_f32", "%r = rlx.exp %a0 : tensor<4x8xf32>",
       [np.linspace(-1, 1, 32, dtype=np.float32).reshape(4, 8)], torch.exp,
       out="tensor<4x8xf32>")
s.run()
