//===- Utils.h - Helpers shared by the rlx-to-linalg patterns ---*- C++ -*-===//
#ifndef RLX_LIB_CONVERSION_RLXTOLINALG_UTILS_H
#define RLX_LIB_CONVERSION_RLXTOLINALG_UTILS_H

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "rlx/Dialect/Rlx/IR/BodyGenerics.h"

namespace mlir::rlx {

/// The map of a `numLoops`-loop generic that reads the loops `dims`, in
/// that order.
AffineMap getLoopsMap(MLIRContext *context, int64_t numLoops,
                      ArrayRef<int64_t> dims);

/// The sizes of `op`'s result `result`: attributes where static, computed
/// from its operands through its shape rule where `?`.
SmallVector<OpFoldResult> getResultSizes(OpBuilder &b, Operation *op,
                                         unsigned result = 0);

/// A tensor of `resultType` whose element at index i is `input[inputMap(i)]`:
/// broadcasts, strided and reversed reads are all this one parallel copy.
/// `sizes` are the result's sizes, needed where `resultType` has `?`.
Value createIndexedCopy(OpBuilder &b, Location loc, Value input,
                        AffineMap inputMap, RankedTensorType resultType,
                        ArrayRef<OpFoldResult> sizes = {});

/// Applies `convert` (scalar to scalar) to every element of `input`, giving a
/// tensor of `resultType` (same shape).
Value mapElements(OpBuilder &b, Location loc, Value input,
                  RankedTensorType resultType,
                  function_ref<Value(OpBuilder &, Location, Value)> convert);

/// `input` with every element converted to `elementType` (extf, truncf, ...).
Value convertElements(OpBuilder &b, Location loc, Value input,
                      Type elementType);

/// The rlx.matmul product of `lhs` and `rhs`, accumulated from zero in a
/// tensor of `accType` (the result shape in the computation type).
Value createMatmulAccumulation(OpBuilder &b, Location loc, Value lhs, Value rhs,
                               RankedTensorType accType);

/// The rlx.conv of `input` and `weight` with these attributes, accumulated
/// from zero in a tensor of `accType` (the result shape in the computation
/// type).
Value createConvAccumulation(OpBuilder &b, Location loc, Value input,
                             Value weight, ArrayRef<int64_t> stride,
                             ArrayRef<int64_t> padding,
                             ArrayRef<int64_t> dilation, int64_t groups,
                             RankedTensorType accType);

/// The rlx.conv_transpose of `input` and `weight` with these attributes,
/// accumulated from zero in a tensor of `accType` (the result shape in the
/// computation type). The output padding may be run-time values.
Value createConvTransposeAccumulation(OpBuilder &b, Location loc, Value input,
                                      Value weight, ArrayRef<int64_t> stride,
                                      ArrayRef<int64_t> padding,
                                      ArrayRef<OpFoldResult> outputPadding,
                                      ArrayRef<int64_t> dilation,
                                      int64_t groups, RankedTensorType accType);

/// Splits `[lo_0, hi_0, lo_1, hi_1, ...]` into its low and high halves.
std::pair<SmallVector<int64_t>, SmallVector<int64_t>>
splitPadding(ArrayRef<int64_t> padding);

/// `input` [N, C, X...] with `low[i]` and `high[i]` zeros (-inf with
/// `negInf`) around spatial dimension i; `input` itself when there is nothing
/// to add.
Value padSpatial(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                 bool negInf = false);

/// `value` with dimension `dim` split into `[outer, size / outer]`.
Value splitDim(OpBuilder &b, Location loc, Value value, int64_t dim,
               int64_t outer);

/// `value` with dimensions `dim` and `dim + 1` merged.
Value mergeDims(OpBuilder &b, Location loc, Value value, int64_t dim);

/// The input [N, C, X...] of rlx.pool padded by `padding` (zeros, or -inf
/// with `negInf`) and, in `ceilMode`, further at the high end so that every
/// window of the pool's result shape `resultShape` lies inside it (the last
/// windows may run past the padding; a `?` size's padding is computed).
Value padPoolInput(OpBuilder &b, Location loc, Value input,
                   ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
                   ArrayRef<int64_t> padding, ArrayRef<int64_t> resultShape,
                   bool ceilMode, bool negInf);

/// The divisor of rlx.pool avg for the window at spatial output position
/// `window` (index values): its positions inside the padded input with
/// `countIncludePad`, inside the input without it (an index value). The
/// kernel may be run-time sizes (a global pool's).
Value createPoolWindowCount(OpBuilder &b, Location loc, ValueRange window,
                            ArrayRef<OpFoldResult> inputSizes,
                            ArrayRef<OpFoldResult> kernel,
                            ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
                            bool countIncludePad);

/// `value` with a trailing dimension of size 1 (indices of one coordinate,
/// as rlx.scatter reads them).
Value appendUnitDim(OpBuilder &b, Location loc, Value value);

/// An rlx.scatter of `updates` into `init` at `indices` (see the op for
/// `loopDims`, `indexLoops`, `indexDims` and `clampIndices`) whose combiner
/// is `combine(update, current)`.
Value createScatter(
    OpBuilder &b, Location loc, Value updates, Value indices, Value init,
    ArrayRef<int64_t> loopDims, ArrayRef<int64_t> indexLoops,
    ArrayRef<int64_t> indexDims, bool clampIndices,
    function_ref<Value(ScalarBuilder &, Value update, Value current)> combine);

/// The 1-D tensor type of a line of `tensor` along `axis`.
RankedTensorType getLineType(Value tensor, int64_t axis);

/// An uninitialized line shaped as the 1-D `like`, of length `n` where
/// that is `?`.
Value createEmptyLine(OpBuilder &b, Location loc, RankedTensorType like,
                      Value n);

/// The results of `body` run on every line along `axis` of `input`: an
/// scf.forall over the other dimensions, whose iteration extracts the line
/// of `input` and of each of `inits` (shaped as `input` but for their size
/// along `axis`) as 1-D tensors and inserts the lines `body` returns for the
/// latter. A rank-1 input is one line and gets no loop.
SmallVector<Value> buildLineLoop(
    OpBuilder &b, Location loc, Value input, int64_t axis, ValueRange inits,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>
        body);

} // namespace mlir::rlx

#endif // RLX_LIB_CONVERSION_RLXTOLINALG_UTILS_H
