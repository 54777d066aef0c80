//===- RlxSequentialOps.td - Scans and scatters to tile -*- tablegen -*-===//
//
// Destination-style ops that are sequential along some loops and parallel
// along the others, the forms of the cumulative ops and of the scatters
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

def Rlx_AssociativeScanOp : Rlx_SequentialOp<"associative_scan",
    [IsolatedFromAbove, SingleBlock]> {
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
    %r = rlx.associative_scan axis = 1 exclusive identity = 0.0 : f32
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

def Rlx_ScatterOp : Rlx_SequentialOp<"scatter", [IsolatedFromAbove,
                                                   SingleBlock]> {
  let summary = "combine updates into a tensor at positions given by "
                "indices, destination-style";
  let description = [{
    The form of every scatter (`rlx.scatter_elements`, `rlx.scatter_add`,
    `rlx.scatter_nd`, the gradients of the gathers) that code generation
    tiles, after IREE's LinalgExt scatter with StableHLO's batching
    dimensions. Its loops are the dimensions of `updates`. The last
    dimension of `indices` holds one coordinate for each destination
    dimension in `index_dims`; its other dimensions are the loops listed in
    `index_loops`. Every other destination dimension `d` is addressed by
    the loop `l` with `loop_dims[l] == d` (at most the loop's extent: the
    coordinate is the loop's position); a loop with `loop_dims[l] == -1`
    addresses no dimension and must index `indices`. For every position
    `u` of `updates`, in row-major order:

    ```
    dest[d] = loop d's position               for d in loop_dims
    dest[index_dims[j]] = rule(indices[u[index_loops]..., j])
    result[dest] = combiner(updates[u], result[dest])
    ```

    `rule` wraps an index in `[-n, 0)` once; then an update outside
    `[0, n)` in any coordinate is dropped, or, with `clamp_indices`, the
    coordinate is clamped to `[0, n - 1]` (`rlx.gather`'s rule, for the
    gradients of gathers). The combiner takes an update and the element it
    lands on (the element type of `init`) and yields the new element.

    Loops addressing a destination dimension are parallel: two positions
    that differ in one never land on the same element. The `-1` loops are
    reductions, stepped in order, so repeated positions combine in the
    order above on every schedule. `decomposeOperation` writes a tile as
    `scf.for` loops over the loops that index `indices`, each step a
    scalar, or, when loops that do not index `indices` remain, a slice over
    them combined by one parallel generic.

    Example, `torch.scatter_add` along axis 1 of a 4x10 tensor:

    ```mlir
    %r = rlx.scatter loop_dims = [0, -1] index_loops = [0, 1]
        index_dims = [1]
        ins(%src, %ids : tensor<4x6xf32>, tensor<4x6x1xi64>)
        outs(%init : tensor<4x10xf32>) {
    ^bb0(%update: f32, %current: f32):
      %sum = arith.addf %current, %update : f32
      rlx.yield %sum : f32
    } -> tensor<4x10xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$updates, AnyRankedTensor:$indices,
                       AnyRankedTensor:$init, DenseI64ArrayAttr:$loop_dims,
                       DenseI64ArrayAttr:$index_loops,
                       DenseI64ArrayAttr:$index_dims,
                       UnitAttr:$clamp_indices);
  let results = (outs AnyRankedTensor:$result);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    `loop_dims` `=` $loop_dims `index_loops` `=` $index_loops
    `index_dims` `=` $index_dims (`clamp_indices` $clamp_indices^)?
    `ins` `(` $updates `,` $indices `:` type($updates) `,` type($indices) `)`
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

#endif // RLX_DIALECT_RLX_IR_RLXSEQUENTIALOPS_TD
