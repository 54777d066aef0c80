//===- RlxGradOps.td - Backward ops ------------------------*- tablegen -*-===//
//
// Included by RlxOps.td. Closed-form gradients of forward ops, for an
// autodiff pass to emit. Each takes the gradient of the forward result(s)
// and the forward values it needs, and returns the gradients of the forward
// operands. The elementwise ones compute the forward op's `buildGradient`;
// the row-shaped ones are defined by their decomposition
// (`RowOpInterface`), like the forward ops.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXGRADOPS_TD
#define RLX_DIALECT_RLX_IR_RLXGRADOPS_TD

include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxEnums.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

def Rlx_ReluBackwardOp : Rlx_ElementwiseOp<"relu_backward",
    [SameOperandsAndResultType, Elementwise]> {
  let summary = "gradient of rlx.relu";
  let description = [{
    `result = input > 0 ? dy : 0`: the gradient of `rlx.relu` at `input`
    given the gradient `dy` of its result. The gradient at 0 is 0, and a NaN
    input passes `dy`, as PyTorch's `threshold_backward`. The same as
    `rlx.activation_backward relu`.
  }];
  let arguments = (ins Rlx_FloatTensor:$dy, Rlx_FloatTensor:$input);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = "$dy `,` $input attr-dict `:` type($input)";
}

def Rlx_ActivationBackwardOp : Rlx_ElementwiseOp<"activation_backward",
    [SameOperandsAndResultType, Elementwise]> {
  let summary = "gradient of a unary rlx op named by an ActivationKind";
  let description = [{
    The gradient of the input of the unary op `kind` at `input`, given the
    gradient `dy` of its result: `dy * f'(input)`, as that op's
    `buildGradient` states it (so every unary op has exactly one derivative).
    At non-differentiable points the gradient is PyTorch's (relu: 0 at 0;
    abs: 0 at 0; hard_swish and hard_sigmoid at their kinks), except that
    `round` passes `dy` straight through where PyTorch gives 0; `floor`,
    `ceil` and `sign` give 0. Computed in f32 for f16/bf16 and rounded once.
  }];
  let arguments = (ins Rlx_ActivationKind:$kind, Rlx_FloatTensor:$dy,
                       Rlx_FloatTensor:$input);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = "$kind $dy `,` $input attr-dict `:` type($input)";
}

//===----------------------------------------------------------------------===//
// Normalizations
//===----------------------------------------------------------------------===//

defvar Rlx_NormBackwardDoc = [{

    `input` and `dy` have the same type; `gamma` is the 1-D `[D]` scale of
    the normalized axis (size `D`, `axis` in `[-rank, rank)`); the
    statistics are the forward op's `with_statistics` results: shaped like
    `input` with the normalized axis of size 1, in the computation type (f32
    for f16/bf16 inputs, otherwise the input type). With `xhat` the
    normalized input and `g = dy * gamma`, `dgamma = sum(dy * xhat)` and
    `dbeta = sum(dy)` over every axis but the normalized one, so they are
    `[D]` in the element type of `gamma`. Computed in the computation type,
    each result rounded once.

    The op is its decomposition (`RowOpInterface`): `dx` is a row op (two
    keep_dim sums over the normalized axis, then one elementwise pass) and
    lowers as one `row` region; `dgamma` and `dbeta` are `rlx.reduce sum`
    over the other axes of `dy * xhat` and `dy`, which lower as reduction
    regions.
  }];

class Rlx_NormBackwardOp<string mnemonic>
    : Rlx_Op<mnemonic, [Pure, InferTypeOpAdaptor, Rlx_ShapeRule,
                        DeclareOpInterfaceMethods<Rlx_RowOpInterface>,
                        AllTypesMatch<["dy", "input"]>,
                        AllElementTypesMatch<["input", "gamma"]>]> {
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank).
    int64_t getNormalizedAxis() {
      int64_t rank = getInput().getType().getRank();
      return getAxis() < 0 ? getAxis() + rank : getAxis();
    }
  }];
}

def Rlx_LayerNormBackwardOp : Rlx_NormBackwardOp<"layer_norm_backward"> {
  let summary = "gradients of rlx.layer_norm";
  let description = !strconcat([{
    The gradients of `rlx.layer_norm`'s input, gamma and beta along `axis`,
    from `mean` and `rstd` saved by the forward op: with
    `xhat = (x - mean) * rstd`,
    `dx = rstd * (g - mean(g) - xhat * mean(g * xhat))` with the means over
    the normalized axis.
  }], Rlx_NormBackwardDoc);
  let arguments = (ins Rlx_FloatTensor:$dy, Rlx_FloatTensor:$input,
                       Rlx_FloatTensor:$gamma, Rlx_FloatTensor:$mean,
                       Rlx_FloatTensor:$rstd, Rlx_I64Attr:$axis);
  let results = (outs Rlx_FloatTensor:$dx, Rlx_FloatTensor:$dgamma,
                      Rlx_FloatTensor:$dbeta);
  let assemblyFormat = [{
    $dy `,` $input `,` $gamma `,` $mean `,` $rstd `axis` `=` $axis attr-dict
    `:` functional-type(operands, results)
  }];
}

def Rlx_RmsNormBackwardOp : Rlx_NormBackwardOp<"rms_norm_backward"> {
  let summary = "gradients of rlx.rms_norm";
  let description = !strconcat([{
    The gradients of `rlx.rms_norm`'s input and gamma along `axis`, and of
    its beta with `with_beta_grad`, from the `rstd` saved by the forward op:
    with `xhat = x * rstd`, `dx = rstd * (g - xhat * mean(g * xhat))` with
    the mean over the normalized axis.
  }], Rlx_NormBackwardDoc);
  let arguments = (ins Rlx_FloatTensor:$dy, Rlx_FloatTensor:$input,
                       Rlx_FloatTensor:$gamma, Rlx_FloatTensor:$rstd,
                       Rlx_I64Attr:$axis, UnitAttr:$with_beta_grad);
  let results = (outs Rlx_FloatTensor:$dx, Rlx_FloatTensor:$dgamma,
                      Optional<Rlx_FloatTensor>:$dbeta);
  let assemblyFormat = [{
    $dy `,` $input `,` $gamma `,` $rstd `axis` `=` $axis
    (`with_beta_grad` $with_beta_grad^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Rlx_GroupNormBackwardOp : Rlx_Op<"group_norm_backward",
    [Pure, InferTypeOpAdaptor, Rlx_ShapeRule,
     DeclareOpInterfaceMethods<Rlx_RowOpInterface>,
     AllTypesMatch<["dy", "input"]>,
     AllElementTypesMatch<["input", "gamma"]>]> {
  let summary = "gradients of rlx.group_norm";
  let description = [{
    The gradients of `rlx.group_norm`'s input, gamma and beta for the same
    `groups` and `eps`. `input` and `dy` are `[N, C, *spatial]`, `gamma` is
    `[C]`; `dx` has the input's type, `dgamma` and `dbeta` gamma's. The
    group statistics are recomputed as the forward op computes them (mean,
    then the biased variance of the centered values, in f32 for f16/bf16);
    with `xhat` the normalized input and `g = dy * gamma[c]`,
    `dx = rstd * (g - mean(g) - xhat * mean(g * xhat))` with the means over
    each group of each sample, `dgamma[c] = sum(dy * xhat)` and
    `dbeta[c] = sum(dy)` over the samples and the spatial positions of
    channel `c`. Each result is rounded once.

    The op is its decomposition (`RowOpInterface`): the input viewed as
    `[N, groups, C / groups, spatial]` is normalized along its last two
    axes in one `row` region; the parameter gradients are `rlx.reduce sum`
    over the sample and spatial axes, lowered as reduction regions.
  }];
  let arguments = (ins Rlx_FloatTensor:$dy, Rlx_FloatTensor:$input,
                       Rlx_FloatTensor:$gamma, Rlx_I64Attr:$groups,
                       F64Attr:$eps);
  let results = (outs Rlx_FloatTensor:$dx, Rlx_FloatTensor:$dgamma,
                      Rlx_FloatTensor:$dbeta);
  let assemblyFormat = [{
    $dy `,` $input `,` $gamma `groups` `=` $groups `eps` `=` $eps attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Rlx_BatchNormInferenceBackwardOp
    : Rlx_Op<"batch_norm_inference_backward",
             [Pure, InferTypeOpAdaptor, Rlx_ShapeRule,
              DeclareOpInterfaceMethods<Rlx_RowOpInterface>,
              AllTypesMatch<["dy", "input"]>,
              AllElementTypesMatch<["input", "gamma", "mean", "variance"]>]> {
  let summary = "gradients of rlx.batch_norm_inference";
  let description = [{
    The gradients of `rlx.batch_norm_inference`'s input, gamma and beta
    (the running statistics are constants): with `rstd[c] =
    rsqrt(variance[c] + eps)`, `dx = dy * gamma[c] * rstd[c]`,
    `dgamma[c] = sum(dy * (x - mean[c]) * rstd[c])` and `dbeta[c] = sum(dy)`
    over the samples and spatial positions of channel `c` (PyTorch's
    `batch_norm(training=False)` backward). `input` and `dy` are
    `[N, C, *spatial]`; `gamma`, `mean` and `variance` are `[C]`. Computed
    in f32 for f16/bf16, each result rounded once.

    The op is its decomposition (`RowOpInterface`) with the channels as its
    rows: the parameter gradients are keep_dim sums over every axis but the
    channel axis, and the whole op lowers as one `row` region.
  }];
  let arguments = (ins Rlx_FloatTensor:$dy, Rlx_FloatTensor:$input,
                       Rlx_FloatTensor:$gamma, Rlx_FloatTensor:$mean,
                       Rlx_FloatTensor:$variance, F64Attr:$eps);
  let results = (outs Rlx_FloatTensor:$dx, Rlx_FloatTensor:$dgamma,
                      Rlx_FloatTensor:$dbeta);
  let assemblyFormat = [{
    $dy `,` $input `,` $gamma `,` $mean `,` $variance `eps` `=` $eps
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Rlx_AdaLayerNormBackwardOp : Rlx_Op<"ada_layer_norm_backward",
    [Pure, InferTypeOpAdaptor, Rlx_ShapeRule,
     DeclareOpInterfaceMethods<Rlx_RowOpInterface>,
     AllTypesMatch<["dy", "input"]>,
     AllElementTypesMatch<["input", "scale"]>]> {
  let summary = "gradients of rlx.ada_layer_norm";
  let description = [{
    The gradients of `rlx.ada_layer_norm`'s input, scale and shift for the
    same `kind` and `eps`. `input` and `dy` have the same type; `scale` has
    the forward op's scale (and shift) shape, which broadcasts numpy-style to
    the input's. The statistics of the last axis are recomputed as the
    forward op computes them; with `xhat` the normalized input and
    `g = dy * (1 + scale)`,
    `dx = rstd * (g - mean(g) - xhat * mean(g * xhat))` for `layer` and
    `dx = rstd * (g - xhat * mean(g * xhat))` for `rms`, the means over the
    last axis. `dscale = dy * xhat` and `dshift = dy`, each summed over the
    dimensions along which scale broadcasts, so both have scale's type.
    Computed in f32 for f16/bf16, each result rounded once.

    The op is its decomposition (`RowOpInterface`): `dx` is a row op over
    the last axis and lowers as one `row` region; `dscale` and `dshift` are
    `rlx.reduce sum` over the broadcast dimensions, lowered as reduction
    regions.
  }];
  let arguments = (ins Rlx_AdaNormKind:$kind, Rlx_FloatTensor:$dy,
                       Rlx_FloatTensor:$input, Rlx_FloatTensor:$scale,
                       F64Attr:$eps);
  let results = (outs Rlx_FloatTensor:$dx, Rlx_FloatTensor:$dscale,
                      Rlx_FloatTensor:$dshift);
  let assemblyFormat = [{
    $kind $dy `,` $input `,` $scale `eps` `=` $eps attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Rlx_GatedResidualBackwardOp : Rlx_Op<"gated_residual_backward",
    [Pure, InferTypeOpAdaptor, Rlx_ShapeRule,
     DeclareOpInterfaceMethods<Rlx_RowOpInterface>,
     AllTypesMatch<["dy", "update"]>,
     AllElementTypesMatch<["dy", "gate"]>]> {
  let summary = "gradients of rlx.gated_residual";
  let description = [{
    The gradients of `rlx.gated_residual` (`input + gate * update`):
    `dinput = dy`, `dupdate = dy * gate` and `dgate = dy * update` summed
    over the dimensions along which `gate` broadcasts. `dy` and `update` have
    the forward input's type, which `dinput` and `dupdate` have; `gate`
    broadcasts numpy-style to it and `dgate` has gate's type. Computed in
    f32 for f16/bf16, each result rounded once.

    The op is its decomposition (`RowOpInterface`): with a broadcast gate,
    the sum for `dgate` runs along the rows of a `row` region that also
    computes `dupdate`; with a gate of the input's shape it is elementwise.
  }];
  let arguments = (ins Rlx_FloatTensor:$dy, Rlx_FloatTensor:$update,
                       Rlx_FloatTensor:$gate);
  let results = (outs Rlx_FloatTensor:$dinput, Rlx_FloatTensor:$dupdate,
                      Rlx_FloatTensor:$dgate);
  let assemblyFormat = [{
    $dy `,` $update `,` $gate attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

def Rlx_SoftmaxCrossEntropyBackwardOp
    : Rlx_Op<"softmax_cross_entropy_backward",
             [Pure, InferTypeOpAdaptor, Rlx_ShapeRule, SameOperandsElementType,
              AllTypesMatch<["logits", "targets"]>,
              DeclareOpInterfaceMethods<Rlx_RowOpInterface>]> {
  let summary = "gradient of rlx.softmax_cross_entropy for its logits";
  let description = [{
    `logits` and `targets` are `[N, C]` and `dloss` is `[N]`, the gradient
    of the per-row losses; the result is the `[N, C]` gradient of the logits,
    `dlogits[n] = dloss[n] * (softmax(logits[n]) * sum(targets[n]) -
    targets[n])` (targets are not assumed to sum to 1). The softmax
    subtracts the row maximum first. Computed in f32 for f16/bf16, rounded
    once. A row op (`RowOpInterface`), lowered as one `row` region.
  }];
  let arguments = (ins Rlx_FloatTensor:$logits, Rlx_FloatTensor:$targets,
                       Rlx_FloatTensor:$dloss);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $logits `,` $targets `,` $dloss attr-dict `:`
    functional-type(operands, results)
  }];
}

def Rlx_SoftmaxCrossEntropyWithLabelsBackwardOp
    : Rlx_Op<"softmax_cross_entropy_with_labels_backward",
             [Pure, InferTypeOpAdaptor, Rlx_ShapeRule,
              AllElementTypesMatch<["logits", "dloss", "result"]>,
              DeclareOpInterfaceMethods<Rlx_RowOpInterface>]> {
  let summary =
    "gradient of rlx.softmax_cross_entropy_with_labels for its logits";
  let description = [{
    `logits` is `[N, C]`, `labels` `[N]` (i32 or i64) and `dloss` `[N]`;
    the result is the `[N, C]` gradient of the logits,
    `dlogits[n] = dloss[n] * (softmax(logits[n]) - onehot(labels[n]))`. A
    row whose label is outside `[0, C)` has a NaN loss in the forward op, and
    its gradient is NaN too; no index is ever read out of bounds. Computed
    in f32 for f16/bf16, rounded once. A row op (`RowOpInterface`), lowered
    as one `row` region.
  }];
  let arguments = (ins Rlx_FloatTensor:$logits,
                       RankedTensorOf<[I32, I64]>:$labels,
                       Rlx_FloatTensor:$dloss);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $logits `,` $labels `,` $dloss attr-dict `:`
    functional-type(operands, results)
  }];
}

#endif // RLX_DIALECT_RLX_IR_RLXGRADOPS_TD
