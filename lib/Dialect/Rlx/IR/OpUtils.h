//===- OpUtils.h - Helpers shared by the rlx op verifiers -------*- C++ -*-===//
#ifndef RLX_LIB_DIALECT_RLX_IR_OPUTILS_H
#define RLX_LIB_DIALECT_RLX_IR_OPUTILS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"
#include "mlir/Support/LLVM.h"
#include "rlx/Dialect/Rlx/IR/SymbolicShapes.h"

#include <string>

namespace mlir::rlx {

/// A shape as `[2, 3]` (`?` for a dynamic size), for diagnostics.
std::string formatShape(ArrayRef<int64_t> shape);

/// A symbolic size for diagnostics: its value, or `?`.
std::string formatSize(AffineExpr size);

/// Normalizes `axis` from [-rank, rank) to [0, rank); fails with a diagnostic
/// naming `what` otherwise.
FailureOr<int64_t> normalizeAxis(std::optional<Location> loc, int64_t axis,
                                 int64_t rank, StringRef what = "axis");

/// The type of `value` as a ranked tensor; fails with a diagnostic naming
/// `what` (e.g. "input") otherwise.
FailureOr<RankedTensorType> getRankedType(std::optional<Location> loc,
                                          Value value, StringRef what);
FailureOr<RankedTensorType> getRankedType(std::optional<Location> loc,
                                          Type type, StringRef what);

/// Appends the shape a one-result rule computed (`inferSymbolicShapes`).
inline LogicalResult appendShape(FailureOr<SymbolicShape> shape,
                                 SmallVectorImpl<SymbolicShape> &shapes) {
  if (failed(shape))
    return failure();
  shapes.push_back(*shape);
  return success();
}

/// Appends the type of the shape a one-result rule computed, with
/// `elementType` (`inferReturnTypes`).
inline LogicalResult appendType(FailureOr<SymbolicShape> shape,
                                Type elementType,
                                SmallVectorImpl<Type> &types) {
  if (failed(shape))
    return failure();
  types.push_back(ShapeContext::getType(*shape, elementType));
  return success();
}

/// The result shape of `rlx.matmul` of `lhs` and `rhs`; fails with a
/// diagnostic otherwise.
FailureOr<SymbolicShape> inferMatmulShape(ShapeContext &context,
                                          std::optional<Location> loc,
                                          Value lhs, Value rhs);

/// The result type of `rlx.matmul` of `lhs` and `rhs`; fails with a
/// diagnostic otherwise.
FailureOr<RankedTensorType> inferMatmulType(std::optional<Location> loc,
                                            Value lhs, Value rhs);

/// The result shape of `rlx.conv` of an input and a weight of these types
/// with these attributes, the input's sizes given by `getInputSizes` (called
/// once the types are checked): its batch and spatial sizes may be `?`, the
/// window must fit each padded spatial size (a run-time requirement for a
/// `?` one). Fails with a diagnostic otherwise.
FailureOr<SymbolicShape>
inferConvShape(ShapeContext &context, std::optional<Location> loc, Type input,
               Type weight, ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
               ArrayRef<int64_t> dilation, int64_t groups,
               function_ref<SymbolicShape()> getInputSizes);

/// The result type of `rlx.conv` of an input and a weight of these types
/// with these attributes; fails with a diagnostic otherwise.
FailureOr<RankedTensorType>
inferConvType(std::optional<Location> loc, Type input, Type weight,
              ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
              ArrayRef<int64_t> dilation, int64_t groups);

/// The result shape of `rlx.conv_transpose` of an input and a weight of
/// these types with these attributes, the input's sizes given by
/// `getInputSizes` once the types are checked (its batch and spatial sizes
/// may be `?`). Fails with a diagnostic otherwise.
FailureOr<SymbolicShape> inferConvTransposeShape(
    ShapeContext &context, std::optional<Location> loc, Type input, Type weight,
    ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
    ArrayRef<int64_t> outputPadding, ArrayRef<int64_t> dilation, int64_t groups,
    function_ref<SymbolicShape()> getInputSizes);

/// The result type of `rlx.conv_transpose` of an input and a weight of these
/// types with these attributes; fails with a diagnostic otherwise.
FailureOr<RankedTensorType> inferConvTransposeType(
    std::optional<Location> loc, Type input, Type weight,
    ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
    ArrayRef<int64_t> outputPadding, ArrayRef<int64_t> dilation,
    int64_t groups);

/// The result shape of `rlx.pool` of an input of type `input` with these
/// attributes, the input's sizes given by `getInputSizes` once the type is
/// checked (its batch and spatial sizes may be `?`). Fails with a
/// diagnostic otherwise.
FailureOr<SymbolicShape>
inferPoolShape(ShapeContext &context, std::optional<Location> loc, Type input,
               ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
               ArrayRef<int64_t> padding, bool ceilMode,
               function_ref<SymbolicShape()> getInputSizes);

/// The result type of `rlx.pool` of an input of type `input` with these
/// attributes; fails with a diagnostic otherwise.
FailureOr<RankedTensorType> inferPoolType(std::optional<Location> loc,
                                          Type input, ArrayRef<int64_t> kernel,
                                          ArrayRef<int64_t> stride,
                                          ArrayRef<int64_t> padding,
                                          bool ceilMode);

/// The result type of `rlx.global_pool` of an input of type `input`; fails
/// with a diagnostic otherwise.
FailureOr<RankedTensorType> inferGlobalPoolType(std::optional<Location> loc,
                                                Type input);

/// The result type of `rlx.gather` from a table of type `table` by indices
/// of type `indices` along `axis`; fails with a diagnostic otherwise.
FailureOr<RankedTensorType> inferGatherType(std::optional<Location> loc,
                                            Type table, Type indices,
                                            int64_t axis);

/// Checks the operands of `rlx.rope` (and its adjoint) on `op`: `input` has
/// the trailing axes `layout` names, `head_dim` is D (`bshd`, `bhsd`) or
/// divides W (`bsd`), `n_rot` is even in (0, head_dim], and `cos` and `sin`
/// are [S, n_rot / 2].
LogicalResult verifyRopeOperands(Operation *op, AttentionLayout layout,
                                 RankedTensorType input, Value cos, Value sin,
                                 int64_t headDim, int64_t nRot);

/// Whether `from` broadcasts numpy-style to exactly `to` without adding
/// dimensions to `to`.
bool broadcastsTo(ArrayRef<int64_t> from, ArrayRef<int64_t> to);

/// `eps` of a normalization must be finite and non-negative.
LogicalResult verifyEps(Operation *op, double eps);

/// `param` (named `what`) must be the 1-D `[size]` vector of `axisName`,
/// with the element type of the op's first operand.
LogicalResult verifyPerAxisParam(Operation *op, Value param, StringRef what,
                                 int64_t size, StringRef axisName);

/// Channels-first ops: `input` is `[N, C, ...]` of rank >= `minRank` and
/// every one of `params` is `[C]`.
LogicalResult verifyChannelParams(Operation *op, RankedTensorType input,
                                  int64_t minRank, ValueRange params,
                                  ArrayRef<StringRef> names);

/// `groups` is positive and divides the static channel count of `input`.
LogicalResult verifyGroups(Operation *op, RankedTensorType input,
                           int64_t groups);

/// The class labels of `[N, C]` logits (C static) are `[N]`.
LogicalResult verifyLabels(std::optional<Location> loc, Type logits,
                           Type labels);

//===----------------------------------------------------------------------===//
// Relations of shape rules (each fails with a diagnostic on `op` when the
// relation provably does not hold)
//===----------------------------------------------------------------------===//

/// Channels-first: `input` is `[N, C, ...]` of rank >= `minRank` and every
/// one of `params` is `[C]`.
LogicalResult requireChannelParams(Operation *op, ShapeContext &context,
                                   ArrayRef<AffineExpr> input, int64_t minRank,
                                   ValueRange params);

/// `from` broadcasts numpy-style to `to` without adding dimensions to it (a
/// `?` never broadcasts: only a static 1 does).
LogicalResult requireBroadcastsTo(Operation *op, ShapeContext &context,
                                  Value from, ArrayRef<AffineExpr> to,
                                  StringRef what);

/// An index set with elements cannot read from an empty axis: a `?` axis
/// of `source` that `indices` may read must hold a row at run time.
LogicalResult requireGatherSource(ShapeContext &context,
                                  std::optional<Location> loc,
                                  ArrayRef<AffineExpr> source, int64_t axis,
                                  ArrayRef<AffineExpr> indices);

/// Checks a block-quantized `weight` (`rlx.dequant_matmul`'s layouts) of
/// rank `rank` (-1: any rank >= 2, leading dimensions stacking weights) with
/// its `scales` and `zero_points` (either may be null); returns the shape of
/// its values, `[..., N, K]`.
FailureOr<SmallVector<int64_t>>
checkBlockWeight(std::optional<Location> loc, StringRef scheme,
                 int64_t groupSize, Value weight, Value scales,
                 Value zeroPoints, int64_t rank);

/// The attribute rules of the block-quantized ops: a known `scheme`, its
/// `groupSize`, and the scale operands it needs.
LogicalResult verifyBlockScheme(Operation *op, StringRef scheme,
                                int64_t groupSize, Value scales,
                                Value zeroPoints);

/// `value` (named `what`) has the sizes `shape`.
LogicalResult requireSameShape(Operation *op, ShapeContext &context,
                               Value value, ArrayRef<AffineExpr> shape,
                               StringRef what);

/// The rope tables of an `input` in `layout` are `[S, n_rot / 2]`.
LogicalResult requireRopeTables(Operation *op, ShapeContext &context,
                                AttentionLayout layout,
                                ArrayRef<AffineExpr> input, ValueRange tables,
                                int64_t nRot);

//===----------------------------------------------------------------------===//
// Decompositions (DecomposableOpInterface)
//===----------------------------------------------------------------------===//

/// Zeros of `type`, the initial state of a recurrence, whose only `?` size
/// may be dimension 0, which then is dimension `batchAxis` of
/// `batchSource`: a sum of `batchSource` over its other dimensions gives a
/// tensor whose size, not its values, the zeros take (`rlx.expand ...
/// like`).
Value createBatchZeros(OpBuilder &b, Location loc, RankedTensorType type,
                       Value batchSource, int64_t batchAxis);

} // namespace mlir::rlx

#endif // RLX_LIB_DIALECT_RLX_IR_OPUTILS_H
