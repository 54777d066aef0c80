"""Float64 PyTorch references of the state-space and linear-attention ops
(issue 19): each op as its sequential recurrence (a Python loop over the
sequence) and as the chunked algorithm a kernel follows. All of them are
differentiable by autograd and work in the precision of their inputs.

selective_scan: Mamba-1's selective scan (Gu & Dao 2023, "Mamba: Linear-Time
Sequence Modeling with Selective State Spaces"), with the semantics of
mamba_ssm's selective_scan_ref for real A. Per channel d and state n:

    delta'_t = softplus(delta_t + delta_bias)     (bias, softplus optional)
    h_t[n]   = exp(delta'_t A[d, n]) h_{t-1}[n] + delta'_t B_t[n] u_t,  h_0 = 0
    y_t      = sum_n C_t[n] h_t[n] + D u_t
    out_t    = y_t * silu(z_t)                    (if z is given)

ssd: Mamba-2's state space dual (Dao & Gu 2024, "Transformers are SSMs:
Generalized Models and Efficient Algorithms Through Structured State Space
Duality"), a decay that is one scalar per head. Per head, with the state h
a [P, N] matrix (P features of x, N states):

    dt'_t = softplus(dt_t + dt_bias)              (bias, softplus optional)
    h_t   = exp(dt'_t A) h_{t-1} + dt'_t x_t B_t^T,  h_0 = initial_state or 0
    y_t   = h_t C_t + D x_t
    out_t = y_t * silu(z_t)                       (if z is given)

Mamba-2's gated RMSNorm is a separate op: only the silu gate is here.

gated_delta_net: Gated DeltaNet (Yang, Kautz & Hatamizadeh 2024, "Gated
Delta Networks: Improving Mamba2 with Delta Rule"). Per head, with the state
S a [V, K] matrix:

    S_t = exp(g_t) S_{t-1} (I - beta_t k_t k_t^T) + beta_t v_t k_t^T
    o_t = S_t (scale q_t),                        S_0 = initial_state or 0

q and k are used as given: a model that wants them L2-normalized (as Gated
DeltaNet's layer does) normalizes them before the op.

B and C come in groups: group j serves the channels (Mamba-1) or heads
(Mamba-2) j * (count / groups) up to the next group's, as in mamba_ssm.
"""
import torch
import torch.nn.functional as F


def segment_sums(a):
    """[..., T] -> [..., T, T]: entry [t, s] is a_{s+1} + ... + a_t for
    s <= t (0 on the diagonal) and -inf for s > t, so its exp() is the
    lower-triangular matrix of decays from step s to step t. Summed from the
    masked steps, as Mamba-2's segsum does, rather than as a difference of
    cumulative sums, which cancels."""
    T = a.shape[-1]
    steps = a.unsqueeze(-1).expand(*a.shape, T)  # [..., t, s] = a_t
    strictly_lower = torch.ones(T, T, dtype=torch.bool).tril(-1)
    sums = steps.masked_fill(~strictly_lower, 0).cumsum(-2)
    lower = torch.ones(T, T, dtype=torch.bool).tril()
    return sums.masked_fill(~lower, float("-inf"))


def _step_sizes(dt, bias, softplus):
    """dt + bias (bias already shaped to broadcast), softplus if asked."""
    if bias is not None:
        dt = dt + bias
    return F.softplus(dt) if softplus else dt


def _expand_groups(t, count, axis):
    """B or C with its groups axis repeated to `count` entries, so that
    entry i reads group i // (count / groups)."""
    groups = t.shape[axis]
    if count % groups:
        raise ValueError(f"{count} channels or heads in {groups} groups")
    return t.repeat_interleave(count // groups, dim=axis)


def _skip_and_gate(y, x, D, z):
    """y + D x, times silu(z): D already shaped to broadcast against x."""
    if D is not None:
        y = y + D * x
    return y if z is None else y * F.silu(z)


# --- Mamba-1 -----------------------------------------------------------------

def _mamba1_inputs(u, delta, B, C, delta_bias, delta_softplus):
    """delta' and B, C as [batch, dim, N, L] (one copy per channel)."""
    dim = u.shape[1]
    bias = None if delta_bias is None else delta_bias[:, None]
    delta = _step_sizes(delta, bias, delta_softplus)
    B, C = [_expand_groups(t.unsqueeze(1) if t.dim() == 3 else t, dim, 1)
            for t in (B, C)]
    return delta, B, C


def selective_scan(u, delta, A, B, C, D=None, z=None, delta_bias=None,
                   delta_softplus=False, return_last_state=False):
    """Mamba-1's selective scan, step by step. u, delta, z: [batch, dim, L];
    A: [dim, N]; B, C: [batch, N, L] or [batch, groups, N, L]; D,
    delta_bias: [dim]. Returns out [batch, dim, L], and with
    return_last_state also h_L [batch, dim, N]."""
    delta, B, C = _mamba1_inputs(u, delta, B, C, delta_bias, delta_softplus)
    h = u.new_zeros(u.shape[0], u.shape[1], A.shape[1])
    ys = []
    for t in range(u.shape[2]):
        step = delta[:, :, t, None]  # [batch, dim, 1]
        h = torch.exp(step * A) * h + step * B[..., t] * u[:, :, t, None]
        ys.append((C[..., t] * h).sum(-1))
    out = _skip_and_gate(torch.stack(ys, -1), u,
                         None if D is None else D[:, None], z)
    return (out, h) if return_last_state else out


def selective_scan_chunked(u, delta, A, B, C, D=None, z=None,
                           delta_bias=None, delta_softplus=False,
                           return_last_state=False, chunk=16):
    """selective_scan computed `chunk` steps at a time (the last chunk may be
    shorter), the algorithm of the CPU kernel. Within a chunk, for each
    channel and state, with a_t = delta'_t A the log decay of step t and
    x_s = delta'_s B_s u_s the input of step s:

        h_t = exp(a_1 + ... + a_t) h_0
              + sum_{s <= t} exp(a_{s+1} + ... + a_t) x_s

    where h_0 is the state entering the chunk. So y_t = sum_n C_t[n] h_t[n]
    is a masked matrix product of the chunk's inputs (the decays are
    exp(segment_sums(a))) plus the incoming state decayed to step t, and the
    state leaving the chunk is h_T."""
    delta, B, C = _mamba1_inputs(u, delta, B, C, delta_bias, delta_softplus)
    h = u.new_zeros(u.shape[0], u.shape[1], A.shape[1])
    ys = []
    for start in range(0, u.shape[2], chunk):
        steps = slice(start, start + chunk)
        dt = delta[:, :, steps]  # [batch, dim, T]
        log_decay = dt[:, :, None, :] * A[:, :, None]  # [batch, dim, N, T]
        decay_from_start = log_decay.cumsum(-1).exp()
        decay = segment_sums(log_decay).exp()  # [batch, dim, N, T, T]
        Bc, Cc = B[..., steps], C[..., steps]  # [batch, dim, N, T]
        x = Bc * (dt * u[:, :, steps])[:, :, None, :]
        y_within = torch.einsum("bdnt,bdnts,bdns->bdt", Cc, decay, x)
        y_from_state = torch.einsum("bdnt,bdnt,bdn->bdt", Cc,
                                    decay_from_start, h)
        ys.append(y_within + y_from_state)
        h = (decay_from_start[..., -1] * h
             + (decay[..., -1, :] * x).sum(-1))
    out = _skip_and_gate(torch.cat(ys, -1), u,
                         None if D is None else D[:, None], z)
    return (out, h) if return_last_state else out


# --- Mamba-2 -----------------------------------------------------------------

def _ssd_inputs(x, dt, B, C, dt_bias, dt_softplus, initial_state):
    """dt', B and C as [batch, L, heads, N], and h_0 [batch, heads, P, N]."""
    batch, _, heads, P = x.shape
    dt = _step_sizes(dt, dt_bias, dt_softplus)
    B, C = _expand_groups(B, heads, 2), _expand_groups(C, heads, 2)
    if initial_state is None:
        initial_state = x.new_zeros(batch, heads, P, B.shape[-1])
    return dt, B, C, initial_state


def ssd(x, dt, A, B, C, D=None, z=None, dt_bias=None, dt_softplus=False,
        initial_state=None, return_final_state=False):
    """Mamba-2's SSD, step by step. x, z: [batch, L, heads, P]; dt: [batch,
    L, heads]; A, D, dt_bias: [heads]; B, C: [batch, L, groups, N];
    initial_state: [batch, heads, P, N]. Returns out [batch, L, heads, P],
    and with return_final_state also h_L [batch, heads, P, N]."""
    dt, B, C, h = _ssd_inputs(x, dt, B, C, dt_bias, dt_softplus,
                              initial_state)
    ys = []
    for t in range(x.shape[1]):
        step = dt[:, t, :, None, None]  # [batch, heads, 1, 1]
        h = (torch.exp(step * A[:, None, None]) * h
             + step * x[:, t, :, :, None] * B[:, t, :, None, :])
        ys.append(torch.einsum("bhpn,bhn->bhp", h, C[:, t]))
    out = _skip_and_gate(torch.stack(ys, 1), x,
                         None if D is None else D[:, None], z)
    return (out, h) if return_final_state else out


def _split_chunks(t, chunk):
    """t [batch, L, ...] padded with zeros to a multiple of `chunk` steps,
    as [batch, chunks, chunk, ...]."""
    batch, length = t.shape[:2]
    padding = t.new_zeros(batch, -length % chunk, *t.shape[2:])
    return torch.cat([t, padding], 1).reshape(batch, -1, chunk,
                                              *t.shape[2:])


def ssd_chunked(x, dt, A, B, C, D=None, z=None, dt_bias=None,
                dt_softplus=False, initial_state=None,
                return_final_state=False, chunk=16):
    """ssd computed chunk by chunk, as ssd_minimal_discrete of the Mamba-2
    paper. With X = dt' x and a = dt' A the log decays, split into chunks of
    `chunk` steps (the tail padded with dt' = 0, which neither decays nor
    adds to the state):

    1. the diagonal blocks: each chunk's output from its own inputs,
       y_t = sum_{s <= t} (C_t . B_s) exp(a_{s+1} + ... + a_t) X_s;
    2. each chunk's state from its own inputs, X_s B_s^T decayed to its end;
    3. the states between chunks by the recurrence
       h_c = exp(a summed over chunk c) h_{c-1} + state_c (h_0 the initial
       state; the paper solves it as one matrix product over chunks);
    4. each chunk's output from the state entering it, decayed to step t.
    """
    length = x.shape[1]
    dt, B, C, initial_state = _ssd_inputs(x, dt, B, C, dt_bias,
                                          dt_softplus, initial_state)
    X = _split_chunks(x * dt[..., None], chunk)  # [batch, c, l, heads, P]
    B, C = _split_chunks(B, chunk), _split_chunks(C, chunk)
    a = _split_chunks(dt * A, chunk).permute(0, 3, 1, 2)  # [batch, h, c, l]
    a_cumsum = a.cumsum(-1)

    # 1. Within chunks: the diagonal blocks.
    decay = segment_sums(a).exp()  # [batch, heads, c, l, s]
    y_diag = torch.einsum("bclhn,bcshn,bhcls,bcshp->bclhp", C, B, decay, X)

    # 2. The state each chunk leaves from its own inputs.
    decay_to_end = decay[..., -1, :]  # [batch, heads, c, s]
    chunk_states = torch.einsum("bcshn,bhcs,bcshp->bchpn", B, decay_to_end,
                                X)

    # 3. The states entering each chunk, and the final state.
    chunk_decay = a_cumsum[..., -1].exp()  # [batch, heads, c]
    states = [initial_state]
    for c in range(X.shape[1]):
        states.append(chunk_decay[:, :, c, None, None] * states[-1]
                      + chunk_states[:, c])
    final_state = states.pop()
    states = torch.stack(states, 1)  # [batch, c, heads, P, N]

    # 4. The entering state's part of each chunk's output.
    y_off = torch.einsum("bclhn,bchpn,bhcl->bclhp", C, states,
                         a_cumsum.exp())

    y = (y_diag + y_off).flatten(1, 2)[:, :length]
    out = _skip_and_gate(y, x, None if D is None else D[:, None], z)
    return (out, final_state) if return_final_state else out


# --- Gated DeltaNet ----------------------------------------------------------

def _gdn_setup(q, k, v, initial_state, scale):
    """scale q, and S_0 [batch, heads, V, K]."""
    if scale is None:
        scale = q.shape[-1] ** -0.5
    if initial_state is None:
        batch, _, heads, K = k.shape
        initial_state = k.new_zeros(batch, heads, v.shape[-1], K)
    return q * scale, initial_state


def gated_delta_net(q, k, v, g, beta, initial_state=None,
                    return_final_state=False, scale=None):
    """Gated DeltaNet, step by step. q, k: [batch, L, heads, K]; v: [batch,
    L, heads, V]; g (log decay, <= 0), beta (in (0, 1)): [batch, L, heads];
    initial_state: [batch, heads, V, K]; scale: default K^-0.5. Returns
    o [batch, L, heads, V], and with return_final_state also S_L [batch,
    heads, V, K]. Each step is S = exp(g_t) S_{t-1}, then
    S + beta_t (v_t - S k_t) k_t^T, the same as the formula above."""
    q, S = _gdn_setup(q, k, v, initial_state, scale)
    outs = []
    for t in range(q.shape[1]):
        kt, vt = k[:, t], v[:, t]
        S = g[:, t, :, None, None].exp() * S
        error = vt - torch.einsum("bhvk,bhk->bhv", S, kt)
        S = S + beta[:, t, :, None, None] * error[..., None] * kt[..., None, :]
        outs.append(torch.einsum("bhvk,bhk->bhv", S, q[:, t]))
    o = torch.stack(outs, 1)
    return (o, S) if return_final_state else o


def gated_delta_net_chunked(q, k, v, g, beta, initial_state=None,
                            return_final_state=False, scale=None, chunk=16):
    """gated_delta_net computed `chunk` steps at a time (the last chunk may be
    shorter), as the chunkwise form of the paper and flash-linear-attention's
    chunk_gated_delta_rule. Within a chunk, with gamma_t = g_1 + ... + g_t,
    S_0 the state entering it and the decays G[t, s] = exp(gamma_t -
    gamma_s) (s <= t), the step t adds u_t k_t^T, where the pseudo-value

        u_t = beta_t (v_t - exp(gamma_t) S_0 k_t
                      - sum_{s < t} G[t, s] (k_s . k_t) u_s)

    so (I + A) U = diag(beta) V - diag(beta exp(gamma)) K S_0^T with A[t, s]
    = beta_t G[t, s] (k_t . k_s) strictly lower triangular (rows of U, V, K
    are steps). The UT transform T = (I + A)^-1 (forward substitution in a
    kernel) depends on the chunk's own inputs only: it gives
    U = T diag(beta) V - W S_0^T with W = T diag(beta exp(gamma)) K, the WY
    representation of the product of the chunk's (I - beta k k^T) factors.
    Then
        O   = diag(exp(gamma)) Q S_0^T + ((Q K^T) * G) U
        S_T = exp(gamma_T) S_0 + U^T diag(G[T, :]) K.
    """
    q, S = _gdn_setup(q, k, v, initial_state, scale)
    # Steps on the second to last axis: [batch, heads, L, features].
    q, k, v = [t.transpose(1, 2) for t in (q, k, v)]
    g, beta = g.transpose(1, 2), beta.transpose(1, 2)
    outs = []
    for start in range(0, q.shape[2], chunk):
        steps = slice(start, start + chunk)
        qc, kc, vc = q[:, :, steps], k[:, :, steps], v[:, :, steps]
        gc, bc = g[:, :, steps], beta[:, :, steps, None]
        decay_from_start = gc.cumsum(-1).exp()[..., None]  # exp(gamma)
        G = segment_sums(gc).exp()  # [batch, heads, T, T]
        I = torch.eye(qc.shape[2], dtype=q.dtype)
        A = (bc * (kc @ kc.transpose(-1, -2)) * G).tril(-1)
        T = torch.linalg.solve_triangular(I + A, I, upper=False)
        W = T @ (bc * decay_from_start * kc)
        U = T @ (bc * vc) - W @ S.transpose(-1, -2)
        outs.append(decay_from_start * qc @ S.transpose(-1, -2)
                    + ((qc @ kc.transpose(-1, -2)) * G) @ U)
        S = (decay_from_start[..., -1:, :] * S
             + U.transpose(-1, -2) @ (G[..., -1, :, None] * kc))
    o = torch.cat(outs, 2).transpose(1, 2)
    return (o, S) if return_final_state else o
