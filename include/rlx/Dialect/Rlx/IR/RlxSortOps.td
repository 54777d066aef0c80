//===- RlxSortOps.td - Sorts, cummax indices, histograms -*- tablegen -*-===//
//
// Ops that order the elements of a line or count them into bins: sort and
// argsort (with rlx.topk, RlxScanOps.td, the order-statistic family), the
// positions of torch.cummax, and torch.histc. Every order here is one
// strict total order on (value, position) pairs, so ties never depend on
// the schedule: equal values keep their input order, and NaN sits at one
// end, as in torch (largest: last ascending, first descending). Included by
// RlxOps.td.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXSORTOPS_TD
#define RLX_DIALECT_RLX_IR_RLXSORTOPS_TD

include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

// The order `sort` and `argsort` state, once for both descriptions.
defvar Rlx_SortOrderDoc = [{
    Each line along `axis` (in `[-rank, rank)`) is ordered ascending, or
    descending with `descending`. NaN ranks above every number, as in
    `torch.sort`: NaNs come last ascending and first descending. `-0.0` and
    `0.0` are equal. Equal values (NaNs among themselves included) keep
    their input order, the smaller index first, in both directions: the
    sort is always stable, so the result is that of
    `torch.sort(input, dim=axis, descending=descending, stable=True)`, and
    is one of the orders `stable=False` allows. Sizes may be `?`; an empty
    line has nothing to order.

    Lowering cost: a bottom-up merge sort of each line, O(n log n)
    comparisons and two line buffers, the lines in parallel (one thread per
    line on the GPU).
}];

//===----------------------------------------------------------------------===//
// sort / argsort
//===----------------------------------------------------------------------===//

def Rlx_SortOp : Rlx_Op<"sort", [Pure, InferTypeOpAdaptor,
                                 Rlx_SymbolicShapeOpInterface]> {
  let summary = "sort along one axis, with the positions of the values";
  let description = !strconcat([{
    Gives `values`, the elements of `input` ordered along `axis`, and
    `indices` (i64), the position along `axis` in `input` that each value
    came from. Both have the input's shape; `values` has its element type.
  }], Rlx_SortOrderDoc, [{
    Its gradient takes the values' gradient back through the permutation:
    `gather_elements(grad, argsort(indices))` along `axis`.

    ```mlir
    %v, %i = rlx.sort %x axis = -1 descending
        : tensor<?x50xf32> -> tensor<?x50xf32>, tensor<?x50xi64>
    ```
  }]);
  let arguments = (ins Rlx_NumberTensor:$input, Rlx_I64Attr:$axis,
                       UnitAttr:$descending);
  let results = (outs Rlx_NumberTensor:$values,
                      RankedTensorOf<[I64]>:$indices);
  let assemblyFormat = [{
    $input `axis` `=` $axis (`descending` $descending^)? attr-dict `:`
    type($input) `->` type($values) `,` type($indices)
  }];
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank); valid once the op is verified.
    int64_t getNormalizedAxis() {
      int64_t rank = getInput().getType().getRank();
      return getAxis() < 0 ? getAxis() + rank : getAxis();
    }
  }];
}

def Rlx_ArgsortOp : Rlx_Op<"argsort", [Pure, InferTypeOpAdaptor,
                                       Rlx_SymbolicShapeOpInterface]> {
  let summary = "the positions that sort one axis";
  let description = !strconcat([{
    Gives the `indices` (i64) of `rlx.sort` alone: the permutation of each
    line along `axis` that orders it, shaped as `input`. Matches
    `torch.argsort(input, dim=axis, descending=descending, stable=True)`
    (torch 1.13's `argsort` takes no `stable` and may order ties
    differently).
  }], Rlx_SortOrderDoc, [{
    ```mlir
    %perm = rlx.argsort %ids axis = 0 : tensor<128xi64> -> tensor<128xi64>
    ```
  }]);
  let arguments = (ins Rlx_NumberTensor:$input, Rlx_I64Attr:$axis,
                       UnitAttr:$descending);
  let results = (outs RankedTensorOf<[I64]>:$indices);
  let assemblyFormat = [{
    $input `axis` `=` $axis (`descending` $descending^)? attr-dict `:`
    type($input) `->` type($indices)
  }];
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank); valid once the op is verified.
    int64_t getNormalizedAxis() {
      int64_t rank = getInput().getType().getRank();
      return getAxis() < 0 ? getAxis() + rank : getAxis();
    }
  }];
}

//===----------------------------------------------------------------------===//
// cummax_indices
//===----------------------------------------------------------------------===//

def Rlx_CummaxIndicesOp : Rlx_Op<"cummax_indices", [Pure, InferTypeOpAdaptor,
    Rlx_SymbolicShapeOpInterface]> {
  let summary = "positions of the running maximum along one axis";
  let description = [{
    The `indices` of `torch.cummax(input, dim=axis)`, whose values are
    `rlx.cummax`: `result[..., i, ...]` (i64) is the position `j <= i`
    along `axis` (in `[-rank, rank)`) that the running maximum at `i` was
    taken from. A position takes over when its element is NaN, or when it
    is `>=` the running maximum before it and that is not NaN; so among
    equal maxima the latest wins, a NaN holds until the next NaN, and
    position 0 always starts. The shape is the input's; sizes may be `?`.

    A separate op rather than a second result of `rlx.cummax`: the values
    stay a single-result scan that its users and its gradient rule build
    alone, and a program that needs both pays one more scan over the
    input.

    Lowering: the running maximum (`rlx.cummax`'s scan), then a scan
    taking the largest position at which the input equals it or is NaN.
    Not differentiable (an integer result).

    ```mlir
    %i = rlx.cummax_indices %x axis = 1 : tensor<4x?xf32> -> tensor<4x?xi64>
    ```
  }];
  let arguments = (ins Rlx_NumberTensor:$input, Rlx_I64Attr:$axis);
  let results = (outs RankedTensorOf<[I64]>:$result);
  let assemblyFormat = [{
    $input `axis` `=` $axis attr-dict `:` type($input) `->` type($result)
  }];
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank); valid once the op is verified.
    int64_t getNormalizedAxis() {
      int64_t rank = getInput().getType().getRank();
      return getAxis() < 0 ? getAxis() + rank : getAxis();
    }
  }];
}

//===----------------------------------------------------------------------===//
// histogram
//===----------------------------------------------------------------------===//

def Rlx_HistogramOp : Rlx_Op<"histogram", [Pure, InferTypeOpAdaptor,
                                           Rlx_ShapeRule]> {
  let summary = "counts of the elements in equal-width bins (torch.histc)";
  let description = [{
    Counts the elements of `input` (f32 or f64, any rank, sizes may be `?`)
    into `bins` equal-width bins spanning `[min, max]`, as
    `torch.histc(input, bins, min, max)`. The result is a 1-D tensor of
    `bins` counts in the input's element type.

    `min` and `max` are taken in the input's type and must be finite with
    `min < max`, and `(max - min) * bins` must be finite in that type (so
    no bin position overflows). torch.histc's `min == max` form (the
    data's own range) is not accepted: compute the range with `rlx.reduce`
    and pass it, or pick the bounds.

    An element `x` with `min <= x <= max` goes to bin
    `trunc((x - min) * bins / (max - min))`, computed in the input's type,
    and `x == max` (or a bin position rounded up to `bins`) to the last
    bin; every other element, NaN included, is not counted (torch 1.13's
    CPU kernel counts NaN in the first bin). Counts are exact (accumulated
    in i64) and rounded once to the result type. The bin of an element
    within a rounding of an inner bin edge follows that formula; torch's
    f32 kernel rounds differently there and may place it in the
    neighbouring bin (f64 agrees exactly).

    Lowering cost: O(n + chunks * bins). The flattened input is cut into at
    most 256 chunks (of at least 1024 elements), counted in parallel, each
    into its own row of counts; the rows are then summed per bin. No atomics:
    integer counts add up the same in any order, so the result does not
    depend on the thread count.

    No gradient flows through it, as torch.histc's result does not require
    grad: `--rlx-autodiff` gives the input a zero gradient.

    ```mlir
    %h = rlx.histogram %x bins = 10 min = 0.0 max = 1.0
        : tensor<?x128xf32> -> tensor<10xf32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[F32, F64]>:$input, Rlx_I64Attr:$bins,
                       F64Attr:$min, F64Attr:$max);
  let results = (outs RankedTensorOf<[F32, F64]>:$result);
  let assemblyFormat = [{
    $input `bins` `=` $bins `min` `=` $min `max` `=` $max attr-dict `:`
    type($input) `->` type($result)
  }];
}

#endif // RLX_DIALECT_RLX_IR_RLXSORTOPS_TD
