//===- RlxSequentialOps.td - Scans and index-adds to tile -*- tablegen -*-===//
//
// Destination-style ops that are sequential along some loops and parallel
// along the others, the forms of the cumulative ops and of gather_backward
// that code generation tiles (TilingInterface) and decomposes
// (AggregatedOpInterface), after IREE's LinalgExt scan and scatter. A tile
// of one line (every parallel loop of extent 1) decomposes into a loop of
// scalars, a wider tile into a loop of parallel generics over slices, which
// vectorize across lines: which form runs follows from the tile sizes a
// target's lowering configuration chooses. Included by RlxOps.td.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXSEQUENTIALOPS_TD
#define RLX_DIALECT_RLX_IR_RLXSEQUENTIALOPS_TD

include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/TilingInterface.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"

class Rlx_SequentialOp<string mnemonic, list<Trait> traits = []>
    : Rlx_Op<mnemonic, [Pure, DestinationStyleOpInterface,
        DeclareOpInterfaceMethods<TilingInterface, [
          "getIterationDomain", "getLoopIteratorTypes",
          "getTiledImplementation", "getResultTilePosition"]>,
        DeclareOpInterfaceMethods<AggregatedOpInterface,
                                  ["decomposeOperation"]>] # traits> {
  let hasVerifier = 1;
}

def Rlx_ScanOp : Rlx_SequentialOp<"scan", [IsolatedFromAbove, SingleBlock]> {
  let summary = "an inclusive or exclusive scan along one axis, "
                "destination-style";
  let description = [{
    The form of `rlx.cumsum`, `rlx.cumprod` and `rlx.cummax` that code
    generation tiles. Along `axis` (in `[0, rank)`), each line of `input`
    is scanned with the `combiner` region, which takes the running value
    (of `identity`'s type, the computation type) and one input element and
    yields the next running value:

    ```
    running = identity
    for i in 0 .. n:
      next = combiner(running, input[..., i, ...])
      result[..., i, ...] = round(exclusive ? running : next)
      running = next
    ```

    where `round` converts the running value to the element type of `init`
    and the result (`input`'s). The running value stays in the computation
    type, so f16 and bf16 round each output once.

    Its loops are the input's dimensions: `axis` a reduction that a tile
    holds whole (the running value does not cross tiles), the others
    parallel. `decomposeOperation` writes a tile of one line as an
    `scf.for` carrying the running value as a scalar, and a wider tile as an
    `scf.for` carrying a tensor of running values, one parallel generic per
    step.

    Example:

    ```mlir
    %r = rlx.scan axis = 1 exclusive identity = 0.0 : f32
        ins(%x : tensor<4x8xf16>) outs(%init : tensor<4x8xf16>) {
    ^bb0(%running: f32, %element: f16):
      %e = arith.extf %element : f16 to f32
      %next = arith.addf %running, %e : f32
      rlx.yield %next : f32
    } -> tensor<4x8xf16>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, AnyRankedTensor:$init,
                       Rlx_I64Attr:$axis, UnitAttr:$exclusive,
                       TypedAttrInterface:$identity);
  let results = (outs AnyRankedTensor:$result);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    `axis` `=` $axis (`exclusive` $exclusive^)? `identity` `=` $identity
    `ins` `(` $input `:` type($input) `)`
    `outs` `(` $init `:` type($init) `)` attr-dict-with-keyword $combiner
    `->` type($result)
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getInitMutable();
    }
  }];
}

def Rlx_IndexAddOp : Rlx_SequentialOp<"index_add"> {
  let summary = "add slices into a tensor at rows given by indices, "
                "destination-style";
  let description = [{
    The form of `rlx.gather_backward` that code generation tiles: with
    `p` over the dimensions of `init` before `axis`, `s` over those after
    it, and `i` over the dimensions of `indices`,

    ```
    result = init
    for i in row-major order:
      result[p..., row(indices[i...]), s...] += source[p..., i..., s...]
    ```

    where `row` is `rlx.gather`'s index rule (an index in `[-n, 0)` wraps
    once, anything still outside `[0, n)` clamps) and each source element
    is converted to the element type of `init` before it is added. Repeated
    indices add in order, so the result does not depend on the schedule.
    `torch.Tensor.index_add` with an index of any rank. The shape of
    `source` is that of `init` with `axis` replaced by the shape of
    `indices`. A non-empty source cannot add into an axis of size 0 (an
    error when the sizes are static; with a dynamic axis of no rows, the
    source is left out).

    Its loops are the dimensions of `source`: the index dimensions are
    reductions (tiles of them add into the same destination one after the
    other), the others parallel. `decomposeOperation` writes a tile of one
    line as `scf.for` loops over the index positions adding one element
    each, and a wider tile as the same loops adding one slice each with a
    parallel generic.

    Example:

    ```mlir
    %r = rlx.index_add axis = 0
        ins(%grad, %ids : tensor<2x3x4xbf16>, tensor<2x3xi64>)
        outs(%zeros : tensor<10x4xf32>) -> tensor<10x4xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source, AnyRankedTensor:$indices,
                       AnyRankedTensor:$init, Rlx_I64Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    `axis` `=` $axis
    `ins` `(` $source `,` $indices `:` type($source) `,` type($indices) `)`
    `outs` `(` $init `:` type($init) `)` attr-dict-with-keyword `->`
    type($result)
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getInitMutable();
    }
  }];
}

#endif // RLX_DIALECT_RLX_IR_RLXSEQUENTIALOPS_TD
