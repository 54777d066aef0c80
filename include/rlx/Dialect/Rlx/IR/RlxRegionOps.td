//===- RlxRegionOps.td - Fused regions ---------------------*- tablegen -*-===//
//
// Included by RlxOps.td. A region op holds a graph of rlx ops that is
// compiled as one kernel (one loop nest on CPU).
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXREGIONOPS_TD
#define RLX_DIALECT_RLX_IR_RLXREGIONOPS_TD

include "mlir/Dialect/Linalg/IR/LinalgInterfaces.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/TilingInterface.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"

def Rlx_FusionKind : I32EnumAttr<"FusionKind", "what a fused region computes", [
    I32EnumAttrCase<"Elementwise", 0, "elementwise">,
    I32EnumAttrCase<"Reduction", 1, "reduction">,
    I32EnumAttrCase<"Row", 2, "row">,
    I32EnumAttrCase<"Contraction", 3, "contraction">
  ]> {
  let cppNamespace = "::mlir::rlx";
}

def Rlx_RegionOp : Rlx_Op<"region", [IsolatedFromAbove,
    RecursiveMemoryEffects, SingleBlock, Rlx_ShapeRule]> {
  let summary = "a graph of rlx ops compiled as one kernel";
  let description = [{
    The body is a graph of rlx ops on tensors whose entry block arguments
    stand for `inputs`; `rlx.yield` names the values the region returns.
    The region is compiled as one kernel: one loop nest on CPU, reading each
    input once and writing each result once, with no intermediate tensors.

    `kind` says which ops the body may hold and how it is lowered. Which
    ops may join which kind is a property of the op, stated by its
    interfaces: `ScalarComputeOpInterface` (elementwise),
    `ReductionOpInterface` (reductions), `ContractionOpInterface`.

    - `elementwise`: every body op is elementwise and produces a tensor of
      the region's iteration shape, which is the shape of every result.
      Lowered to one `linalg.generic`.
    - `reduction` (elementwise + tail reduction): elementwise ops on the
      iteration shape `F` feeding one or more reductions over the same axes
      of `F`; the results are those reductions, and no body op reads them.
      Lowered to one `linalg.generic` with reduction loops that never stores
      the elementwise values.
    - `row`: reductions over the same axes (the row axes) of the same shape
      `F`, all with `keep_dim`, whose per-row results are broadcast back to
      the row's elements; every other body op is elementwise and produces
      either `F` or the per-row shape `P` (`F` with the row axes of size 1),
      and so does every result. Softmax, the normalizations and the softmax
      losses decompose into such bodies (`RowOpInterface`). Lowered to
      `rlx.rows`, its destination-style form, which code generation tiles
      by rows.
    - `contraction`: one contraction (matmul, conv, dot_general), a
      prologue of elementwise ops computing its operands (each of the shape
      of the operand it computes, read only by the prologue and the
      contraction), and an epilogue of elementwise ops of the contraction's
      result shape applied to its result. Lowered to one generic per
      computed operand, the contraction and one epilogue generic; code
      generation then runs the epilogue, the contraction and the left
      operand's prologue per tile of the result (a right operand's
      prologue runs once: every tile reads its rows).

    In every kind, inputs broadcast numpy-style to the iteration shape, and
    each body value is rounded to its element type exactly as the unfused
    ops would round it, so fused and unfused graphs give identical results.

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
    /// The shape the region iterates over: the shape of its elementwise
    /// results, of the input of its reductions, or of its contraction's
    /// result.
    ::llvm::SmallVector<int64_t> getIterationShape();
    /// The reduced axes of a `reduction` or `row` region (sorted), else none.
    ::llvm::SmallVector<int64_t> getReducedAxes();
    YieldOp getYield();
  }];
}

def Rlx_RowsOp : Rlx_Op<"rows", [IsolatedFromAbove, Pure, SingleBlock,
    AttrSizedOperandSegments, DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<TilingInterface, [
      "getIterationDomain", "getLoopIteratorTypes", "getTiledImplementation",
      "getResultTilePosition"]>,
    DeclareOpInterfaceMethods<AggregatedOpInterface, ["decomposeOperation"]>]> {
  let summary = "a row region in destination style, the form code "
                "generation tiles";
  let description = [{
    Computes what an `rlx.region row` with the same body computes, into
    `outs` (one per result, of the result's type): the body's reductions
    over the row axes, whose per-row results broadcast back to the row's
    elements. `rlx-to-linalg` lowers row regions to it.

    Its loops are the dimensions of the iteration shape `F` (the shape the
    body's reductions read): the kept dimensions are parallel, the row axes
    reductions. `TilingInterface` cuts it into tiles of whole rows (a row
    axis is never split); a tile is an `rlx.rows` whose body computes the
    same ops on the tile's shape. Each value's shape in a tile follows from
    its shape in `F`: its size-1 (broadcast) dimensions stay 1, row axes
    keep their length, kept dimensions take the tile's.

    `decomposeOperation` writes the op as linalg ops over its iteration
    shape: per stage of dependent reductions, a generic filling the staged
    values (per-element values that two stages need, computed once), a
    generic with reduction loops, and generics over the per-row shape for
    the values computed per row; then one generic writing the per-element
    results into `outs`. Everything else is recomputed where it is read,
    which for elementwise chains is cheaper than a store and a load. Every
    value is rounded to its element type as the unfused op stores it.

    Example:

    ```mlir
    %init = tensor.empty() : tensor<4x8xf32>
    %r = rlx.rows ins(%x : tensor<4x8xf32>) outs(%init : tensor<4x8xf32>) {
    ^bb0(%a: tensor<4x8xf32>):
      %m = rlx.reduce max %a axes = [1] keep_dim
          : tensor<4x8xf32> -> tensor<4x1xf32>
      %d = rlx.sub %a, %m
          : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
      rlx.yield %d : tensor<4x8xf32>
    } -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Variadic<Rlx_Tensor>:$inputs,
                       Variadic<Rlx_Tensor>:$outs);
  let results = (outs Variadic<Rlx_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `ins` `(` ($inputs^ `:` type($inputs))? `)`
    `outs` `(` $outs `:` type($outs) `)` attr-dict-with-keyword $body `->`
    type($results)
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getOutsMutable();
    }
    /// The shape the body's reductions read.
    ::llvm::SmallVector<int64_t> getIterationShape();
    /// The row axes (sorted).
    ::llvm::SmallVector<int64_t> getReducedAxes();
    YieldOp getYield();
  }];
}

def Rlx_YieldOp : Rlx_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["RegionOp", "RowsOp", "AssociativeScanOp", "ScatterOp",
                 "IfOp", "WhileOp", "ScanOp", "CustomFnOp"]>]> {
  let summary = "the values a region of an rlx op returns";
  let description = [{
    Tensors in `rlx.region`, `rlx.rows`, the control-flow ops (`rlx.if`,
    `rlx.while`, `rlx.scan`) and `rlx.custom_fn`, the combined scalar in
    `rlx.associative_scan` and `rlx.scatter`; each parent checks what its
    regions yield.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // RLX_DIALECT_RLX_IR_RLXREGIONOPS_TD
