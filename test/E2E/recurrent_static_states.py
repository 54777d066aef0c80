# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# Initial states whose batch is static where the input's is `?` (as ONNX
# graphs and the importers write them): rlx.lstm, rlx.mamba2 and
# rlx.gated_delta_net carry the state as their result type (`?`), reshaped
# from the static one, which lowers as a static reshape and a cast. Forward
# and the final states against float64 PyTorch references.
import torch

import rlx
from rlx_testing import sequence
from rlx_testing.checks import check_close, finish

torch.manual_seed(1908)
f64 = torch.float64

# LSTM: x [T, ?, 3], h0 and c0 [1, 2, 4].
lstm = torch.nn.LSTM(3, 4).to(f64)
weights = [w.detach() for w in lstm._flat_weights]
m = rlx.compile("""
func.func @lstm(%x: tensor<5x?x3xf64>, %wi: tensor<16x3xf64>, %wh: tensor<16x4xf64>, %bi: tensor<16xf64>, %bh: tensor<16xf64>, %h0: tensor<1x2x4xf64>, %c0: tensor<1x2x4xf64>) -> (tensor<5x?x4xf64>, tensor<1x?x4xf64>, tensor<1x?x4xf64>) {
  %y, %h, %c = rlx.lstm %x weights(%wi, %wh, %bi, %bh : tensor<16x3xf64>, tensor<16x4xf64>, tensor<16xf64>, tensor<16xf64>) initial(%h0, %c0 : tensor<1x2x4xf64>, tensor<1x2x4xf64>) : tensor<5x?x3xf64> -> tensor<5x?x4xf64>, tensor<1x?x4xf64>, tensor<1x?x4xf64>
  return %y, %h, %c : tensor<5x?x4xf64>, tensor<1x?x4xf64>, tensor<1x?x4xf64>
}
""")
x = torch.randn(5, 2, 3, dtype=f64)
h0, c0 = torch.randn(1, 2, 4, dtype=f64), torch.randn(1, 2, 4, dtype=f64)
got = m.lstm(x.numpy(), *[w.numpy() for w in weights], h0.numpy(),
             c0.numpy())
want_y, (want_h, want_c) = lstm(x, (h0, c0))
for name, g, w in zip(["y", "h", "c"], got, [want_y, want_h, want_c]):
    check_close(f"lstm {name}", g, w.detach().numpy(), 1e-10, 1e-10)

# Mamba-2 and Gated DeltaNet: x [?, L, ...], the initial state [2, ...].
m = rlx.compile("""
func.func @mamba2(%x: tensor<?x6x2x3xf64>, %dt: tensor<?x6x2xf64>, %A: tensor<2xf64>, %B: tensor<?x6x1x4xf64>, %C: tensor<?x6x1x4xf64>, %h0: tensor<2x2x3x4xf64>) -> (tensor<?x6x2x3xf64>, tensor<?x2x3x4xf64>) {
  %y, %h = rlx.mamba2 %x, %dt, %A, %B, %C initial(%h0) dt_softplus chunk = 4 : (tensor<?x6x2x3xf64>, tensor<?x6x2xf64>, tensor<2xf64>, tensor<?x6x1x4xf64>, tensor<?x6x1x4xf64>, tensor<2x2x3x4xf64>) -> (tensor<?x6x2x3xf64>, tensor<?x2x3x4xf64>)
  return %y, %h : tensor<?x6x2x3xf64>, tensor<?x2x3x4xf64>
}

func.func @gdn(%q: tensor<?x6x2x4xf64>, %k: tensor<?x6x2x4xf64>, %v: tensor<?x6x2x3xf64>, %g: tensor<?x6x2xf64>, %beta: tensor<?x6x2xf64>, %s0: tensor<2x2x3x4xf64>) -> (tensor<?x6x2x3xf64>, tensor<?x2x3x4xf64>) {
  %o, %s = rlx.gated_delta_net %q, %k, %v, %g, %beta initial(%s0) chunk = 4 : (tensor<?x6x2x4xf64>, tensor<?x6x2x4xf64>, tensor<?x6x2x3xf64>, tensor<?x6x2xf64>, tensor<?x6x2xf64>, tensor<2x2x3x4xf64>) -> (tensor<?x6x2x3xf64>, tensor<?x2x3x4xf64>)
  return %o, %s : tensor<?x6x2x3xf64>, tensor<?x2x3x4xf64>
}
""")
x, dt = torch.randn(2, 6, 2, 3, dtype=f64), torch.randn(2, 6, 2, dtype=f64)
A = -torch.exp(torch.randn(2, dtype=f64))
B, C = torch.randn(2, 6, 1, 4, dtype=f64), torch.randn(2, 6, 1, 4, dtype=f64)
h0 = torch.randn(2, 2, 3, 4, dtype=f64)
got = m.mamba2(*[t.numpy() for t in (x, dt, A, B, C, h0)])
want = sequence.ssd(x, dt, A, B, C, dt_softplus=True, initial_state=h0,
                    return_final_state=True)
for name, g, w in zip(["out", "state"], got, want):
    check_close(f"mamba2 {name}", g, w.numpy(), 1e-10, 1e-10)

q = torch.nn.functional.normalize(torch.randn(2, 6, 2, 4, dtype=f64), dim=-1)
k = torch.nn.functional.normalize(torch.randn(2, 6, 2, 4, dtype=f64), dim=-1)
v = torch.randn(2, 6, 2, 3, dtype=f64)
g = torch.nn.functional.logsigmoid(torch.randn(2, 6, 2, dtype=f64))
beta = torch.sigmoid(torch.randn(2, 6, 2, dtype=f64))
s0 = torch.randn(2, 2, 3, 4, dtype=f64)
got = m.gdn(*[t.numpy() for t in (q, k, v, g, beta, s0)])
want = sequence.gated_delta_net(q, k, v, g, beta, initial_state=s0,
                                return_final_state=True)
for name, gv, w in zip(["o", "state"], got, want):
    check_close(f"gated_delta_net {name}", gv, w.numpy(), 1e-10, 1e-10)

finish()
