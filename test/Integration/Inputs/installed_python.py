"""The rlx package as installed (PREFIX/python): it finds the prefix's
libraries, op specifications and rlx-compile with no environment."""
import numpy as np

import rlx
from rlx.runtime import build_dir

print("build directory:", build_dir())
g = rlx.Graph("softplus")
x = g.tensor([4], name="x")
g.output(g.softplus(x) * x)
values = np.array([-2.0, -0.5, 0.5, 2.0], np.float32)
expected = np.log1p(np.exp(values.astype(np.float64))) * values
print("softplus matches:",
      bool(np.allclose(g.compile()(values), expected, rtol=1e-6, atol=1e-6)))
