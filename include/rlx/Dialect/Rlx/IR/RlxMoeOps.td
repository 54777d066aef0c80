//===- RlxMoeOps.td - Mixture-of-experts ops --------------*- tablegen -*-===//
//
// Products whose weight is chosen per row by data: the expert layers of
// mixture-of-experts models (Switch, Mixtral, DeepSeek-MoE), where a router
// sends each token to one or k of E experts. Included by RlxOps.td.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXMOEOPS_TD
#define RLX_DIALECT_RLX_IR_RLXMOEOPS_TD

include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxIndexingOps.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxQuantMatmulOps.td"

def Rlx_GroupedMatmulOp : Rlx_Op<"grouped_matmul", [Pure, InferTypeOpAdaptor,
    Rlx_ShapeRule]> {
  let summary = "rows times the weight of the expert each row is routed to";
  let description = [{
    The expert product of a mixture-of-experts layer: `input` `[T, K]`
    (T tokens, `?` allowed), `weight` `[E, K, N]` (one `[K, N]` matrix per
    expert) and `expert_ids` (i32 or i64). With top-1 routing `expert_ids`
    is `[T]` and

    ```
    result[t] = input[t] @ weight[expert_ids[t]]
    ```

    With top-k routing `expert_ids` is `[T, k]` and the `gates` operand,
    `[T, k]`, weighs the k experts' outputs (the router's normalized
    probabilities):

    ```
    result[t] = sum_j gates[t, j] * (input[t] @ weight[expert_ids[t, j]])
    ```

    The result is `[T, N]`. Experts may repeat (in a row, too) and need not
    all be used. f16 and bf16 accumulate in f32 (the gates' products
    included) and round once.

    An expert id selects a matrix by `rlx.gather`'s rule: an id in
    `[-E, 0)` wraps once and anything still outside `[0, E)` is clamped to
    `[0, E - 1]`. A router's ids are in range by construction, so the rule
    only matters for bad data: clamping never reads outside the weight and
    costs two compares in the loop nest, it needs no error path (kernels
    cannot report one), and the gradient follows the same expert the
    forward read (`rlx.gather_backward` uses the same rule). A zero row or
    dropping the token would hide the bug as silently and would need a
    select per element. `weight` must have an expert unless there are no
    rows (`E` may be `?`: then the function's ABI requires one at run
    time).

    Rules: `input` rank 2, `weight` rank 3 with `weight[1] == K`,
    `expert_ids` `[T]` without gates or `[T, k]` with gates of that shape;
    `input`, `weight`, `gates` and the result share one element type.

    ```mlir
    %y = rlx.grouped_matmul %x, %w, %ids
        : (tensor<?x512xbf16>, tensor<8x512x1024xbf16>, tensor<?xi32>)
        -> tensor<?x1024xbf16>
    %z = rlx.grouped_matmul %x, %w, %top2 gates %p
        : (tensor<?x512xf32>, tensor<8x512x1024xf32>, tensor<?x2xi64>,
           tensor<?x2xf32>) -> tensor<?x1024xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_FloatTensor:$weight,
                       Rlx_IndexTensor:$expert_ids,
                       Optional<Rlx_FloatTensor>:$gates);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight `,` $expert_ids (`gates` $gates^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Rlx_DequantGroupedMatmulOp : Rlx_Op<"dequant_grouped_matmul", [Pure,
    InferTypeOpAdaptor, Rlx_ShapeRule, AttrSizedOperandSegments]> {
  let summary = "grouped_matmul with block-quantized experts";
  let description = [{
    `rlx.grouped_matmul` whose experts are stored as `rlx.dequant_matmul`
    stores its weight: `weight` `[E, N, bytes per row]` (i8) holds E
    matrices `W[e]` of N rows of K values each, in the layout `scheme`
    names (`"int8"`, `"int4"` with `group_size` 32, 64 or 128, GGUF
    `"q8_0"` or `"q4_0"`: `rlx.dequant_matmul` states the byte layouts),
    with `scales` and `zero_points` `[E, N, K / group_size]` for int8 and
    int4. This is how quantized MoE checkpoints store their experts (GGUF's
    `ffn_*_exps` tensors, AWQ/GPTQ expert stacks). For `input` `[T, K]`
    (f16, bf16, f32 or f64):

    ```
    result[t, n] = sum_k input[t, k] * W[expert_ids[t]][n, k]              (top 1)
    result[t, n] = sum_j gates[t, j] sum_k input[t, k] * W[expert_ids[t, j]][n, k]
    ```

    `expert_ids` `[T]` (i32 or i64), or `[T, k]` with `gates` `[T, k]` of
    the input's type; ids follow `rlx.grouped_matmul`'s rule (wrap once,
    then clamp). The lowering is one linalg.generic whose body reads the
    routed expert's byte, scale and zero point and dequantizes the value
    next to the multiply-add: no f32 expert weight is ever formed.
    Accumulation is in f32 (f64 for f64), the gates' products included,
    rounded once to the input's type.

    Differentiable with respect to `input` and `gates` (the quantized
    experts are constants): `dinput` is `rlx.grouped_matmul` of the result's
    gradient with the experts dequantized once by `rlx.dequant_weight`
    (`[E, N, K]` f32, cast to the input's type; so with f64 inputs each
    weight carries an f32 rounding, at most 2^-24 relative, in dinput
    only), and `dgates[t, j]` the dot
    of the result's gradient with row t's ungated product with expert
    `expert_ids[t, j]` (this op again, on the rows repeated k times).

    ```mlir
    %y = rlx.dequant_grouped_matmul %x, %w, %top2 gates %p scales %s
        scheme = "int4" group_size = 64
        : (tensor<?x1024xf16>, tensor<8x2816x512xi8>, tensor<?x2xi32>,
           tensor<?x2xf16>, tensor<8x2816x16xf16>) -> tensor<?x2816xf16>
    %z = rlx.dequant_grouped_matmul %x, %q, %ids scheme = "q4_0"
        : (tensor<?x4096xf32>, tensor<64x1408x2304xi8>, tensor<?xi64>)
        -> tensor<?x1408xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_QuantizedTensor:$weight,
                       Rlx_IndexTensor:$expert_ids,
                       Optional<Rlx_FloatTensor>:$gates,
                       Optional<RankedTensorOf<[F16, F32]>>:$scales,
                       Optional<Rlx_QuantizedTensor>:$zero_points,
                       StrAttr:$scheme,
                       DefaultValuedAttr<Rlx_I64Attr, "32">:$group_size);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight `,` $expert_ids (`gates` $gates^)?
    (`scales` $scales^)? (`zero_points` $zero_points^)?
    `scheme` `=` $scheme (`group_size` `=` $group_size^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = Rlx_BlockQuantDecl;
}

#endif // RLX_DIALECT_RLX_IR_RLXMOEOPS_TD
