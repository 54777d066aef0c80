//===- GradSpatialOps.cpp - Spatial and indexing backward ops: verifiers
//---===//
//
// Each adjoint checks its shapes with its forward op's shape inference: the
// forward op applied to the declared (or given) forward operand shapes must
// give exactly the type of `grad_output`.
//
// With a `?` batch (the only `?` size a convolution or pool takes), the
// static check runs on the types, whose batches are `?` alike, and the
// shape rule relates the batches.
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

using namespace mlir;
using namespace mlir::rlx;

/// Checks that the forward op's inferred result type `forward` (if inferred)
/// is the type of `gradOutput`; `operands` names the forward operand shapes.
static LogicalResult checkGradOutputType(Operation *op,
                                         FailureOr<RankedTensorType> forward,
                                         Value gradOutput, StringRef operands) {
  if (failed(forward))
    return failure();
  if (*forward != gradOutput.getType())
    return op->emitOpError("grad_output must have the forward result type ")
           << *forward << " given by " << operands << ", got "
           << gradOutput.getType();
  return success();
}

/// The rule of the adjoint `op` of a batched forward op: every value of `op`
/// may have a `?` size in its batch (dimension 0) only, and `grad_output`,
/// the operands in `batched` and, where `resultBatched`, the result have
/// one batch. The result has its declared sizes otherwise.
static LogicalResult
inferBatchedAdjointShape(Operation *op, ShapeContext &context, Value gradOutput,
                         ValueRange batched, bool resultBatched,
                         SmallVectorImpl<SymbolicShape> &shapes) {
  SmallVector<Type> types(op->getOperandTypes());
  llvm::append_range(types, op->getResultTypes());
  for (Type type : types) {
    auto tensor = cast<RankedTensorType>(type);
    for (auto [d, size] : llvm::enumerate(tensor.getShape()))
      if (d > 0 && ShapedType::isDynamic(size))
        return op->emitOpError("may have `?` sizes only in the batch "
                               "(dimension 0), got ")
               << type;
  }
  AffineExpr batch = context.getShape(gradOutput)[0];
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  SymbolicShape shape = context.getShape(result);
  SmallVector<AffineExpr> batches;
  for (Value value : batched)
    batches.push_back(context.getShape(value)[0]);
  if (resultBatched)
    batches.push_back(shape[0]);
  for (AffineExpr other : batches)
    if (!context.requireEqual(other, batch))
      return op->emitOpError("grad_output has batch ")
             << ShapeContext::format(batch) << " but the forward input "
             << ShapeContext::format(other);
  if (resultBatched)
    shape[0] = batch;
  shapes.push_back(shape);
  return success();
}

LogicalResult ConvBackwardInputOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  return inferBatchedAdjointShape(*this, context, getGradOutput(), {},
                                  /*resultBatched=*/true, shapes);
}

LogicalResult ConvBackwardWeightOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  return inferBatchedAdjointShape(*this, context, getGradOutput(), getInput(),
                                  /*resultBatched=*/false, shapes);
}

LogicalResult ConvTransposeBackwardInputOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  return inferBatchedAdjointShape(*this, context, getGradOutput(), {},
                                  /*resultBatched=*/true, shapes);
}

LogicalResult ConvTransposeBackwardWeightOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  return inferBatchedAdjointShape(*this, context, getGradOutput(), getInput(),
                                  /*resultBatched=*/false, shapes);
}

LogicalResult
PoolBackwardOp::inferSymbolicShapes(ShapeContext &context,
                                    SmallVectorImpl<SymbolicShape> &shapes) {
  return inferBatchedAdjointShape(*this, context, getGradOutput(), getInput(),
                                  /*resultBatched=*/true, shapes);
}

LogicalResult GlobalPoolBackwardOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  return inferBatchedAdjointShape(*this, context, getGradOutput(), getInput(),
                                  /*resultBatched=*/true, shapes);
}

LogicalResult ConvBackwardInputOp::verify() {
  RankedTensorType input = getType();
  FailureOr<RankedTensorType> forward =
      inferConvType(getLoc(), input, getWeight().getType(), getStride(),
                    getPadding(), getDilation(), getGroups());
  return checkGradOutputType(*this, forward, getGradOutput(),
                             "the declared input " +
                                 formatShape(input.getShape()) +
                                 " and the weight");
}

LogicalResult ConvBackwardWeightOp::verify() {
  RankedTensorType weight = getType();
  FailureOr<RankedTensorType> forward =
      inferConvType(getLoc(), getInput().getType(), weight, getStride(),
                    getPadding(), getDilation(), getGroups());
  return checkGradOutputType(*this, forward, getGradOutput(),
                             "the input and the declared weight " +
                                 formatShape(weight.getShape()));
}

LogicalResult ConvTransposeBackwardInputOp::verify() {
  RankedTensorType input = getType();
  FailureOr<RankedTensorType> forward = inferConvTransposeType(
      getLoc(), input, getWeight().getType(), getStride(), getPadding(),
      getOutputPadding(), getDilation(), getGroups());
  return checkGradOutputType(*this, forward, getGradOutput(),
                             "the declared input " +
                                 formatShape(input.getShape()) +
                                 " and the weight");
}

LogicalResult ConvTransposeBackwardWeightOp::verify() {
  RankedTensorType weight = getType();
  FailureOr<RankedTensorType> forward = inferConvTransposeType(
      getLoc(), getInput().getType(), weight, getStride(), getPadding(),
      getOutputPadding(), getDilation(), getGroups());
  return checkGradOutputType(*this, forward, getGradOutput(),
                             "the input and the declared weight " +
                                 formatShape(weight.getShape()));
}

LogicalResult PoolBackwardOp::verify() {
  if (getCountIncludePad() && getKind() != PoolKind::Avg)
    return emitOpError("'count_include_pad' only applies to avg pooling");
  FailureOr<RankedTensorType> forward =
      inferPoolType(getLoc(), getInput().getType(), getKernel(), getStride(),
                    getPadding(), getCeilMode());
  return checkGradOutputType(*this, forward, getGradOutput(), "the input");
}

LogicalResult GlobalPoolBackwardOp::verify() {
  FailureOr<RankedTensorType> forward =
      inferGlobalPoolType(getLoc(), getInput().getType());
  return checkGradOutputType(*this, forward, getGradOutput(), "the input");
}

/// The table's sizes are grad_output's outside the gathered axis, which has
/// the declared (static) size: nothing else gives it.
LogicalResult
GatherBackwardOp::inferSymbolicShapes(ShapeContext &context,
                                      SmallVectorImpl<SymbolicShape> &shapes) {
  RankedTensorType table = getType();
  int64_t rank = table.getRank();
  FailureOr<int64_t> axis = normalizeAxis(getLoc(), getAxis(), rank);
  if (failed(axis))
    return failure();
  if (table.isDynamicDim(*axis))
    return emitOpError("the table's gathered axis ")
           << *axis << " must be static: no operand gives its size";
  SymbolicShape grad = context.getShape(getGradOutput());
  SymbolicShape indices = context.getShape(getIndices());
  int64_t gathered = indices.size();
  if (static_cast<int64_t>(grad.size()) != rank - 1 + gathered)
    return emitOpError("grad_output must have rank ")
           << rank - 1 + gathered << " (the table's with axis " << *axis
           << " replaced by the indices'), got " << grad.size();
  SymbolicShape shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == *axis) {
      shape.push_back(context.getConstant(table.getDimSize(d)));
      continue;
    }
    AffineExpr size = grad[d < *axis ? d : d + gathered - 1];
    if (!table.isDynamicDim(d) &&
        !context.requireEqual(size, context.getConstant(table.getDimSize(d))))
      return emitOpError("grad_output ")
             << ShapeContext::format(grad) << " does not match the table "
             << formatShape(table.getShape());
    shape.push_back(size);
  }
  for (int64_t i = 0; i < gathered; ++i)
    if (!context.requireEqual(grad[*axis + i], indices[i]))
      return emitOpError("grad_output ")
             << ShapeContext::format(grad) << " does not have the indices' "
             << ShapeContext::format(indices) << " at axis " << *axis;
  shapes.push_back(shape);
  return success();
}

LogicalResult GatherBackwardOp::verify() {
  RankedTensorType table = getType();
  FailureOr<RankedTensorType> forward =
      inferGatherType(getLoc(), table, getIndices().getType(), getAxis());
  return checkGradOutputType(*this, forward, getGradOutput(),
                             "the declared table " +
                                 formatShape(table.getShape()) +
                                 " and the indices");
}

LogicalResult CumsumBackwardOp::verify() {
  if (failed(normalizeAxis(getLoc(), getAxis(), getType().getRank())))
    return failure();
  return success();
}

LogicalResult
RopeBackwardOp::inferSymbolicShapes(ShapeContext &context,
                                    SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape grad = context.getShape(getGradOutput());
  if (failed(requireRopeTables(*this, context, getLayout(), grad,
                               {getCos(), getSin()}, getNRot())))
    return failure();
  shapes.push_back(grad);
  return success();
}

LogicalResult RopeBackwardOp::verify() {
  return verifyRopeOperands(*this, getLayout(), getGradOutput().getType(),
                            getCos(), getSin(), getHeadDim(), getNRot());
}
