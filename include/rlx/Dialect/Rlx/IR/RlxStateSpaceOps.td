//===- RlxStateSpaceOps.td - Selective scans, linear attention -*- tablegen -*-===//
//
// The state-space and linear-attention sequence mixers: Mamba-1's
// selective scan, Mamba-2's state space dual and Gated DeltaNet. Each is a
// linear recurrence on a state; each is defined by its chunked
// decomposition (DecomposableOpInterface): an rlx.scan over chunks of
// `chunk` steps that carries the state, each step of it computing a whole
// chunk in parallel with matmuls, cumulative sums and masked decays. So
// their lowering, fusion and gradients are those of the scan and its
// body's ops: the backward scan saves one state per chunk and recomputes
// the chunk. Included by RlxOps.td.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXSTATESPACEOPS_TD
#define RLX_DIALECT_RLX_IR_RLXSTATESPACEOPS_TD

include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

// What the three ops share, once for their descriptions.
defvar Rlx_ChunkDoc = [{

    `chunk` is the decomposition's chunk length (the last chunk is padded
    with steps that neither decay nor add to the state); results agree
    within rounding for every value. A `?` sequence length decomposes one
    step per chunk, since the padding of a `?` length is not expressible
    with static pads yet. The batch and the sequence length may be `?`,
    the length 0; every other size is static. All operands share one float
    element type.
}];

class Rlx_StateSpaceOp<string mnemonic, list<Trait> traits = []>
    : Rlx_Op<mnemonic, !listconcat([Pure,
        SameOperandsAndResultElementType, InferTypeOpAdaptor, Rlx_ShapeRule,
        DeclareOpInterfaceMethods<Rlx_DecomposableOpInterface>], traits)> {
  let hasVerifier = 1;
}

def Rlx_SelectiveScanOp : Rlx_StateSpaceOp<"selective_scan",
                                                [AttrSizedOperandSegments]> {
  let summary = "Mamba's selective scan (mamba_ssm selective_scan_fn)";
  let description = !strconcat([{
    The selective state-space recurrence of Mamba (Gu & Dao 2023), in the
    layout and with the semantics of `mamba_ssm`'s `selective_scan_fn` for
    a real `A`. `u`, `delta` and `z` are `[batch, D, L]` (channels,
    length), `A` is `[D, N]` (N states per channel), `B` and `C` are
    `[batch, N, L]` or `[batch, G, N, L]` (group `g` serves the channels
    `g * D/G` up to the next group's), `D` and `delta_bias` are `[D]`. Per
    channel `d` and state `n`:

    ```
    dt_t   = delta_t + delta_bias          (softplus'd with delta_softplus)
    h_t[n] = exp(dt_t A[d, n]) h_{t-1}[n] + dt_t B_t[n] u_t,    h_0 = 0
    y_t    = sum_n C_t[n] h_t[n] + D u_t
    out_t  = y_t * silu(z_t)               (with z)
    ```

    Results: `out` `[batch, D, L]` and the last state `h_L` `[batch, D,
    N]`. Within a chunk of T steps, with `a_t = dt_t A` and `x_s = dt_s B_s
    u_s`, `h_t = exp(a_1 + ... + a_t) h_0 + sum_{s <= t} exp(a_{s+1} + ...
    + a_t) x_s`: one `[T, T]` decay matrix per channel and state, a matmul
    with the chunk's inputs, and the entering state decayed to each step.
    The decays are differences of the chunk's cumulative sums.
  }], Rlx_ChunkDoc, [{

    ```mlir
    %out, %h = rlx.selective_scan %u, %delta, %A, %B, %C D(%D) z(%z)
        delta_bias(%bias) delta_softplus
        : (tensor<2x8x?xf32>, tensor<2x8x?xf32>, tensor<8x4xf32>,
           tensor<2x4x?xf32>, tensor<2x4x?xf32>, tensor<8xf32>,
           tensor<2x8x?xf32>, tensor<8xf32>)
        -> (tensor<2x8x?xf32>, tensor<2x8x4xf32>)
    ```
  }]);
  let arguments = (ins Rlx_FloatTensor:$u, Rlx_FloatTensor:$delta,
                       Rlx_FloatTensor:$A, Rlx_FloatTensor:$B,
                       Rlx_FloatTensor:$C, Optional<Rlx_FloatTensor>:$D,
                       Optional<Rlx_FloatTensor>:$z,
                       Optional<Rlx_FloatTensor>:$delta_bias,
                       UnitAttr:$delta_softplus,
                       DefaultValuedAttr<Rlx_I64Attr, "16">:$chunk);
  let results = (outs Rlx_FloatTensor:$out, Rlx_FloatTensor:$last_state);
  let assemblyFormat = [{
    $u `,` $delta `,` $A `,` $B `,` $C (`D` `(` $D^ `)`)? (`z` `(` $z^ `)`)?
    (`delta_bias` `(` $delta_bias^ `)`)?
    (`delta_softplus` $delta_softplus^)? (`chunk` `=` $chunk^)? attr-dict
    `:` functional-type(operands, results)
  }];
}

def Rlx_Mamba2Op : Rlx_StateSpaceOp<"mamba2",
                                         [AttrSizedOperandSegments]> {
  let summary = "Mamba-2's state space dual, chunked (mamba_chunk_scan)";
  let description = !strconcat([{
    The state space dual (SSD) layer of Mamba-2 (Dao & Gu 2024), in the
    layout of `mamba_ssm`'s `mamba_chunk_scan_combined`: the decay is one
    scalar per head. `x` and `z` are `[batch, L, H, P]` (H heads of P
    features), `dt` is `[batch, L, H]`, `A`, `D` and `dt_bias` are `[H]`,
    `B` and `C` are `[batch, L, G, N]` (group `g` serves the heads
    `g * H/G` up to the next group's), `initial_state` is `[batch, H, P,
    N]` (zeros without it). Per head, with the state `h` a `[P, N]`
    matrix:

    ```
    dt_t  = dt_t + dt_bias                 (softplus'd with dt_softplus)
    h_t   = exp(dt_t A) h_{t-1} + dt_t x_t B_t^T
    y_t   = h_t C_t + D x_t
    out_t = y_t * silu(z_t)                (with z)
    ```

    Results: `out` `[batch, L, H, P]` and the final state `[batch, H, P,
    N]`. Mamba-2's gated RMSNorm is `rlx.rms_norm` after the op. Each
    chunk is the paper's SSD algorithm: the output from the chunk's own
    inputs is `((C B^T) * decays) X` with `X = dt x` (the attention-like
    diagonal block), plus the entering state decayed to each step read by
    `C`; the state leaving the chunk is the entering one decayed over the
    chunk plus `X^T (decays to the end * B)`.
  }], Rlx_ChunkDoc, [{

    ```mlir
    %out, %state = rlx.mamba2 %x, %dt, %A, %B, %C D(%D) dt_bias(%bias)
        dt_softplus chunk = 32
        : (tensor<?x?x4x16xf32>, tensor<?x?x4xf32>, tensor<4xf32>,
           tensor<?x?x1x8xf32>, tensor<?x?x1x8xf32>, tensor<4xf32>,
           tensor<4xf32>)
        -> (tensor<?x?x4x16xf32>, tensor<?x4x16x8xf32>)
    ```
  }]);
  let arguments = (ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$dt,
                       Rlx_FloatTensor:$A, Rlx_FloatTensor:$B,
                       Rlx_FloatTensor:$C, Optional<Rlx_FloatTensor>:$D,
                       Optional<Rlx_FloatTensor>:$z,
                       Optional<Rlx_FloatTensor>:$dt_bias,
                       Optional<Rlx_FloatTensor>:$initial_state,
                       UnitAttr:$dt_softplus,
                       DefaultValuedAttr<Rlx_I64Attr, "64">:$chunk);
  let results = (outs Rlx_FloatTensor:$out, Rlx_FloatTensor:$final_state);
  let assemblyFormat = [{
    $x `,` $dt `,` $A `,` $B `,` $C (`D` `(` $D^ `)`)? (`z` `(` $z^ `)`)?
    (`dt_bias` `(` $dt_bias^ `)`)?
    (`initial` `(` $initial_state^ `)`)? (`dt_softplus` $dt_softplus^)?
    (`chunk` `=` $chunk^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Rlx_GatedDeltaNetOp : Rlx_StateSpaceOp<"gated_delta_net"> {
  let summary = "Gated DeltaNet's gated delta rule, chunked";
  let description = !strconcat([{
    The gated delta rule of Gated DeltaNet (Yang, Kautz & Hatamizadeh
    2024), in the layout of flash-linear-attention's
    `chunk_gated_delta_rule`. `q` and `k` are `[batch, L, H, K]`, `v` is
    `[batch, L, H, V]`, `g` (log decays, <= 0 in a model) and `beta`
    (write strengths) are `[batch, L, H]`, `initial_state` is `[batch, H,
    V, K]` (zeros without it). Per head, with the state `S` a `[V, K]`
    matrix:

    ```
    S_t = exp(g_t) S_{t-1} (I - beta_t k_t k_t^T) + beta_t v_t k_t^T
    o_t = S_t (scale q_t)
    ```

    `scale` defaults to `K^-1/2`; `q` and `k` are used as given (a model
    that L2-normalizes them does so before the op). Results: `o` `[batch,
    L, H, V]` and the final state `[batch, H, V, K]`.

    Each chunk is the WY form of the paper: with `gamma` the cumulative
    log decays and `G[t, s] = exp(gamma_t - gamma_s)` for `s <= t`, the
    strictly lower `A[t, s] = beta_t G[t, s] (k_t . k_s)` gives the UT
    transform `T = (I + A)^-1`, then the pseudo-values `U = T (beta V) -
    T (beta exp(gamma) K) S_0^T`, the output `exp(gamma) Q S_0^T + ((Q K^T)
    * G) U` and the leaving state `exp(gamma_T) S_0 + U^T (G[T, :] K)`.
    `A` is nilpotent, so `T = (I - A)(I + A^2)(I + A^4)...` exactly after
    ceil(log2(chunk)) - 1 squarings: matmuls, where a kernel would run a
    forward substitution, sequential in the chunk's steps.
  }], Rlx_ChunkDoc, [{

    ```mlir
    %o, %state = rlx.gated_delta_net %q, %k, %v, %g, %beta
        : (tensor<1x?x2x16xf32>, tensor<1x?x2x16xf32>, tensor<1x?x2x32xf32>,
           tensor<1x?x2xf32>, tensor<1x?x2xf32>)
        -> (tensor<1x?x2x32xf32>, tensor<1x2x32x16xf32>)
    ```
  }]);
  let arguments = (ins Rlx_FloatTensor:$q, Rlx_FloatTensor:$k,
                       Rlx_FloatTensor:$v, Rlx_FloatTensor:$g,
                       Rlx_FloatTensor:$beta,
                       Optional<Rlx_FloatTensor>:$initial_state,
                       OptionalAttr<F64Attr>:$scale,
                       DefaultValuedAttr<Rlx_I64Attr, "64">:$chunk);
  let results = (outs Rlx_FloatTensor:$o, Rlx_FloatTensor:$final_state);
  let assemblyFormat = [{
    $q `,` $k `,` $v `,` $g `,` $beta (`initial` `(` $initial_state^ `)`)?
    (`scale` `=` $scale^)? (`chunk` `=` $chunk^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

#endif // RLX_DIALECT_RLX_IR_RLXSTATESPACEOPS_TD
