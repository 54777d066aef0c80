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

#endif // RLX_DIALECT_RLX_IR_RLXMOEOPS_TD
