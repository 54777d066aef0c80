//===- RlxIndexingOps.td - Indexing and data movement ops -*- tablegen -*-===//
//
// Included by RlxOps.td; enums defined here are generated with the others.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXINDEXINGOPS_TD
#define RLX_DIALECT_RLX_IR_RLXINDEXINGOPS_TD

include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Rlx_PadMode : I32EnumAttr<"PadMode", "how rlx.pad fills the border", [
    I32EnumAttrCase<"Constant", 0, "constant">,
    I32EnumAttrCase<"Reflect", 1, "reflect">,
    I32EnumAttrCase<"Replicate", 2, "replicate">,
    I32EnumAttrCase<"Circular", 3, "circular">
  ]> {
  let cppNamespace = "::mlir::rlx";
}

def Rlx_TrianglePart : I32EnumAttr<"TrianglePart",
    "which triangle rlx.trilu keeps", [
    I32EnumAttrCase<"Lower", 0, "lower">,
    I32EnumAttrCase<"Upper", 1, "upper">
  ]> {
  let cppNamespace = "::mlir::rlx";
}

// Gather indices: i32 or i64, any rank (rank 0 included).
def Rlx_IndexTensor : RankedTensorOf<[I32, I64]>;

//===----------------------------------------------------------------------===//
// Gathers
//===----------------------------------------------------------------------===//

def Rlx_GatherOp : Rlx_Op<"gather", [Pure, InferTypeOpAdaptor,
                                       Rlx_ShapeRule]> {
  let summary = "select slices of a table by index along one axis";
  let description = [{
    Embedding lookup, `torch.index_select` generalized to indices of any
    rank (numpy `take` along `axis`):

    ```
    result[p..., i..., s...] = table[p..., indices[i...], s...]
    ```

    where `p` ranges over the table dimensions before `axis` and `s` over
    those after it. The result shape is the table shape with dimension `axis`
    (in `[-rank, rank)`) replaced by the whole shape of `indices` (i32 or i64,
    any rank; rank 0 removes the axis).

    Out-of-range indices never read outside the table: an index in
    `[-n, 0)` (n = the size of `axis`) wraps once, as in Python and PyTorch,
    and any index still outside `[0, n)` is clamped to `[0, n - 1]`. A
    non-empty set of indices cannot read from an axis of size 0; where the
    axis is `?`, it must hold a row at run time unless the indices are
    provably empty (a requirement of the function's ABI).

    Example: `table : tensor<10x4xf32>`, `indices : tensor<2x3xi64>`,
    `axis = 0` gives `tensor<2x3x4xf32>`.
  }];
  let arguments = (ins Rlx_Tensor:$table, Rlx_IndexTensor:$indices,
                       Rlx_I64Attr:$axis);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = [{
    $table `,` $indices `axis` `=` $axis attr-dict `:`
    functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    /// The row that `rawIndex` (an i32 or i64 scalar) selects along an
    /// axis of `axisSize` rows, as an index value: the rule above.
    static ::mlir::Value createRowIndex(::mlir::OpBuilder &b,
                                        ::mlir::Location loc,
                                        ::mlir::Value rawIndex,
                                        ::mlir::OpFoldResult axisSize);
  }];
}

def Rlx_GatherElementsOp : Rlx_Op<"gather_elements", [Pure,
    InferTypeOpAdaptor, Rlx_ShapeRule]> {
  let summary = "gather single elements along one axis (torch.gather)";
  let description = [{
    `torch.gather` / numpy `take_along_axis`: `indices` (i32 or i64) has the
    rank of `input`, and for every position `q` of `indices`

    ```
    result[q] = input[q with coordinate `axis` replaced by indices[q]]
    ```

    The result has the shape of `indices` and the element type of `input`.
    Outside `axis` (in `[-rank, rank)`), each dimension of `indices` must be
    no larger than the corresponding dimension of `input`.

    Out-of-range indices never read outside the input: an index in
    `[-n, 0)` (n = the size of `axis` in `input`) wraps once, as in Python
    and PyTorch, and any index still outside `[0, n)` is clamped to
    `[0, n - 1]`. A non-empty `indices` cannot read from an axis of size 0
    (a run-time requirement where the axis is `?`, as for `rlx.gather`).
  }];
  let arguments = (ins Rlx_Tensor:$input, Rlx_IndexTensor:$indices,
                       Rlx_I64Attr:$axis);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $indices `axis` `=` $axis attr-dict `:`
    functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Padding, tiling, flipping, shifting
//===----------------------------------------------------------------------===//

def Rlx_PadOp : Rlx_Op<"pad", [Pure, InferTypeOpAdaptor, Rlx_ShapeRule]> {
  let summary = "pad every dimension (constant, reflect, replicate, circular)";
  let description = [{
    Grows dimension `d` of `input` by `pads[2d]` elements before it and
    `pads[2d + 1]` after it: `pads` lists `[lo0, hi0, lo1, hi1, ...]` for
    every dimension, starting from dimension 0 (unlike `torch.nn.functional.pad`,
    which lists trailing dimensions last-first). In `constant` mode a pad
    may be negative: it removes that many elements at its end (as ONNX `Pad`
    and `torch.nn.functional.pad` do), so `[-1, -1]` crops a `?` dimension
    by one element at each end, which no static window (`rlx.narrow`) can.
    The crops of a dimension must leave at least nothing:
    `-min(lo, 0) - min(hi, 0) <= size`.

    The mode decides what the border holds (`abcd` padded by 2 on both sides):

    - `constant`: `value` (default 0), `00|abcd|00`. For integer and bool
      tensors `value` must be exactly representable in the element type;
      for floats it is rounded to the element type.
    - `reflect`: mirror excluding the edge element, `cb|abcd|cb`; every pad
      must be smaller than its dimension.
    - `replicate`: repeat the edge element, `aa|abcd|dd`; a padded dimension
      must not be empty.
    - `circular`: wrap around, `cd|abcd|ab`; every pad must be at most its
      dimension.

    `value` is only accepted with `constant`. Where a dimension is `?`, the
    mode's bound on its pads is a run-time requirement of the function's
    ABI.
  }];
  let arguments = (ins Rlx_Tensor:$input, Rlx_PadMode:$mode,
                       DenseI64ArrayAttr:$pads, OptionalAttr<F64Attr>:$value);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = [{
    $mode $input `pads` `=` $pads (`value` `=` $value^)? attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Rlx_TileOp : Rlx_Op<"tile", [Pure, InferTypeOpAdaptor, Rlx_ShapeRule]> {
  let summary = "repeat the input along every dimension (numpy tile)";
  let description = [{
    Repeats `input` `reps[d]` times along dimension `d`:
    `result[i] = input[i mod shape]` with `result` dimension `d` of size
    `shape[d] * reps[d]`. `reps` has one non-negative entry per dimension;
    a zero repetition gives an empty dimension.
  }];
  let arguments = (ins Rlx_Tensor:$input, DenseI64ArrayAttr:$reps);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = [{
    $input `reps` `=` $reps attr-dict `:` type($input) `->` type($result)
  }];
}

def Rlx_ReverseOp : Rlx_Op<"reverse", [Pure, SameOperandsAndResultType,
                                       Rlx_SymbolicShapeOpInterface]> {
  let summary = "reverse the element order along a set of axes (torch.flip)";
  let description = [{
    Along each listed axis of size `n`, result element `i` reads input
    element `n - 1 - i`; other axes pass through. `axes` are distinct and in
    `[-rank, rank)`; an empty list is the identity.
  }];
  let arguments = (ins Rlx_Tensor:$input, DenseI64ArrayAttr:$axes);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = "$input `axes` `=` $axes attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Rlx_RollOp : Rlx_Op<"roll", [Pure, SameOperandsAndResultType,
                                 Rlx_SymbolicShapeOpInterface]> {
  let summary = "cyclic shift along a set of axes (torch.roll)";
  let description = [{
    For each pair `(shifts[k], dims[k])`, shifts the elements along
    `dims[k]` (in `[-rank, rank)`) by `shifts[k]` positions with wrap-around:
    `result[..., i, ...] = input[..., (i - shift) mod n, ...]`. Shifts may be
    negative or larger than the axis; they are reduced modulo its size `n`.
    An axis may be listed more than once; its shifts add up. `shifts` and
    `dims` have the same length (both empty is the identity).
  }];
  let arguments = (ins Rlx_Tensor:$input, DenseI64ArrayAttr:$shifts,
                       DenseI64ArrayAttr:$dims);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = [{
    $input `shifts` `=` $shifts `dims` `=` $dims attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The net shift of every dimension, in [0, size) (0 for empty and `?`
    /// ones).
    ::llvm::SmallVector<int64_t> getNetShifts();
  }];
}

def Rlx_TriluOp : Rlx_Op<"trilu", [Pure, SameOperandsAndResultType,
                                   Rlx_SymbolicShapeOpInterface]> {
  let summary = "keep the upper or lower triangle of the last two dims";
  let description = [{
    `torch.triu` / `torch.tril` over the last two dimensions (rows `i`,
    columns `j`) of an input of rank >= 2, batched over the others. `upper`
    keeps the elements with `j - i >= diagonal`, `lower` those with
    `j - i <= diagonal`; every other element becomes 0 (`false` for i1).
    `diagonal` (default 0) may be any value: positive offsets move above the
    main diagonal, negative ones below.
  }];
  let arguments = (ins Rlx_Tensor:$input, Rlx_TrianglePart:$part,
                       DefaultValuedAttr<Rlx_I64Attr, "0">:$diagonal);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = [{
    $part $input (`diagonal` `=` $diagonal^)? attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

def Rlx_IotaOp : Rlx_Op<"iota", [Pure]> {
  let summary = "each element's index along one axis";
  let description = [{
    `result[i_0, ..., i_last] = i_axis` for an integer result of any static
    shape, `axis` in `[-rank, rank)`: `torch.arange` broadcast along the
    other axes. Every index along `axis` must be representable in the
    element type. The indices are computed where they are used (a
    `linalg.index` in the lowering), so no constant of the result's size is
    ever built: the softmax losses compare labels against it, and gradient
    rules use it for positions.

    ```mlir
    %columns = rlx.iota axis = 1 : tensor<1x50000xi64>
    ```
  }];
  let arguments = (ins Rlx_I64Attr:$axis);
  let results = (outs RankedTensorOf<[Rlx_Int]>:$result);
  let assemblyFormat = "`axis` `=` $axis attr-dict `:` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `axis` in [0, rank).
    int64_t getNormalizedAxis() {
      int64_t axis = getAxis();
      return axis < 0 ? axis + getType().getRank() : axis;
    }
  }];
}

//===----------------------------------------------------------------------===//
// KV cache
//===----------------------------------------------------------------------===//

def Rlx_KvAppendOp : Rlx_Op<"kv_append", [Pure, Rlx_ShapeRule,
    AllTypesMatch<["cache", "result"]>,
    AllElementTypesMatch<["cache", "update"]>]> {
  let summary = "write new rows into a cache at a runtime position";
  let description = [{
    Returns `cache` with `update` written at `position` along `axis`:

    ```
    result = cache
    result[..., p : p + L, ...] = update      (p along `axis`, L = its length)
    ```

    `update` has the rank of `cache`, the same size in every other dimension,
    and at most as many rows along `axis` (in `[-rank, rank)`). `position` is
    a rank-0 i32 or i64 tensor, so one compiled decode step serves every
    position. It is clamped to `[0, S - L]` (S = the cache length along
    `axis`): the write always stays inside the cache, and a position past the
    end overwrites the last `L` rows. Either length may be `?` (a cache of
    run-time length): `L <= S` and the other sizes' equality are then
    run-time requirements.
  }];
  let arguments = (ins Rlx_Tensor:$cache, Rlx_Tensor:$update,
                       0DTensorOf<[I32, I64]>:$position, Rlx_I64Attr:$axis);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = [{
    $cache `,` $update `at` $position `axis` `=` $axis attr-dict `:`
    type($cache) `,` type($update) `,` type($position)
  }];
  // The shape rule checks the operands: the result type comes from
  // AllTypesMatch, not from the rule.
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank).
    int64_t getNormalizedAxis() {
      int64_t rank = getType().getRank();
      return getAxis() < 0 ? getAxis() + rank : getAxis();
    }
  }];
}

//===----------------------------------------------------------------------===//
// General contraction
//===----------------------------------------------------------------------===//

def Rlx_DotGeneralOp : Rlx_Op<"dot_general", [Pure, InferTypeOpAdaptor,
                                             Rlx_ShapeRule,
                                             Rlx_ContractionOpInterface,
                                             SameOperandsElementType]> {
  let summary = "contraction with explicit batch and contracting dims (XLA)";
  let description = [{
    XLA `DotGeneral`. `lhs_batch_dims[k]` pairs with `rhs_batch_dims[k]` and
    `lhs_contracting_dims[k]` with `rhs_contracting_dims[k]`; paired
    dimensions have equal sizes. Every listed dimension is in `[0, rank)` and
    no dimension of an operand is listed twice. The result dimensions are,
    in order: the batch dimensions (in `lhs_batch_dims` order), the remaining
    (free) dimensions of `lhs`, then the free dimensions of `rhs`, each in
    increasing order. Every result element is the sum over the contracting
    dimensions of `lhs * rhs` (0 when they are empty). Low-precision floats
    (f16, bf16) accumulate in f32; integers accumulate in their own type.

    Example: `[B, M, K] x [B, K, N]` with `batching_dims = [0] x [0]`,
    `contracting_dims = [2] x [1]` is a batched matmul giving `[B, M, N]`.
  }];
  let arguments = (ins Rlx_NumberTensor:$lhs, Rlx_NumberTensor:$rhs,
                       DenseI64ArrayAttr:$lhs_batch_dims,
                       DenseI64ArrayAttr:$rhs_batch_dims,
                       DenseI64ArrayAttr:$lhs_contracting_dims,
                       DenseI64ArrayAttr:$rhs_contracting_dims);
  let results = (outs Rlx_NumberTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `batching_dims` `=` $lhs_batch_dims `x` $rhs_batch_dims `,`
    `contracting_dims` `=` $lhs_contracting_dims `x` $rhs_contracting_dims
    attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    /// Dimensions of `lhs` (`isLhs`) or `rhs` that are neither batch nor
    /// contracting dimensions, in increasing order.
    ::llvm::SmallVector<int64_t> getFreeDims(bool isLhs);
  }];
}

#endif // RLX_DIALECT_RLX_IR_RLXINDEXINGOPS_TD
