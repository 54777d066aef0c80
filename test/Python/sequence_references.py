# RUN: %oracle_python %s
# REQUIRES: torch
# The float64 references of the sequence ops (rlx_testing.sequence, issue
# 19) against each other: for selective_scan, ssd and gated_delta_net, the
# chunked form against the sequential one (outputs, final states, and the
# autograd gradients of a random linear loss) with each optional input and
# chunks that leave a partial tail; each sequential form against a
# two-step recurrence written out here by hand; Mamba-1's B and C groups
# (one per channel among them) against each channel run alone; SSD against
# the selective scan of its channels; and a sequence run in two halves, the
# first's final state the second's initial state, against the whole.
import math

import torch
import torch.nn.functional as F

from rlx_testing.checks import check, finish
from rlx_testing.sequence import (gated_delta_net, gated_delta_net_chunked,
                                  selective_scan, selective_scan_chunked, ssd,
                                  ssd_chunked)

torch.manual_seed(0)
BATCH, LENGTH = 2, 37
CHUNKS = (1, 8, 16, 64)  # 37 steps: a partial tail, or one partial chunk
worst = {}  # (op, what) -> the largest error seen


def randn(*shape):
    return torch.randn(*shape, dtype=torch.float64)


def rand(*shape):
    return torch.rand(*shape, dtype=torch.float64)


def agree(name, op, what, got, want, tol):
    """Checks got against want: max |got - want| / max(1, max |want|)."""
    error = ((got - want).abs().max() / want.abs().max().clamp(min=1)).item()
    worst[op, what] = max(worst.get((op, what), 0.0), error)
    check(name, error <= tol, f"{what}: error {error:.3g} > {tol:.3g}")


def compare_chunked(op, sequential, chunked, args, tol, name):
    """Outputs and final states of every chunk size against sequential."""
    out, state = sequential(*args)
    for chunk in CHUNKS:
        got, got_state = chunked(*args, chunk=chunk)
        agree(f"{op} {name} chunk {chunk}", op, "out", got, out, tol)
        agree(f"{op} {name} chunk {chunk} state", op, "final state",
              got_state, state, tol)


def compare_gradients(op, sequential, chunked, args, tol, chunk=8):
    """Gradients of sum(out * R) + sum(state * R') with respect to every
    tensor argument, chunked against sequential."""
    inputs = [a.detach().requires_grad_() if torch.is_tensor(a) else a
              for a in args]
    tensors = [a for a in inputs if torch.is_tensor(a)]
    out, state = sequential(*inputs)
    weights = randn(*out.shape), randn(*state.shape)

    def gradients(result):
        loss = sum((r * w).sum() for r, w in zip(result, weights))
        return torch.autograd.grad(loss, tensors)

    want = gradients((out, state))
    got = gradients(chunked(*inputs, chunk=chunk))
    for i, (g, w) in enumerate(zip(got, want)):
        agree(f"{op} gradient of argument {i}", op, "gradients", g, w, tol)


def softplus(x):
    return math.log1p(math.exp(x))


def silu(x):
    return x / (1 + math.exp(-x))


# --- selective_scan ----------------------------------------------------------

def mamba1_inputs(dim=4, N=3, groups=None):
    """u, delta (> 0), A (< 0), B, C (groups None: [batch, N, L])."""
    bc_shape = ((BATCH, N, LENGTH) if groups is None
                else (BATCH, groups, N, LENGTH))
    return (randn(BATCH, dim, LENGTH), rand(BATCH, dim, LENGTH),
            -2 * rand(dim, N), randn(*bc_shape), randn(*bc_shape))


def mamba1(op):
    """op returning (out, last state), its options in order by position
    (the helpers above append them to the inputs); as are mamba2, gdn."""
    def call(u, delta, A, B, C, D=None, z=None, delta_bias=None,
             delta_softplus=False, **chunk):
        return op(u, delta, A, B, C, D, z, delta_bias, delta_softplus,
                  return_last_state=True, **chunk)
    return call


dim = 4
options = {
    "plain": (),
    "D": (randn(dim),),
    "D z": (randn(dim), randn(BATCH, dim, LENGTH)),
    "bias softplus": (None, None, randn(dim), True),
    "softplus": (None, None, None, True),
    "all": (randn(dim), randn(BATCH, dim, LENGTH), randn(dim), True),
}
for groups in (None, 1, 2, 4):
    inputs = mamba1_inputs(dim, groups=groups)
    for name, extra in options.items():
        u, delta = inputs[:2]
        if len(extra) > 3 and extra[3]:  # softplus: deltas of either sign
            delta = randn(*delta.shape)
        compare_chunked("selective_scan", mamba1(selective_scan),
                        mamba1(selective_scan_chunked),
                        (u, delta) + inputs[2:] + extra, 1e-12,
                        f"groups {groups} {name}")
inputs = mamba1_inputs(dim, groups=2)
compare_gradients("selective_scan", mamba1(selective_scan),
                  mamba1(selective_scan_chunked),
                  inputs + options["all"], 1e-11)

# Each channel alone, with its group's B and C: channel d reads group
# d // (dim / groups); with groups == dim, that is per-channel B and C.
for groups in (2, dim):
    u, delta, A, B, C = mamba1_inputs(dim, groups=groups)
    D, z = randn(dim), randn(BATCH, dim, LENGTH)
    out, state = selective_scan(u, delta, A, B, C, D, z,
                                return_last_state=True)
    for d in range(dim):
        one, group = slice(d, d + 1), d // (dim // groups)
        want, want_state = selective_scan(
            u[:, one], delta[:, one], A[one], B[:, group], C[:, group],
            D[one], z[:, one], return_last_state=True)
        name = f"selective_scan {groups} groups, channel {d} alone"
        agree(name, "selective_scan", "groups vs channel alone",
              out[:, one], want, 1e-14)
        agree(name + " state", "selective_scan", "groups vs channel alone",
              state[:, one], want_state, 1e-14)
# One group is B and C shared by every channel.
u, delta, A, B, C = mamba1_inputs(dim, groups=1)
agree("selective_scan one group", "selective_scan", "one group vs shared",
      selective_scan(u, delta, A, B, C),
      selective_scan(u, delta, A, B[:, 0], C[:, 0]), 0)

# Two steps by hand: one channel, two states, every option.
u, delta, bias, D, z = [0.5, -1.2], [0.3, -0.4], 0.1, 0.7, [0.9, -0.6]
A, B, C = [-0.8, -1.5], [[0.4, -0.3], [1.1, 0.2]], [[0.6, 0.5], [-0.7, 1.3]]
step = [softplus(d + bias) for d in delta]
h1 = [step[0] * B[n][0] * u[0] for n in range(2)]
h2 = [math.exp(step[1] * A[n]) * h1[n] + step[1] * B[n][1] * u[1]
      for n in range(2)]
y = [sum(C[n][t] * h[n] for n in range(2)) + D * u[t]
     for t, h in enumerate((h1, h2))]
want = torch.tensor([[[y[t] * silu(z[t]) for t in range(2)]]],
                    dtype=torch.float64)
got, got_state = selective_scan(
    torch.tensor([[u]], dtype=torch.float64),
    torch.tensor([[delta]], dtype=torch.float64),
    torch.tensor([A], dtype=torch.float64),
    torch.tensor([B], dtype=torch.float64),
    torch.tensor([C], dtype=torch.float64),
    torch.tensor([D], dtype=torch.float64),
    torch.tensor([[z]], dtype=torch.float64),
    torch.tensor([bias], dtype=torch.float64), True, True)
agree("selective_scan by hand", "selective_scan", "by hand", got, want,
      1e-15)
agree("selective_scan by hand state", "selective_scan", "by hand",
      got_state, torch.tensor([[h2]], dtype=torch.float64), 1e-15)


# --- ssd ---------------------------------------------------------------------

def mamba2_inputs(heads=4, P=3, N=2, groups=2):
    """x, dt (> 0), A (< 0), B, C."""
    return (randn(BATCH, LENGTH, heads, P), rand(BATCH, LENGTH, heads),
            -rand(heads), randn(BATCH, LENGTH, groups, N),
            randn(BATCH, LENGTH, groups, N))


def mamba2(op):
    def call(x, dt, A, B, C, D=None, z=None, dt_bias=None,
             dt_softplus=False, initial_state=None, **chunk):
        return op(x, dt, A, B, C, D, z, dt_bias, dt_softplus, initial_state,
                  return_final_state=True, **chunk)
    return call


heads, P, N = 4, 3, 2
options = {
    "plain": (),
    "D": (randn(heads),),
    "D z": (randn(heads), randn(BATCH, LENGTH, heads, P)),
    "bias softplus": (None, None, randn(heads), True),
    "initial state": (None, None, None, False, randn(BATCH, heads, P, N)),
    "all": (randn(heads), randn(BATCH, LENGTH, heads, P), randn(heads), True,
            randn(BATCH, heads, P, N)),
}
for groups in (1, 2, 4):
    inputs = mamba2_inputs(heads, P, N, groups)
    for name, extra in options.items():
        x, dt = inputs[:2]
        if len(extra) > 3 and extra[3]:  # softplus: dt of either sign
            dt = randn(*dt.shape)
        compare_chunked("ssd", mamba2(ssd), mamba2(ssd_chunked),
                        (x, dt) + inputs[2:] + extra, 1e-12,
                        f"groups {groups} {name}")
inputs = mamba2_inputs(heads, P, N, 2)
compare_gradients("ssd", mamba2(ssd), mamba2(ssd_chunked),
                  inputs + options["all"], 1e-11)

# SSD is the selective scan of its heads * P channels, channel h * P + p
# taking head h's dt, A and D; B and C keep their groups.
x, dt, A, B, C = mamba2_inputs(heads, P, N, 2)
D, z, bias = randn(heads), randn(BATCH, LENGTH, heads, P), randn(heads)
out, state = ssd(x, dt, A, B, C, D, z, bias, True, return_final_state=True)


def channels(t):
    """[batch, L, heads, P] -> [batch, heads * P, L]."""
    return t.permute(0, 2, 3, 1).flatten(1, 2)


want, want_state = selective_scan(
    channels(x), dt.transpose(1, 2).repeat_interleave(P, 1),
    A.repeat_interleave(P)[:, None].expand(heads * P, N),
    B.permute(0, 2, 3, 1), C.permute(0, 2, 3, 1), D.repeat_interleave(P),
    channels(z), bias.repeat_interleave(P), True, return_last_state=True)
agree("ssd as selective_scan", "ssd", "vs selective_scan", channels(out),
      want, 1e-13)
agree("ssd as selective_scan state", "ssd", "vs selective_scan",
      state.flatten(1, 2), want_state, 1e-13)

# Two halves, the first's final state the second's initial state.
h0 = randn(BATCH, heads, P, N)
for op, f in (("ssd", ssd), ("ssd_chunked", ssd_chunked)):
    def run(steps, initial_state):
        return f(x[:, steps], dt[:, steps], A, B[:, steps], C[:, steps], D,
                 z[:, steps], bias, True, initial_state,
                 return_final_state=True)
    out, state = run(slice(None), h0)
    out1, middle = run(slice(0, 20), h0)
    out2, end = run(slice(20, None), middle)
    agree(f"{op} in two halves", "ssd", "two halves vs whole",
          torch.cat([out1, out2], 1), out, 1e-13)
    agree(f"{op} in two halves state", "ssd", "two halves vs whole", end,
          state, 1e-13)

# Two steps by hand: one head, P = N = 2, every option.
x, dt, bias, A, D = [[0.5, -1.2], [0.8, 0.3]], [0.3, -0.4], 0.1, -0.9, 0.7
z = [[0.9, -0.6], [0.2, 1.4]]
B, C = [[0.4, -0.3], [1.1, 0.2]], [[0.6, 0.5], [-0.7, 1.3]]  # [t][n]
h0 = [[0.2, -0.5], [1.0, 0.3]]  # [p][n]
step = [softplus(d + bias) for d in dt]
h1 = [[math.exp(step[0] * A) * h0[p][n] + step[0] * x[0][p] * B[0][n]
       for n in range(2)] for p in range(2)]
h2 = [[math.exp(step[1] * A) * h1[p][n] + step[1] * x[1][p] * B[1][n]
       for n in range(2)] for p in range(2)]
want = [[(sum(h[p][n] * C[t][n] for n in range(2)) + D * x[t][p])
         * silu(z[t][p]) for p in range(2)] for t, h in enumerate((h1, h2))]


def tensor(values, shape):
    return torch.tensor(values, dtype=torch.float64).reshape(shape)


got, got_state = ssd(
    tensor(x, (1, 2, 1, 2)), tensor(dt, (1, 2, 1)), tensor([A], (1,)),
    tensor(B, (1, 2, 1, 2)), tensor(C, (1, 2, 1, 2)), tensor([D], (1,)),
    tensor(z, (1, 2, 1, 2)), tensor([bias], (1,)), True,
    tensor(h0, (1, 1, 2, 2)), return_final_state=True)
agree("ssd by hand", "ssd", "by hand", got, tensor(want, (1, 2, 1, 2)),
      1e-15)
agree("ssd by hand state", "ssd", "by hand", got_state,
      tensor(h2, (1, 1, 2, 2)), 1e-15)


# --- gated_delta_net ---------------------------------------------------------

def gdn_inputs(heads=3, K=4, V=5, length=LENGTH):
    """q, k (L2-normalized, as Gated DeltaNet's layer feeds them), v,
    g (< 0), beta (in (0, 1))."""
    return (F.normalize(randn(BATCH, length, heads, K), dim=-1),
            F.normalize(randn(BATCH, length, heads, K), dim=-1),
            randn(BATCH, length, heads, V), -rand(BATCH, length, heads),
            rand(BATCH, length, heads))


def gdn(op):
    def call(q, k, v, g, beta, initial_state=None, scale=None, **chunk):
        return op(q, k, v, g, beta, initial_state, True, scale, **chunk)
    return call


heads, K, V = 3, 4, 5
inputs = gdn_inputs(heads, K, V)
S0 = randn(BATCH, heads, V, K)
options = {"plain": (), "initial state": (S0,), "scale": (None, 0.3),
           "all": (S0, 0.3)}
for name, extra in options.items():
    compare_chunked("gated_delta_net", gdn(gated_delta_net),
                    gdn(gated_delta_net_chunked), inputs + extra, 1e-10, name)
# Strong decays (g down to -8) and beta near 1.
q, k, v, g, beta = inputs
compare_chunked("gated_delta_net", gdn(gated_delta_net),
                gdn(gated_delta_net_chunked),
                (q, k, v, 8 * g, 0.9 + 0.1 * beta, S0), 1e-10, "strong")
compare_gradients("gated_delta_net", gdn(gated_delta_net),
                  gdn(gated_delta_net_chunked), inputs + (S0, 0.3), 1e-10)

agree("gated_delta_net default scale", "gated_delta_net", "default scale",
      gated_delta_net(*inputs), gated_delta_net(q * K ** -0.5, *inputs[1:],
                                                scale=1.0), 1e-15)
for op, f in (("gated_delta_net", gated_delta_net),
              ("gated_delta_net_chunked", gated_delta_net_chunked)):
    out, state = f(*inputs, S0, True)
    out1, middle = f(*[t[:, :20] for t in inputs], S0, True)
    out2, end = f(*[t[:, 20:] for t in inputs], middle, True)
    agree(f"{op} in two halves", "gated_delta_net", "two halves vs whole",
          torch.cat([out1, out2], 1), out, 1e-13)
    agree(f"{op} in two halves state", "gated_delta_net",
          "two halves vs whole", state, end, 1e-13)

# Two steps by hand, the paper's formula with matrices: one head, K = V = 2.
q, k, v, g, beta = gdn_inputs(1, 2, 2, length=2)
q, k, v, g, beta = q[:1], k[:1], v[:1], g[:1], beta[:1]
S = randn(1, 1, 2, 2)
got, got_state = gated_delta_net(q, k, v, g, beta, S, True, scale=0.6)
want, I = [], torch.eye(2, dtype=torch.float64)
state = S[0, 0]
for t in range(2):
    kt, vt, b = k[0, t, 0], v[0, t, 0], beta[0, t, 0]
    state = (g[0, t, 0].exp() * state @ (I - b * torch.outer(kt, kt))
             + b * torch.outer(vt, kt))
    want.append(state @ (0.6 * q[0, t, 0]))
agree("gated_delta_net by hand", "gated_delta_net", "by hand", got,
      torch.stack(want).reshape(1, 2, 1, 2), 1e-15)
agree("gated_delta_net by hand state", "gated_delta_net", "by hand",
      got_state[0, 0], state, 1e-15)

for (op, what), error in worst.items():
    print(f"{op}: {what}: max error {error:.2g}")
finish()
