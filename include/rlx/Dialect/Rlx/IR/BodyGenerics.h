//===- BodyGenerics.h - Region bodies as linalg generics ----------*- C++
//-*-===//
//
// The linalg form of the bodies of rlx.region and rlx.rows: generics that
// evaluate body ops through their scalar semantics (ScalarComputeOpInterface,
// ReductionOpInterface), rounding every body value to its element type as
// the unfused op would store it. rlx-to-linalg lowers regions with them, and
// rlx.rows decomposes its tiles with them.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_BODYGENERICS_H
#define RLX_DIALECT_RLX_IR_BODYGENERICS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

namespace mlir::rlx {

/// The ranked tensor type of `value` (every rlx value has one).
inline RankedTensorType getTensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

/// The element type of `value`'s tensor type.
inline Type getElementType(Value value) {
  return getTensorType(value).getElementType();
}

/// The indexing map that reads `operand` while iterating over a numpy-style
/// broadcast to `shape`: leading dimensions the operand lacks are dropped,
/// and its size-1 dimensions read index 0 where the loop is longer (a loop
/// of size 1 reads them with the loop, so the map stays the identity where
/// nothing broadcasts and every loop appears in some map).
AffineMap getBroadcastIndexingMap(RankedTensorType operand,
                                  ArrayRef<int64_t> shape);

/// An uninitialized tensor of `type`, which must be static.
Value createEmptyTensor(OpBuilder &b, Location loc, RankedTensorType type);

/// An uninitialized tensor of `sizes` and `elementType`.
Value createEmptyTensor(OpBuilder &b, Location loc,
                        ArrayRef<OpFoldResult> sizes, Type elementType);

/// The sizes of the loops of a generic over `shape` that reads `tensors`
/// through `maps`: a static size as an attribute, a `?` as the `tensor.dim`
/// of a tensor that reads the loop as one of its dimensions (a `?` size
/// never broadcasts, so every dynamic loop has one).
SmallVector<OpFoldResult> getLoopSizes(OpBuilder &b, Location loc,
                                       ArrayRef<int64_t> shape,
                                       ValueRange tensors,
                                       ArrayRef<AffineMap> maps);

/// A tensor of `type` filled with `value`.
Value createFilledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                         Value value);

/// A tensor of `sizes` and `value`'s type filled with `value`.
Value createFilledTensor(OpBuilder &b, Location loc,
                         ArrayRef<OpFoldResult> sizes, Value value);

/// Groups for expanding a tensor whose `axes` were reduced away back to rank
/// `rank` with those axes as size-1 dimensions: each reduced axis joins the
/// group of the nearest kept axis before it (leading ones join the first
/// kept axis); no groups when every axis was reduced.
SmallVector<ReassociationIndices>
getKeepDimReassociation(int64_t rank, ArrayRef<int64_t> axes);

/// `value` (in a computation type) rounded to `storage` and back, as an
/// unfused op stores and its consumer reloads it.
Value roundTo(ScalarBuilder &b, Value value, Type storage);

/// Emits the scalar computation of elementwise `op` from the scalars of its
/// operands in `scalars` and maps its result to the rounded scalar.
void emitScalarOp(ScalarBuilder &b, Operation *op, IRMapping &scalars);

/// Maps body value `value` to `element` (a stored element) in its
/// computation type.
void bindElement(ScalarBuilder &b, IRMapping &scalars, Value value,
                 Value element);

/// A parallel generic over `shape` that reads the body values `leaves` from
/// `tensors` (broadcast numpy-style), evaluates every elementwise body op in
/// `ops` (in order) and yields `results` in their element types, into
/// `inits` when given.
linalg::GenericOp
emitElementwiseGeneric(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                       ArrayRef<Value> leaves, ArrayRef<Value> tensors,
                       ArrayRef<Operation *> ops, ArrayRef<Value> results,
                       ValueRange inits = {});
/// The same, with `tensors` read through `maps`.
linalg::GenericOp
emitElementwiseGeneric(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                       ArrayRef<Value> leaves, ArrayRef<Value> tensors,
                       ArrayRef<AffineMap> maps, ArrayRef<Operation *> ops,
                       ArrayRef<Value> results, ValueRange inits);

/// The map from a loop nest over a `rank`-d shape to the accumulator of a
/// reduction over `axes`.
AffineMap getAccumulatorMap(MLIRContext *context, int64_t rank,
                            ArrayRef<int64_t> axes);

/// The number of elements each reduction of `axes` of loops of `sizes`
/// combines.
OpFoldResult getReducedCount(OpBuilder &b, Location loc,
                             ArrayRef<OpFoldResult> sizes,
                             ArrayRef<int64_t> axes);

/// A generic over `shape` reducing `axes`: reads the body values `leaves`
/// from `tensors` (broadcast), evaluates the elementwise `ops` in order and
/// folds each of `reductions`' inputs into its accumulator (the identity,
/// in the computation type, with the reduced axes dropped).
linalg::GenericOp
emitReductionGeneric(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                     ArrayRef<int64_t> axes, ArrayRef<Value> leaves,
                     ValueRange tensors, ArrayRef<Operation *> ops,
                     ArrayRef<ReductionOpInterface> reductions);
/// The same, with `tensors` read through `maps`.
linalg::GenericOp emitReductionGeneric(
    OpBuilder &b, Location loc, ArrayRef<int64_t> shape, ArrayRef<int64_t> axes,
    ArrayRef<Value> leaves, ValueRange tensors, ArrayRef<AffineMap> maps,
    ArrayRef<Operation *> ops, ArrayRef<ReductionOpInterface> reductions);

} // namespace mlir::rlx

#endif // RLX_DIALECT_RLX_IR_BODYGENERICS_H
