//===- ScanOps.cpp - Index reductions, scans and top-k: verifiers, shape inference ---===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

/// Fails with an error naming `op` unless `axis` is in [-rank, rank).
static LogicalResult verifyAxis(Operation *op, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return op->emitOpError("axis ")
           << axis << " is out of range for rank " << rank;
  return success();
}

//===----------------------------------------------------------------------===//
// ArgMaxOp / ArgMinOp
//===----------------------------------------------------------------------===//

template <typename OpTy>
static LogicalResult verifyArgReduce(OpTy op) {
  RankedTensorType input = op.getInput().getType();
  if (failed(verifyAxis(op, op.getAxis(), input.getRank())))
    return failure();
  int64_t length = input.getDimSize(op.getNormalizedAxis());
  if (op.getType().getElementType().isInteger(32) &&
      !ShapedType::isDynamic(length) &&
      length > std::numeric_limits<int32_t>::max())
    return op.emitOpError("an i32 result cannot index axis ")
           << op.getAxis() << " of length " << length;
  return success();
}

/// The input's shape without `axis` (or with it as 1 with `keep_dim`); the
/// axis must not be empty.
template <typename OpTy>
static LogicalResult
inferArgReduceShape(OpTy op, ShapeContext &context,
                    SmallVectorImpl<SymbolicShape> &shapes) {
  int64_t rank = op.getInput().getType().getRank();
  if (failed(verifyAxis(op, op.getAxis(), rank)))
    return failure();
  int64_t axis = op.getNormalizedAxis();
  SymbolicShape input = context.getShape(op.getInput());
  if (!context.requireLessEqual(context.getConstant(1), input[axis]))
    return op.emitOpError("axis ")
           << op.getAxis() << " of " << op.getInput().getType()
           << " is empty: it has no "
           << (std::is_same_v<OpTy, ArgMaxOp> ? "maximum" : "minimum");
  SymbolicShape shape;
  for (auto [d, size] : llvm::enumerate(input)) {
    if (static_cast<int64_t>(d) != axis)
      shape.push_back(size);
    else if (op.getKeepDim())
      shape.push_back(context.getConstant(1));
  }
  shapes.push_back(shape);
  return success();
}

LogicalResult ArgMaxOp::verify() { return verifyArgReduce(*this); }

LogicalResult ArgMinOp::verify() { return verifyArgReduce(*this); }

LogicalResult
ArgMaxOp::inferSymbolicShapes(ShapeContext &context,
                              SmallVectorImpl<SymbolicShape> &shapes) {
  return inferArgReduceShape(*this, context, shapes);
}

LogicalResult
ArgMinOp::inferSymbolicShapes(ShapeContext &context,
                              SmallVectorImpl<SymbolicShape> &shapes) {
  return inferArgReduceShape(*this, context, shapes);
}

//===----------------------------------------------------------------------===//
// CumsumOp / CumprodOp / CummaxOp
//===----------------------------------------------------------------------===//

template <typename OpTy>
static LogicalResult verifyScanAxis(OpTy op) {
  return verifyAxis(op, op.getAxis(), op.getType().getRank());
}

LogicalResult CumsumOp::verify() { return verifyScanAxis(*this); }

LogicalResult CumprodOp::verify() { return verifyScanAxis(*this); }

LogicalResult CummaxOp::verify() { return verifyScanAxis(*this); }

//===----------------------------------------------------------------------===//
// TopKOp
//===----------------------------------------------------------------------===//

/// The input's shape with the last dimension replaced by k, for both
/// results; k is at most the last dimension.
static FailureOr<SymbolicShape> inferTopKShape(ShapeContext &context,
                                               std::optional<Location> loc,
                                               TopKOp::Adaptor adaptor) {
  auto input = dyn_cast<RankedTensorType>(adaptor.getInput().getType());
  if (!input)
    return emitOptionalError(loc, "expected a ranked tensor input");
  if (input.getRank() == 0)
    return emitOptionalError(loc, "topk needs an input of rank >= 1, got ",
                             input);
  int64_t k = adaptor.getK();
  SymbolicShape shape = context.getShape(adaptor.getInput());
  if (k <= 0 || !context.requireLessEqual(context.getConstant(k), shape.back()))
    return emitOptionalError(loc, "k = ", k, " is not in [1, ",
                             formatSize(shape.back()),
                             "], the length of the last axis of ", input);
  shape.back() = context.getConstant(k);
  return shape;
}

LogicalResult TopKOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  FailureOr<SymbolicShape> shape = inferTopKShape(shapes, loc, adaptor);
  if (failed(shape))
    return failure();
  inferred.push_back(ShapeContext::getType(
      *shape,
      cast<RankedTensorType>(adaptor.getInput().getType()).getElementType()));
  inferred.push_back(
      ShapeContext::getType(*shape, IntegerType::get(context, 64)));
  return success();
}

LogicalResult
TopKOp::inferSymbolicShapes(ShapeContext &context,
                            SmallVectorImpl<SymbolicShape> &shapes) {
  FailureOr<SymbolicShape> shape =
      inferTopKShape(context, getLoc(), Adaptor(*this));
  if (failed(shape))
    return failure();
  shapes.assign(2, *shape);
  return success();
}
