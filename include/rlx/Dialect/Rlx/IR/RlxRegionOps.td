//===- RlxRegionOps.td - Fused regions ---------------------*- tablegen -*-===//
//
// Included by RlxOps.td. A region op holds a graph of rlx ops that is
// compiled as one kernel (one loop nest on CPU).
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXREGIONOPS_TD
#define RLX_DIALECT_RLX_IR_RLXREGIONOPS_TD

include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"

def Rlx_FusionKind : I32EnumAttr<"FusionKind", "what a fused region computes", [
    I32EnumAttrCase<"Elementwise", 0, "elementwise">
  ]> {
  let cppNamespace = "::mlir::rlx";
}

def Rlx_RegionOp : Rlx_Op<"region", [IsolatedFromAbove,
    RecursiveMemoryEffects, SingleBlock]> {
  let summary = "a graph of rlx ops compiled as one kernel";
  let description = [{
    The body is a graph of rlx ops on tensors whose entry block arguments
    stand for `inputs`; `rlx.yield` names the values the region returns.
    The region is compiled as one kernel: one loop nest on CPU, reading each
    input once and writing each result once, with no intermediate tensors.

    `kind` says which ops the body may hold and how it is lowered:

    - `elementwise`: every body op implements `ScalarComputeOpInterface`
      and produces a tensor of the region's iteration shape, which is the
      shape of every result. Inputs may be smaller and broadcast
      numpy-style to the iteration shape. Each body value is rounded to its
      element type exactly as the unfused ops would round it, so fused and
      unfused graphs give identical results.

    `--rlx-form-regions` creates regions, `--rlx-unfuse` inlines them back.

    Example:

    ```mlir
    %r = rlx.region elementwise ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>)
        -> tensor<4x8xf32> {
    ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>):
      %0 = rlx.add %a, %c : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
      %1 = rlx.gelu %0 : tensor<4x8xf32>
      rlx.yield %1 : tensor<4x8xf32>
    }
    ```
  }];
  let arguments = (ins Rlx_FusionKind:$kind, Variadic<Rlx_Tensor>:$inputs);
  let results = (outs Variadic<Rlx_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kind `ins` `(` ($inputs^ `:` type($inputs))? `)` attr-dict
    `->` type($results) $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The shape every body value of an elementwise region has.
    ::llvm::ArrayRef<int64_t> getIterationShape() {
      return ::llvm::cast<::mlir::RankedTensorType>(getResult(0).getType())
          .getShape();
    }
    YieldOp getYield();
  }];
}

def Rlx_YieldOp : Rlx_Op<"yield", [Pure, Terminator, ReturnLike,
                                   HasParent<"RegionOp">]> {
  let summary = "the values an rlx.region returns";
  let arguments = (ins Variadic<Rlx_Tensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // RLX_DIALECT_RLX_IR_RLXREGIONOPS_TD
