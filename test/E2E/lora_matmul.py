# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# rlx.lora_matmul (x W + scale (x A) B) built with rlx.Graph, against PyTorch
# in float64: the forward at a static and a `?` batch, f32 and bf16, and
# the gradients of a loss with respect to the input, the weight and both
# adapter matrices through rlx.grad, fused and unfused.
import numpy as np
import torch

import rlx
from rlx_testing.checks import check, finish

torch.manual_seed(18)


def reference(x, w, a, b, scale):
    return x @ w + scale * ((x @ a) @ b)


def close(name, got, want, rtol, atol):
    want = want.detach().numpy()
    ok = got.shape == want.shape and np.allclose(got, want, rtol=rtol,
                                                 atol=atol)
    check(name, ok, f"max error {np.abs(got - want).max()}")


K, N, R, SCALE = 64, 48, 8, 2.0
w, a, b = (torch.randn(K, N) * 0.1, torch.randn(K, R) * 0.1,
           torch.randn(R, N) * 0.1)

# Forward: a `?` batch of rows, at two sizes.
g = rlx.Graph("lora")
x_in = g.tensor([None, 3, K], name="x")
inputs = [g.tensor(t.shape, name=n) for t, n in zip((w, a, b), "wab")]
g.output(g.lora_matmul(x_in, *inputs, scale=SCALE))
lora = g.compile()
for batch in (1, 5):
    x = torch.randn(batch, 3, K)
    close(f"forward_{batch}", lora(x, w, a, b),
          reference(x.double(), w.double(), a.double(), b.double(), SCALE),
          1e-5, 1e-5)

# bf16 operands: the products accumulate in f32 and round to bf16.
g = rlx.Graph("lora_bf16")
x_in = g.tensor([16, K], name="x")
inputs = [g.tensor(t.shape, name=n) for t, n in zip((w, a, b), "wab")]
cast = [g.cast(t, dtype="bf16") for t in [x_in, *inputs]]
g.output(g.cast(g.lora_matmul(*cast, scale=SCALE), dtype="f32"))
x = torch.randn(16, K)
bf = [t.bfloat16().double() for t in (x, w, a, b)]
close("forward_bf16", g.compile()(x, w, a, b), reference(*bf, SCALE), 3e-2,
      3e-2)

# Gradients of sum(lora_matmul(...) * t) for every operand.
g = rlx.Graph("loss")
x_in = g.tensor([8, K], name="x")
inputs = [g.tensor(t.shape, name=n) for t, n in zip((w, a, b), "wab")]
target = g.tensor([8, N], name="target")
g.output(g.reduce(g.lora_matmul(x_in, *inputs, scale=SCALE) * target,
                  kind="sum", axes=[0, 1]))
x, t = torch.randn(8, K), torch.randn(8, N)
leaves = [v.double().requires_grad_() for v in (x, w, a, b)]
loss = (reference(*leaves, SCALE) * t.double()).sum()
loss.backward()
for fuse in (True, False):
    got = rlx.grad(g, wrt=[x_in, *inputs]).compile(fuse=fuse)(x, w, a, b, t)
    label = "fused" if fuse else "unfused"
    close(f"loss_{label}", np.asarray(got[0]), loss, 1e-5, 1e-4)
    for name, value, leaf in zip("xwab", got[1:], leaves):
        close(f"grad_{name}_{label}", value, leaf.grad, 1e-4, 1e-5)

finish()
