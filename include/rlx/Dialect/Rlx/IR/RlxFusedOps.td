//===- RlxFusedOps.td - Named fused ops --------------------*- tablegen -*-===//
//
// Included by RlxOps.td. Fused ops are made by --rlx-fuse-patterns from the
// seeds' named patterns and undone by --rlx-unfuse (FusedOpInterface).
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXFUSEDOPS_TD
#define RLX_DIALECT_RLX_IR_RLXFUSEDOPS_TD

include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxEnums.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

def Rlx_SwigluOp : Rlx_Op<"swiglu", [Pure, InferTypeOpAdaptor, Rlx_ShapeRule,
    DeclareOpInterfaceMethods<Rlx_FusedOpInterface>]> {
  let summary = "SwiGLU on a concatenated [up, gate] input: silu(gate) * up";
  let description = [{
    The last axis of `input` (length 2N) holds two halves: by default `up`
    in `[0, N)` and `gate` in `[N, 2N)` (the canonical concatenation of the
    up and gate projections); with `gate_first` the halves swap. The result,
    of last-axis length N, is `silu(gate) * up`, with silu rounded to the
    element type before the product, exactly as the unfused
    narrow/silu/mul graph computes it. `--rlx-fuse-patterns` forms it from
    that graph; `--rlx-unfuse` expands it back.
  }];
  let arguments = (ins Rlx_FloatTensor:$input, UnitAttr:$gate_first);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`gate_first` $gate_first^)? attr-dict `:` type($input) `->`
    type($result)
  }];
  let extraClassDeclaration = [{
    /// N: the length of each half of the last axis.
    int64_t getHalfLength() {
      return getInput().getType().getShape().back() / 2;
    }
  }];
}

//===----------------------------------------------------------------------===//
// Contractions with an elementwise epilogue. Each rounds exactly as the
// unfused graph stores its intermediates: the contraction result (accumulated
// in f32 for f16 and bf16) is rounded to the element type, then every add
// and the activation are computed in the computation type and rounded.
//===----------------------------------------------------------------------===//

def Rlx_MatmulBiasActOp : Rlx_Op<"matmul_bias_act", [Pure, InferTypeOpAdaptor,
    Rlx_ShapeRule,
    SameOperandsAndResultElementType,
    Rlx_ContractionOpInterface,
    DeclareOpInterfaceMethods<Rlx_FusedOpInterface>]> {
  let summary = "matmul + bias over the last axis + optional activation";
  let description = [{
    `act(matmul(lhs, rhs) + bias)`: `lhs` and `rhs` as for `rlx.matmul`
    (`[..., M, K] x [..., K, N]`, batch dimensions broadcast), `bias` of
    shape `[N]` added to every row, then the optional `activation` (any
    `ActivationKind`: the rlx op of that name). The unfused graph is
    `rlx.matmul`, a broadcasting `rlx.add` and the activation op;
    `--rlx-fuse-patterns` forms this op from it, `--rlx-unfuse` expands it
    back, and the results are bit-identical.
  }];
  let arguments = (ins Rlx_FloatTensor:$lhs, Rlx_FloatTensor:$rhs,
                       Rlx_FloatTensor:$bias,
                       OptionalAttr<Rlx_ActivationKind>:$activation);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $bias (`activation` `=` $activation^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Rlx_MatmulResidualOp : Rlx_Op<"matmul_residual", [Pure,
    InferTypeOpAdaptor, Rlx_ShapeRule, SameOperandsAndResultElementType,
    Rlx_ContractionOpInterface,
    DeclareOpInterfaceMethods<Rlx_FusedOpInterface>]> {
  let summary = "matmul + a residual of the result's shape";
  let description = [{
    `matmul(lhs, rhs) + residual`: `lhs` and `rhs` as for `rlx.matmul`,
    `residual` of exactly the matmul result's shape (a skip connection, not a
    broadcast bias). The unfused graph is `rlx.matmul` and `rlx.add`;
    results are bit-identical.
  }];
  let arguments = (ins Rlx_FloatTensor:$lhs, Rlx_FloatTensor:$rhs,
                       Rlx_FloatTensor:$residual);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $residual attr-dict `:` functional-type(operands, results)
  }];
}

def Rlx_ConvBiasActOp : Rlx_Op<"conv_bias_act", [Pure, InferTypeOpAdaptor,
    Rlx_ShapeRule,
    SameOperandsAndResultElementType,
    Rlx_ContractionOpInterface,
    DeclareOpInterfaceMethods<Rlx_FusedOpInterface>]> {
  let summary = "convolution + per-channel bias + optional residual and "
                "activation";
  let description = [{
    `act(conv(input, weight) + bias[c] + residual)`: the convolution is
    `rlx.conv` with the same attributes and rules, `bias` has shape
    `[C_out]` and is added to every element of output channel `c`, the
    optional `residual` has the convolution result's shape and is added
    next, then the optional `activation` (any `ActivationKind`) applies.

    The unfused graph is `rlx.conv`, `rlx.reshape` of the bias to
    `[1, C_out, 1, ...]` (the convolution's rank), a broadcasting `rlx.add`,
    `rlx.add` of the residual and the activation op; results are
    bit-identical.
  }];
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_FloatTensor:$weight,
                       Rlx_FloatTensor:$bias,
                       Optional<Rlx_FloatTensor>:$residual,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$dilation, Rlx_I64Attr:$groups,
                       OptionalAttr<Rlx_ActivationKind>:$activation);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight `,` $bias (`,` $residual^)? `stride` `=` $stride
    `padding` `=` $padding `dilation` `=` $dilation `groups` `=` $groups
    (`activation` `=` $activation^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

// residual + layer_norm / rms_norm: a transformer's pre-norm residual step.
class Rlx_ResidualNormOp<string mnemonic, string norm>
    : Rlx_Op<mnemonic, [Pure, Rlx_ShapeRule,
        AllTypesMatch<["input", "residual", "result", "sum"]>,
        DeclareOpInterfaceMethods<Rlx_RowOpInterface>,
        DeclareOpInterfaceMethods<Rlx_FusedOpInterface>]> {
  let summary = "residual add followed by " # norm;
  let description = [{
    `sum = input + residual` (same shape, rounded to the element type), and
    `result = }] # norm # [{(sum, gamma, beta)` along `axis` with `eps`,
    exactly as the unfused `rlx.add` and `rlx.}] # norm # [{` compute them.
    Both are returned: the normalized rows feed the next layer and the sum
    is the residual stream. `--rlx-fuse-patterns` forms it from an add whose
    only other users come after the normalization; `--rlx-unfuse` expands
    it back. It lowers, like the normalization itself, as one row region.
  }];
  let results = (outs Rlx_FloatTensor:$result, Rlx_FloatTensor:$sum);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank).
    int64_t getNormalizedAxis() {
      int64_t rank = getInput().getType().getRank();
      return getAxis() < 0 ? getAxis() + rank : getAxis();
    }
  }];
}

def Rlx_ResidualLayerNormOp
    : Rlx_ResidualNormOp<"residual_layer_norm", "layer_norm"> {
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_FloatTensor:$residual,
                       Rlx_FloatTensor:$gamma, Rlx_FloatTensor:$beta,
                       Rlx_I64Attr:$axis, F64Attr:$eps);
  let assemblyFormat = [{
    $input `,` $residual `,` $gamma `,` $beta `axis` `=` $axis `eps` `=` $eps
    attr-dict `:` functional-type(operands, results)
  }];
}

def Rlx_ResidualRmsNormOp
    : Rlx_ResidualNormOp<"residual_rms_norm", "rms_norm"> {
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_FloatTensor:$residual,
                       Rlx_FloatTensor:$gamma, Optional<Rlx_FloatTensor>:$beta,
                       Rlx_I64Attr:$axis, F64Attr:$eps);
  let assemblyFormat = [{
    $input `,` $residual `,` $gamma (`,` $beta^)? `axis` `=` $axis `eps` `=`
    $eps attr-dict `:` functional-type(operands, results)
  }];
}

def Rlx_LoraMatmulOp : Rlx_Op<"lora_matmul", [Pure, InferTypeOpAdaptor,
    Rlx_ShapeRule, SameOperandsAndResultElementType,
    DeclareOpInterfaceMethods<Rlx_FusedOpInterface>]> {
  let summary = "a matmul with a low-rank adapter: x W + scale (x A) B";
  let description = [{
    `matmul(input, weight) + scale * matmul(matmul(input, lora_a), lora_b)`:
    `input` `[..., M, K]` (any batch dimensions, `?` sizes allowed),
    `weight` `[K, N]`, the adapter `lora_a` `[K, R]` and `lora_b` `[R, N]`
    of rank R (LoRA: `scale` is alpha / R). The adapter is applied to the
    input, not merged into the weight, so the weight and the adapter train
    and load separately. It is its expansion - three `rlx.matmul`s, an
    `rlx.mul` by the scale and an `rlx.add` - which `--rlx-unfuse` writes
    and the lowering emits: the codegen layer tiles the main product and
    fuses the adapter's sum into its epilogue; the gradient differentiates
    the expansion.

    ```mlir
    %y = rlx.lora_matmul %x, %w, %a, %b scale = 2.0
        : (tensor<?x4096xf32>, tensor<4096x4096xf32>, tensor<4096x16xf32>,
           tensor<16x4096xf32>) -> tensor<?x4096xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_FloatTensor:$weight,
                       Rlx_FloatTensor:$lora_a, Rlx_FloatTensor:$lora_b,
                       F64Attr:$scale);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight `,` $lora_a `,` $lora_b `scale` `=` $scale attr-dict
    `:` functional-type(operands, results)
  }];
}

#endif // RLX_DIALECT_RLX_IR_RLXFUSEDOPS_TD
