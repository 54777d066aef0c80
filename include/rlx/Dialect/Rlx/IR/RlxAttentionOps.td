//===- RlxAttentionOps.td - Scaled dot-product attention -*- tablegen -*-===//
//
// Included by RlxOps.td; enums defined here are generated with the others.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXATTENTIONOPS_TD
#define RLX_DIALECT_RLX_IR_RLXATTENTIONOPS_TD

include "mlir/Dialect/Linalg/IR/LinalgInterfaces.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/TilingInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxEnums.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

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

def Rlx_AttentionOp : Rlx_Op<"attention", [Pure, Rlx_ShapeRule,
                                           InferTypeOpAdaptor]> {
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
    [Pure, InferTypeOpAdaptor, Rlx_ShapeRule]> {
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

//===----------------------------------------------------------------------===//
// Code generation forms
//===----------------------------------------------------------------------===//

// Destination-style ops that the codegen layer tiles (TilingInterface) and
// decomposes into linalg ops tile by tile. They share the score rule of
// rlx.attention with a `diagonal` operand instead of the sequence lengths
// (query i sees key j through a causal mask when j <= i + diagonal): a
// tile keeps its positions, diagonal + a - c at query offset a and key
// offset c.
defvar Rlx_AttentionTileAttributes = (ins Rlx_AttentionLayout:$layout,
                                          Rlx_AttentionMask:$mask_kind,
                                          OptionalAttr<Rlx_I64Attr>:$window,
                                          F64Attr:$scale,
                                          OptionalAttr<F64Attr>:$softcap);
defvar Rlx_AttentionTileAttributesFormat = [{
    `mask_kind` `=` $mask_kind (`window` `=` $window^)?
    `scale` `=` $scale (`softcap` `=` $softcap^)? attr-dict `->`
    type(results)
}];
defvar Rlx_AttentionTileMaskFormat = [{
    (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`diagonal` `(` $diagonal^ `)`)?
}];
defvar Rlx_AttentionTileDeclaration = [{
    /// Whether the mask is a function of positions (causal, sliding
    /// window), which the diagonal places.
    bool hasPositionalMask() {
      return getMaskKind() == AttentionMask::Causal ||
             getMaskKind() == AttentionMask::SlidingWindow;
    }
}];
class Rlx_AttentionTileOp<string mnemonic, list<Trait> traits = []>
    : Rlx_Op<mnemonic, [
        Pure, AttrSizedOperandSegments, DestinationStyleOpInterface,
        DeclareOpInterfaceMethods<TilingInterface, [
          "getIterationDomain", "getLoopIteratorTypes",
          "getTiledImplementation", "getResultTilePosition"]>,
        DeclareOpInterfaceMethods<AggregatedOpInterface,
                                  ["decomposeOperation"]>,
        DeclareOpInterfaceMethods<Rlx_PositionalMaskOpInterface>]
        # traits> {
  let hasVerifier = 1;
}

def Rlx_OnlineAttentionOp : Rlx_AttentionTileOp<"online_attention", [
    DeclareOpInterfaceMethods<PartialReductionOpInterface, [
      "generateInitialTensorForPartialReduction", "tileToPartialReduction",
      "mergeReductions", "getPartialResultTilePosition"]>]> {
  let summary = "one online-softmax step of attention, destination-style";
  let description = [{
    The form of `rlx.attention` that code generation tiles. It updates the
    running state of FlashAttention's online softmax, `acc` (the output
    before normalization, q's layout with v's head dimension), `max` (the
    running row maximum `m`) and `sum` (the running `l = sum_j exp(s[i, j] -
    m[i])`), `[B, H, S_q]` each, all in the computation type, with the keys
    of `k` and `v`:

        m'   = max(m, max_j s[i, j])
        l'   = l * exp(m - m') + sum_j exp(s[i, j] - m')
        acc' = acc * exp(m - m') + sum_j exp(s[i, j] - m') v[j]

    with the scores `s` of `rlx.attention` (scale, softcap, bias, masks).
    Starting from `acc = 0`, `m = -inf`, `l = 0`, one op over all keys, or
    one op per tile of keys applied in turn, leaves `acc / l` = attention's
    output and `m + log(l)` its logsumexp.

    Its loops are (batch, head, query, key), the key loop a reduction: tiles
    of the first three own disjoint slices of the state, and tiles of keys
    update the same slice one after the other. A tile keeps its positions:
    query `i` sees key `j` of the op's operands through the `causal` and
    `sliding_window` masks when `j <= i + diagonal` (and `j >= i + diagonal
    - window`); `rlx.attention` starts at `diagonal = S_k - S_q`. Query head
    `h` reads key/value head `h / (H / H_kv)`; a tile holds one head or all
    of them. Layouts `bshd` and `bhsd` (`bsd` is `bshd` with one head).

    `decomposeOperation` writes one op with one batch and one head (a tile)
    as linalg ops on its `[S_q, D]`, `[S_k, D]` and `[S_k, D_v]` matrices.

    The key loop also splits into partial reductions
    (`PartialReductionOpInterface`, the outer-parallel strategy): split `p`
    of `P` runs its keys from the empty state into partial states `[P, ...]`
    of its own, at once with the others, and the partials then merge into
    the op's state:

        m'   = max(m, max_p m_p)
        l'   = l * exp(m - m') + sum_p l_p * exp(m_p - m')
        acc' = acc * exp(m - m') + sum_p acc_p * exp(m_p - m')

    (a state that has seen no key, `m = -inf`, counts 0). This is split-K
    (flash-decoding): a decode step with few heads and a long KV cache
    shares its keys across threads or blocks.
  }];
  let arguments = !con((ins AnyRankedTensor:$q, AnyRankedTensor:$k,
                            AnyRankedTensor:$v, Optional<AnyRankedTensor>:$mask,
                            Optional<Index>:$diagonal, AnyRankedTensor:$acc,
                            AnyRankedTensor:$max, AnyRankedTensor:$sum),
                       Rlx_AttentionTileAttributes);
  let results = (outs AnyRankedTensor:$updated_acc,
                      AnyRankedTensor:$updated_max,
                      AnyRankedTensor:$updated_sum);
  let assemblyFormat = !strconcat([{
    $layout `ins` `(` $q `,` $k `,` $v `:` type($q) `,` type($k) `,` type($v)
    `)`
  }], Rlx_AttentionTileMaskFormat, [{
    `outs` `(` $acc `,` $max `,` $sum `:` type($acc) `,` type($max) `,`
    type($sum) `)`
  }], Rlx_AttentionTileAttributesFormat);
  let extraClassDeclaration = !strconcat([{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return ::mlir::MutableOperandRange(
          getOperation(), getAccMutable().getOperandNumber(), 3);
    }
  }], Rlx_AttentionTileDeclaration);
}

def Rlx_AttentionDqOp : Rlx_AttentionTileOp<"attention_dq"> {
  let summary = "attention's query gradient (and bias gradient), destination-style";
  let description = [{
    The part of `rlx.attention_backward` that is parallel over queries, in
    the form code generation tiles: adds to `dq` (q's layout, the
    computation type)

        p  = exp(s - logsumexp)          (0 for masked keys)
        ds = p * (dout · vᵀ - delta)
        dq += scale * (ds * softcap'(x)) · k

    over the keys of `k` and `v`, with `delta = rowsum(dout * out)` and
    `logsumexp` given (`[B, H, S_q]`, the computation type) and the scores
    `s` of `rlx.attention` (score rule and `diagonal` as in
    `rlx.online_attention`). With a `dbias` init (`mask = bias`) it also
    adds `ds` to it, summed over the axes the bias broadcasts (`[B or 1, H
    or 1, S_q, S_k]`, the computation type).

    Its loops are (batch, head, query, key): the key loop is a reduction,
    and so are the batch and head loops when the bias gradient broadcasts
    over them. `decomposeOperation` writes one batch and one head as linalg
    ops.
  }];
  let arguments = !con((ins AnyRankedTensor:$q, AnyRankedTensor:$k,
                            AnyRankedTensor:$v, AnyRankedTensor:$dout,
                            AnyRankedTensor:$logsumexp,
                            AnyRankedTensor:$delta,
                            Optional<AnyRankedTensor>:$mask,
                            Optional<Index>:$diagonal, AnyRankedTensor:$dq,
                            Optional<AnyRankedTensor>:$dbias),
                       Rlx_AttentionTileAttributes);
  let results = (outs AnyRankedTensor:$updated_dq,
                      Optional<AnyRankedTensor>:$updated_dbias);
  let assemblyFormat = !strconcat([{
    $layout `ins` `(` $q `,` $k `,` $v `,` $dout `,` $logsumexp `,` $delta
    `:` type($q) `,` type($k) `,` type($v) `,` type($dout) `,`
    type($logsumexp) `,` type($delta) `)`
  }], Rlx_AttentionTileMaskFormat, [{
    `outs` `(` $dq `:` type($dq) `)`
    (`dbias` `(` $dbias^ `:` type($dbias) `)`)?
  }], Rlx_AttentionTileAttributesFormat);
  let extraClassDeclaration = !strconcat([{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return ::mlir::MutableOperandRange(
          getOperation(), getDqMutable().getOperandNumber(),
          getDbias() ? 2 : 1);
    }
  }], Rlx_AttentionTileDeclaration);
}

def Rlx_AttentionDkDvOp : Rlx_AttentionTileOp<"attention_dkdv"> {
  let summary = "attention's key and value gradients, destination-style";
  let description = [{
    The part of `rlx.attention_backward` that is parallel over keys, in the
    form code generation tiles: adds to `dk` and `dv` (k's and v's layout,
    the computation type)

        p   = exp(s - logsumexp)         (0 for masked keys)
        dv += pᵀ · dout
        ds  = p * (dout · vᵀ - delta)
        dk += scale * (ds * softcap'(x))ᵀ · q

    over the queries of every query head that reads each key/value head,
    with `delta = rowsum(dout * out)` and `logsumexp` given and the score
    rule and `diagonal` of `rlx.online_attention`.

    Its loops are (batch, kv head, key, group member, query): query head
    `h * G + g` (`G = H / H_kv`) reads kv head `h`; the group and query
    loops are reductions. A tile holds one group member or all of them.
    `decomposeOperation` writes one batch and one query head as linalg ops.
  }];
  let arguments = !con((ins AnyRankedTensor:$q, AnyRankedTensor:$k,
                            AnyRankedTensor:$v, AnyRankedTensor:$dout,
                            AnyRankedTensor:$logsumexp,
                            AnyRankedTensor:$delta,
                            Optional<AnyRankedTensor>:$mask,
                            Optional<Index>:$diagonal, AnyRankedTensor:$dk,
                            AnyRankedTensor:$dv),
                       Rlx_AttentionTileAttributes);
  let results = (outs AnyRankedTensor:$updated_dk,
                      AnyRankedTensor:$updated_dv);
  let assemblyFormat = !strconcat([{
    $layout `ins` `(` $q `,` $k `,` $v `,` $dout `,` $logsumexp `,` $delta
    `:` type($q) `,` type($k) `,` type($v) `,` type($dout) `,`
    type($logsumexp) `,` type($delta) `)`
  }], Rlx_AttentionTileMaskFormat, [{
    `outs` `(` $dk `,` $dv `:` type($dk) `,` type($dv) `)`
  }], Rlx_AttentionTileAttributesFormat);
  let extraClassDeclaration = !strconcat([{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return ::mlir::MutableOperandRange(
          getOperation(), getDkMutable().getOperandNumber(), 2);
    }
  }], Rlx_AttentionTileDeclaration);
}

#endif // RLX_DIALECT_RLX_IR_RLXATTENTIONOPS_TD
