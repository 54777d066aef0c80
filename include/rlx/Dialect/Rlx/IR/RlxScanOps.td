//===- RlxScanOps.td - Index reductions, scans and top-k -*- tablegen -*-===//
//
// Included by RlxOps.td; enums defined here are generated with the others.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXSCANOPS_TD
#define RLX_DIALECT_RLX_IR_RLXSCANOPS_TD

include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"

def Rlx_ArgIndexTensor : RankedTensorOf<[I32, I64]>;

//===----------------------------------------------------------------------===//
// argmax / argmin
//===----------------------------------------------------------------------===//

class Rlx_ArgReduceOp<string mnemonic, string extremum, string nanRule>
    : Rlx_Op<mnemonic, [Pure, Rlx_ShapeRule]> {
  let summary = "index of the " # extremum # " along one axis";
  let description = "Gives the position along `axis` (in `[-rank, rank)`) "
    "of the " # extremum # " of `input`. The axis is dropped from the shape, "
    "or kept as a size-1 dimension with `keep_dim`; the axis must not be "
    "empty (a run-time requirement where it is `?`). The result element type is the declared one, i32 or i64 (the "
    "index must fit: an i32 result needs an axis shorter than 2^31). Ties "
    "give the smallest index. " # nanRule # " Matches `torch." # mnemonic #
    "(input, dim=axis, keepdim=keep_dim)`.";
  let arguments = (ins Rlx_NumberTensor:$input, Rlx_I64Attr:$axis,
                       UnitAttr:$keep_dim);
  let results = (outs Rlx_ArgIndexTensor:$result);
  let assemblyFormat = [{
    $input `axis` `=` $axis (`keep_dim` $keep_dim^)? attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank); valid once the op is verified.
    int64_t getNormalizedAxis() {
      int64_t rank = getInput().getType().getRank();
      return getAxis() < 0 ? getAxis() + rank : getAxis();
    }
  }];
}

def Rlx_ArgMaxOp : Rlx_ArgReduceOp<"argmax", "maximum",
  "NaN counts as larger than every number, so the first NaN wins.">;
def Rlx_ArgMinOp : Rlx_ArgReduceOp<"argmin", "minimum",
  "NaN counts as smaller than every number (it propagates as in "
  "`torch.min`), so the first NaN wins.">;

//===----------------------------------------------------------------------===//
// cumsum / cumprod / cummax
//===----------------------------------------------------------------------===//

class Rlx_CumulativeOp<string mnemonic, string combiner, string identity,
                 string edgeCases>
    : Rlx_Op<mnemonic, [Pure, SameOperandsAndResultType,
                        Rlx_SymbolicShapeOpInterface]> {
  let summary = "cumulative " # combiner # " along one axis";
  let description = "Scans `input` along `axis` (in `[-rank, rank)`) with "
    "`" # combiner # "`: `result[..., i, ...]` combines `input[..., j, ...]` "
    "for `j` in `[0, i]`, or in `[0, i)` with `exclusive`, where position 0 "
    "gets the identity " # identity # ". The shape and element type are "
    "those of the input; an empty axis gives an empty result. f16 and bf16 "
    "carry the running value in f32 and round each output once; integer sums "
    "and products wrap. " # edgeCases;
  let arguments = (ins Rlx_NumberTensor:$input, Rlx_I64Attr:$axis,
                       UnitAttr:$exclusive);
  let results = (outs Rlx_NumberTensor:$result);
  let assemblyFormat = [{
    $input `axis` `=` $axis (`exclusive` $exclusive^)? attr-dict `:`
    type($input)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank); valid once the op is verified.
    int64_t getNormalizedAxis() {
      int64_t rank = getType().getRank();
      return getAxis() < 0 ? getAxis() + rank : getAxis();
    }
  }];
}

def Rlx_CumsumOp : Rlx_CumulativeOp<"cumsum", "+", "0",
  "Inclusive form: `torch.cumsum(input, dim=axis)`.">;
def Rlx_CumprodOp : Rlx_CumulativeOp<"cumprod", "*", "1",
  "Inclusive form: `torch.cumprod(input, dim=axis)`.">;
def Rlx_CummaxOp : Rlx_CumulativeOp<"cummax", "max", "(-inf, or the smallest "
  "integer of the type)",
  "A NaN propagates to every later position. Gives the values of "
  "`torch.cummax(input, dim=axis)` (not its indices).">;

//===----------------------------------------------------------------------===//
// topk
//===----------------------------------------------------------------------===//

def Rlx_TopKOp : Rlx_Op<"topk", [Pure, InferTypeOpAdaptor, Rlx_ShapeRule]> {
  let summary = "the k largest (or smallest) entries along the last axis";
  let description = [{
    For every row of the last axis of `input` (rank >= 1, `0 < k <=` the
    axis length, a run-time requirement where it is `?`), gives the `k` largest entries in descending order, or with
    `smallest` the `k` smallest in ascending order, and their positions in
    the row (`indices`, i64). Both results have the input's shape with the
    last dimension replaced by `k`; `values` has the input's element type.

    Equal entries are ordered by position, the smaller index first, so the
    result is `torch.sort(input, dim=-1, descending=!smallest,
    stable=True)` cut to its first `k` columns; it agrees with
    `torch.topk(input, k, largest=!smallest)` except that torch orders ties
    arbitrarily. NaN ranks above every number in both modes (as in torch):
    first with the default, last with `smallest`.

    Lowering cost: per row, a binary heap of the `k` best entries seen,
    O(n log k) comparisons, then sorted in place, O(k log k); the rows in
    parallel (one thread per row on the GPU).
  }];
  let arguments = (ins Rlx_NumberTensor:$input, Rlx_I64Attr:$k,
                       UnitAttr:$smallest);
  let results = (outs Rlx_NumberTensor:$values,
                      RankedTensorOf<[I64]>:$indices);
  let assemblyFormat = [{
    $input `k` `=` $k (`smallest` $smallest^)? attr-dict `:` type($input)
    `->` type($values) `,` type($indices)
  }];
}

#endif // RLX_DIALECT_RLX_IR_RLXSCANOPS_TD
