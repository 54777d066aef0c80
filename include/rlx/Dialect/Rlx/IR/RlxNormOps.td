//===- RlxNormOps.td - Normalization, positional encoding and loss ops -*- tablegen -*-===//
//
// Included by RlxOps.td; enums defined here are generated with the others.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXNORMOPS_TD
#define RLX_DIALECT_RLX_IR_RLXNORMOPS_TD

include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxEnums.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Rlx_RopeStyle : I32EnumAttr<"RopeStyle",
    "pairing of the dimensions that rotary embedding rotates together", [
    I32EnumAttrCase<"NeoX", 0, "neox">,
    I32EnumAttrCase<"GptJ", 1, "gptj">
  ]> {
  let cppNamespace = "::mlir::rlx";
}

def Rlx_AdaNormKind : I32EnumAttr<"AdaNormKind",
    "normalization applied before the adaptive modulation", [
    I32EnumAttrCase<"Layer", 0, "layer">,
    I32EnumAttrCase<"Rms", 1, "rms">
  ]> {
  let cppNamespace = "::mlir::rlx";
}

//===----------------------------------------------------------------------===//
// Normalizations; their shared numerics are stated once, in
// Rlx_NormStatisticsDoc, and appended to each description.
//===----------------------------------------------------------------------===//

defvar Rlx_NormStatisticsDoc = [{

    Statistics are computed in f32 for f16/bf16 inputs (otherwise in the
    input type), with the biased (population) variance `mean((x - mean)^2)`
    as in PyTorch, from the centered values (two passes). `eps` is finite
    and non-negative and is rounded to that type; `eps = 0` is allowed, and a
    constant row then gives `0 * inf = NaN`, as in PyTorch. The result is
    rounded to the input type once.
  }];

// An op whose result has the type of its `input` operand and whose operands
// all have that element type.
class Rlx_InputTypedOp<string mnemonic, list<Trait> traits = []>
    : Rlx_Op<mnemonic, traits # [Pure, InferTypeOpAdaptor,
                                 SameOperandsAndResultElementType]> {
  let results = (outs Rlx_FloatTensor:$result);
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location>,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &inferred) {
      inferred.push_back(adaptor.getInput().getType());
      return ::mlir::success();
    }
  }];
}

// The statistics that layer_norm and rms_norm can also return.
defvar Rlx_SavedStatisticsDoc = [{

    With `with_statistics`, the op also returns the statistics it normalized
    with, for backward ops to reuse: they have the shape of `input` with the
    normalized axis as size 1 (so they broadcast against `input`) and the
    computation type (f32 for f16/bf16 inputs, otherwise the input type).
  }];

// layer_norm and rms_norm: one normalized axis, optional saved statistics.
class Rlx_AxisNormOp<string mnemonic>
    : Rlx_Op<mnemonic, [Pure, InferTypeOpAdaptor, Rlx_ShapeRule,
                        DeclareOpInterfaceMethods<Rlx_RowOpInterface>,
                        AllElementTypesMatch<["input", "gamma", "result"]>]> {
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank).
    int64_t getNormalizedAxis() {
      int64_t rank = getInput().getType().getRank();
      return getAxis() < 0 ? getAxis() + rank : getAxis();
    }
  }];
}

def Rlx_LayerNormOp : Rlx_AxisNormOp<"layer_norm"> {
  let summary = "layer normalization along one axis";
  let description = !strconcat([{
    `result = (x - mean) * rstd * gamma + beta` with `rstd = rsqrt(var +
    eps)`, where `mean` and the biased variance `var` are taken along `axis`
    (in `[-rank, rank)`) for every position of the other axes. `gamma` and
    `beta` are 1-D with the length of that axis and broadcast along it.
    Normalizing the last axis is PyTorch's `layer_norm(x, [D], gamma, beta,
    eps)`; any other axis is the same normalization applied along that axis.
    Saved statistics: `mean`, then `rstd`.
  }], Rlx_NormStatisticsDoc, Rlx_SavedStatisticsDoc);
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_FloatTensor:$gamma,
                       Rlx_FloatTensor:$beta, Rlx_I64Attr:$axis,
                       F64Attr:$eps, UnitAttr:$with_statistics);
  let results = (outs Rlx_FloatTensor:$result,
                      Variadic<Rlx_FloatTensor>:$statistics);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta `axis` `=` $axis `eps` `=` $eps
    (`with_statistics` $with_statistics^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Rlx_RmsNormOp : Rlx_AxisNormOp<"rms_norm"> {
  let summary = "root-mean-square normalization along one axis";
  let description = !strconcat([{
    `result = x * rstd * gamma (+ beta)` with `rstd = rsqrt(mean(x^2) +
    eps)`, the mean square taken along `axis` (in `[-rank, rank)`). `gamma`
    and the optional `beta` are 1-D with the length of that axis and
    broadcast along it. The input is not centered. Saved statistics: `rstd`.
  }], Rlx_NormStatisticsDoc, Rlx_SavedStatisticsDoc);
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_FloatTensor:$gamma,
                       Optional<Rlx_FloatTensor>:$beta, Rlx_I64Attr:$axis,
                       F64Attr:$eps, UnitAttr:$with_statistics);
  let results = (outs Rlx_FloatTensor:$result,
                      Variadic<Rlx_FloatTensor>:$statistics);
  let assemblyFormat = [{
    $input `,` $gamma (`,` $beta^)? `axis` `=` $axis `eps` `=` $eps
    (`with_statistics` $with_statistics^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Rlx_GroupNormOp : Rlx_InputTypedOp<"group_norm",
    [Rlx_ShapeRule, DeclareOpInterfaceMethods<Rlx_RowOpInterface>]> {
  let summary = "group normalization of a channels-first tensor";
  let description = !strconcat([{
    `input` is `[N, C, *spatial]` (rank >= 2; NCHW for images). The `C`
    channels are split into `groups` consecutive groups of `C / groups`
    channels (`groups` divides `C`); each group of each sample is normalized
    with the mean and biased variance over its `C / groups x spatial`
    elements, then scaled and shifted per channel:
    `result[n, c, ...] = (x - mean) * rsqrt(var + eps) * gamma[c] + beta[c]`.
    `gamma` and `beta` are `[C]`. `groups = C` is instance normalization,
    `groups = 1` normalizes each sample as a whole. PyTorch's `group_norm`.
  }], Rlx_NormStatisticsDoc);
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_FloatTensor:$gamma,
                       Rlx_FloatTensor:$beta, Rlx_I64Attr:$groups,
                       F64Attr:$eps);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta `groups` `=` $groups `eps` `=` $eps attr-dict
    `:` functional-type(operands, results)
  }];
}

def Rlx_LayerNorm2dOp : Rlx_InputTypedOp<"layer_norm2d",
    [Rlx_ShapeRule, DeclareOpInterfaceMethods<Rlx_RowOpInterface>]> {
  let summary = "layer normalization across the channels of an NCHW tensor";
  let description = !strconcat([{
    `input` is `[N, C, H, W]`. At every `(n, h, w)` the `C` channel values
    are normalized with their mean and biased variance, then scaled and
    shifted per channel: `result[n, c, h, w] = (x - mean) * rsqrt(var + eps)
    * gamma[c] + beta[c]`, with `gamma` and `beta` `[C]` (the `LayerNorm2d`
    of SAM and ConvNeXt, not a normalization over `H x W`). Equal to
    `layer_norm` with `axis = 1`.
  }], Rlx_NormStatisticsDoc);
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_FloatTensor:$gamma,
                       Rlx_FloatTensor:$beta, F64Attr:$eps);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta `eps` `=` $eps attr-dict `:`
    functional-type(operands, results)
  }];
}

def Rlx_BatchNormInferenceOp : Rlx_InputTypedOp<"batch_norm_inference",
    [Rlx_ShapeRule]> {
  let summary = "batch normalization with frozen running statistics";
  let description = [{
    `input` is `[N, C, *spatial]` (rank >= 2; channels on axis 1 as in
    PyTorch). `result = (x - mean[c]) * rsqrt(variance[c] + eps) * gamma[c]
    + beta[c]`, where `gamma`, `beta`, `mean` and `variance` are `[C]`
    (PyTorch's `batch_norm(training=False)`), computed in f32 for f16/bf16
    inputs. `eps` is finite and non-negative; a negative `variance + eps`
    gives NaN.
  }];
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_FloatTensor:$gamma,
                       Rlx_FloatTensor:$beta, Rlx_FloatTensor:$mean,
                       Rlx_FloatTensor:$variance, F64Attr:$eps);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta `,` $mean `,` $variance `eps` `=` $eps
    attr-dict `:` functional-type(operands, results)
  }];
}

def Rlx_AdaLayerNormOp : Rlx_InputTypedOp<"ada_layer_norm",
    [Rlx_ShapeRule, DeclareOpInterfaceMethods<Rlx_RowOpInterface>]> {
  let summary = "normalization of the last axis with adaptive scale and shift";
  let description = !strconcat([{
    `result = norm(x) * (1 + scale) + shift`, where `norm` normalizes the last
    axis without an affine of its own: `layer` is `(x - mean) * rsqrt(var +
    eps)`, `rms` is `x * rsqrt(mean(x^2) + eps)` (DiT's adaLN). `scale` and
    `shift` have the same shape, of rank at most that of `input`, and
    broadcast numpy-style to the shape of `input` (typically `[B, 1, D]` for
    an input `[B, S, D]`).
  }], Rlx_NormStatisticsDoc);
  let arguments = (ins Rlx_AdaNormKind:$kind, Rlx_FloatTensor:$input,
                       Rlx_FloatTensor:$scale, Rlx_FloatTensor:$shift,
                       F64Attr:$eps);
  let assemblyFormat = [{
    $kind $input `,` $scale `,` $shift `eps` `=` $eps attr-dict `:`
    functional-type(operands, results)
  }];
}

def Rlx_GatedResidualOp : Rlx_InputTypedOp<"gated_residual",
    [Rlx_ShapeRule]> {
  let summary = "residual join through a gate: x + gate * y";
  let description = [{
    `result = input + gate * update`. `input` and `update` have the same
    shape; `gate` has rank at most theirs and broadcasts numpy-style to it
    (typically `[B, 1, D]` over `[B, S, D]`, DiT's post-sublayer join).
  }];
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_FloatTensor:$update,
                       Rlx_FloatTensor:$gate);
  let assemblyFormat = [{
    $input `,` $update `,` $gate attr-dict `:`
    functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Rotary position embedding
//===----------------------------------------------------------------------===//

def Rlx_RopeOp : Rlx_InputTypedOp<"rope", [Rlx_ShapeRule]> {
  let summary = "rotary position embedding";
  let description = [{
    `layout` names the trailing axes of `input`; any axes before them are
    batch axes (attention's layouts, with the batch generalized):

    - `bshd`: `[..., S, H, D]`, `head_dim = D`;
    - `bhsd`: `[..., H, S, D]`, `head_dim = D`;
    - `bsd`: `[..., S, W]` with `W = heads * head_dim`, the heads packed
      along the last axis (a single head when `W = head_dim`).

    There is no default: the positions axis `S` is always the one the layout
    names, never guessed from the shape. `cos` and `sin` are
    `[S, n_rot / 2]` and are shared by every head and every batch index.
    Within each head, the first `n_rot` dimensions (`n_rot` even,
    `0 < n_rot <= head_dim`) are rotated in pairs `(a, b)` by the angle of
    pair `i` at position `s`:

        result[a] = x[a] * cos[s, i] - x[b] * sin[s, i]
        result[b] = x[b] * cos[s, i] + x[a] * sin[s, i]

    `neox` (rotate-half, HF Llama/Qwen): pair `i` is `(i, i + n_rot / 2)`.
    `gptj` (adjacent, GPT-J, GGUF Llama): pair `i` is `(2i, 2i + 1)`.
    Dimensions `n_rot ..< head_dim` of each head are copied unchanged.

    ```mlir
    %q = rlx.rope neox bshd %x, %cos, %sin head_dim = 64, n_rot = 64
        : (tensor<1x128x8x64xf32>, tensor<128x32xf32>, tensor<128x32xf32>)
        -> tensor<1x128x8x64xf32>
    ```
  }];
  let arguments = (ins Rlx_RopeStyle:$style, Rlx_AttentionLayout:$layout,
                       Rlx_FloatTensor:$input, Rlx_FloatTensor:$cos,
                       Rlx_FloatTensor:$sin, Rlx_I64Attr:$head_dim,
                       Rlx_I64Attr:$n_rot);
  let assemblyFormat = [{
    $style $layout $input `,` $cos `,` $sin `head_dim` `=` $head_dim `,`
    `n_rot` `=` $n_rot attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    /// The axis of a rope input of rank `rank` in `layout` that holds the
    /// positions.
    static int64_t getSequenceAxis(AttentionLayout layout, int64_t rank) {
      return layout == AttentionLayout::BSHD ? rank - 3 : rank - 2;
    }
  }];
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

def Rlx_SoftmaxCrossEntropyOp : Rlx_Op<"softmax_cross_entropy",
    [Pure, InferTypeOpAdaptor, Rlx_ShapeRule, SameOperandsAndResultElementType,
     AllTypesMatch<["logits", "targets"]>,
     DeclareOpInterfaceMethods<Rlx_RowOpInterface>]> {
  let summary = "per-row cross-entropy of softmax(logits) against dense targets";
  let description = [{
    `logits` and `targets` are `[N, C]`; the result is `[N]` with
    `result[n] = -sum_c targets[n, c] * log_softmax(logits[n])[c]
               = sum_c targets[n, c] * (logsumexp(logits[n]) - logits[n, c])`.
    The log-sum-exp subtracts the row maximum first, so large logits do not
    overflow. Targets are any real weights (soft labels, one-hot rows); they
    are not renormalized. A `-inf` logit with a zero target gives NaN, as in
    PyTorch. Take the mean over `N` separately for a scalar loss.
  }];
  let arguments = (ins Rlx_FloatTensor:$logits, Rlx_FloatTensor:$targets);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $logits `,` $targets attr-dict `:` functional-type(operands, results)
  }];
}

def Rlx_SoftmaxCrossEntropyWithLabelsOp
    : Rlx_Op<"softmax_cross_entropy_with_labels",
             [Pure, InferTypeOpAdaptor, Rlx_ShapeRule,
              AllElementTypesMatch<["logits", "result"]>,
              DeclareOpInterfaceMethods<Rlx_RowOpInterface>]> {
  let summary = "per-row cross-entropy of softmax(logits) against class labels";
  let description = [{
    `logits` is `[N, C]` and `labels` is `[N]` (i32 or i64 class indices);
    the result is `[N]` with `result[n] = logsumexp(logits[n]) -
    logits[n, labels[n]] = -log_softmax(logits[n])[labels[n]]`, computed with
    the row maximum subtracted first. A label outside `[0, C)` never reads
    out of bounds: its row's result is NaN (PyTorch raises instead; there is
    no `ignore_index`).
  }];
  let arguments = (ins Rlx_FloatTensor:$logits,
                       RankedTensorOf<[I32, I64]>:$labels);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $logits `,` $labels attr-dict `:` functional-type(operands, results)
  }];
}

#endif // RLX_DIALECT_RLX_IR_RLXNORMOPS_TD
