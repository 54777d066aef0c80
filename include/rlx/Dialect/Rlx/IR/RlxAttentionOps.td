//===- RlxAttentionOps.td - Scaled dot-product attention -*- tablegen -*-===//
//
// Included by RlxOps.td; enums defined here are generated with the others.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXATTENTIONOPS_TD
#define RLX_DIALECT_RLX_IR_RLXATTENTIONOPS_TD

include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxEnums.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Rlx_AttentionMask : I32EnumAttr<"AttentionMask",
    "which keys each query attends to", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"Causal", 1, "causal">,
    I32EnumAttrCase<"SlidingWindow", 2, "sliding_window">,
    I32EnumAttrCase<"Padding", 3, "padding">,
    I32EnumAttrCase<"Bias", 4, "bias">
  ]> {
  let cppNamespace = "::mlir::rlx";
}

//===----------------------------------------------------------------------===//
// Attention
//===----------------------------------------------------------------------===//

// The attributes attention and its backward op share, and their syntax
// (joined with !strconcat: `#` would paste these names as text).
defvar Rlx_AttentionAttributes = (ins Rlx_AttentionLayout:$layout,
                                      Rlx_I64Attr:$num_heads,
                                      Rlx_I64Attr:$num_kv_heads,
                                      Rlx_AttentionMask:$mask_kind,
                                      OptionalAttr<Rlx_I64Attr>:$window,
                                      OptionalAttr<F64Attr>:$scale,
                                      OptionalAttr<F64Attr>:$softcap);
defvar Rlx_AttentionAttributesFormat = [{
    `heads` `=` $num_heads `kv_heads` `=` $num_kv_heads `mask` `=`
    $mask_kind (`window` `=` $window^)? (`scale` `=` $scale^)?
    (`softcap` `=` $softcap^)?
}];
defvar Rlx_AttentionScaleDeclaration = [{
    /// `scale`, or 1 / sqrt(head_dim) without one.
    double getScaleOrDefault();
}];

def Rlx_AttentionOp : Rlx_Op<"attention", [Pure, InferTypeOpAdaptor]> {
  let summary = "scaled dot-product attention with grouped heads and masks";
  let description = [{
    `out = softmax(s) · v` for every batch, head and query, with the scores

        s[i, j] = softcap(scale * q[i] · k[j]) (+ bias[i, j])

    over the keys `j` the mask lets query `i` see; the other keys get
    probability 0.

    Layouts (`layout`): `bshd` is `[B, S, H, D]`, `bhsd` is `[B, H, S, D]`,
    `bsd` is single-head `[B, S, D]` (then `num_heads = num_kv_heads = 1`).
    `q` has `num_heads` heads, `S_q` queries and `head_dim` features; `k` and
    `v` have `num_kv_heads` heads and `S_k` keys; `k` has `head_dim` features
    and `v` has `v_head_dim`, which may differ. `num_kv_heads` divides
    `num_heads`: query head `h` reads key/value head `h / (num_heads /
    num_kv_heads)` (grouped-query attention; `num_kv_heads = 1` is
    multi-query attention). `out` has the layout and element type of `q`,
    with `v_head_dim` features.

    `scale` defaults to `1 / sqrt(head_dim)`. With `softcap = c` (positive)
    the scaled score `x` becomes `c * tanh(x / c)` before the bias is added.

    Masks (`mask`), with query `i` at absolute position `p = S_k - S_q + i`
    (the queries are the last `S_q` positions of the keys' sequence, so a
    decode step with `S_q = 1` sees every key):
    - `none`: every key.
    - `causal`: keys `j <= p`.
    - `sliding_window` with `window = w` (>= 0): keys `p - w <= j <= p`.
    - `padding`: the `[B, S_k]` operand `mask` (any element type) marks the
      keys to use with a nonzero value and the keys to ignore with 0.
    - `bias`: the operand `mask` is added to the scores; it is `[B or 1,
      H or 1, S_q, S_k]` (size-1 axes broadcast) with the element type of
      `q`, and may hold `-inf` to mask.

    A query that sees no key (a fully masked row) gets an output of 0, not
    NaN. Scores, the softmax and the accumulation run in f32 for f16/bf16
    inputs (otherwise in the input type); `out` is rounded once.

    With `with_logsumexp` the op also returns `logsumexp[b, h, i] =
    log(sum_j exp(s[i, j]))` over the visible keys, `[B, H, S_q]` in the
    computation type (`-inf` for a fully masked row): what the backward op
    recomputes the probabilities from.
  }];
  let arguments = !con((ins Rlx_FloatTensor:$q, Rlx_FloatTensor:$k,
                            Rlx_FloatTensor:$v, Optional<Rlx_Tensor>:$mask),
                       Rlx_AttentionAttributes,
                       (ins UnitAttr:$with_logsumexp));
  let results = (outs Rlx_FloatTensor:$out,
                      Optional<Rlx_FloatTensor>:$logsumexp);
  let assemblyFormat = !strconcat([{
    $layout $q `,` $k `,` $v (`,` $mask^)?
  }], Rlx_AttentionAttributesFormat, [{
    (`with_logsumexp` $with_logsumexp^)? attr-dict `:`
    functional-type(operands, results)
  }]);
  let extraClassDeclaration = !strconcat([{
    /// The axis of q, k and v that holds the sequence.
    static int64_t getSequenceAxis(AttentionLayout layout);
    /// The axis that holds the heads; none for `bsd`.
    static std::optional<int64_t> getHeadAxis(AttentionLayout layout);
  }], Rlx_AttentionScaleDeclaration);
}

def Rlx_AttentionBackwardOp : Rlx_Op<"attention_backward",
    [Pure, InferTypeOpAdaptor]> {
  let summary = "gradients of rlx.attention with respect to q, k, v and bias";
  let description = [{
    Given the operands and attributes of an `rlx.attention`, its output
    `out`, the gradient `dout` of a loss with respect to `out`, and the
    `logsumexp` the forward op returned, computes the gradients `dq`, `dk`
    and `dv` of the loss with respect to `q`, `k` and `v` (with the types of
    `q`, `k` and `v`). With `p = exp(s - logsumexp)` the forward
    probabilities (0 for masked keys and fully masked rows):

        dv[j]  = sum_i p[i, j] * dout[i]
        ds     = p * (dout · v^T - rowsum(dout * out))
        dx     = ds * softcap'(x)            (1 - tanh(x / c)^2, or 1)
        dq[i]  = scale * sum_j dx[i, j] * k[j]
        dk[j]  = scale * sum_i dx[i, j] * q[i]

    where `x` is the scaled score before the softcap. `dk` and `dv` of a
    key/value head sum over the `num_heads / num_kv_heads` query heads that
    read it. With `with_bias_grad` (only for `mask = bias`) the op also
    returns the gradient of the bias, `ds` summed over the axes the bias
    broadcasts, with the type of the bias.

    `out` and `dout` have the type of the forward output; `logsumexp` is
    `[B, H, S_q]` in the computation type (f32 for f16/bf16). Like the
    forward op, the gradients are computed in the computation type and
    rounded once.
  }];
  let arguments = !con((ins Rlx_FloatTensor:$q, Rlx_FloatTensor:$k,
                            Rlx_FloatTensor:$v, Rlx_FloatTensor:$out,
                            Rlx_FloatTensor:$dout, Rlx_FloatTensor:$logsumexp,
                            Optional<Rlx_Tensor>:$mask),
                       Rlx_AttentionAttributes,
                       (ins UnitAttr:$with_bias_grad));
  let results = (outs Rlx_FloatTensor:$dq, Rlx_FloatTensor:$dk,
                      Rlx_FloatTensor:$dv,
                      Optional<Rlx_FloatTensor>:$dbias);
  let assemblyFormat = !strconcat([{
    $layout $q `,` $k `,` $v `,` $out `,` $dout `,` $logsumexp (`,` $mask^)?
  }], Rlx_AttentionAttributesFormat, [{
    (`with_bias_grad` $with_bias_grad^)? attr-dict `:`
    functional-type(operands, results)
  }]);
  let extraClassDeclaration = Rlx_AttentionScaleDeclaration;
}

#endif // RLX_DIALECT_RLX_IR_RLXATTENTIONOPS_TD
