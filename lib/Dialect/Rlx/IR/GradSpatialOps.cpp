//===- GradSpatialOps.cpp - Spatial and indexing backward ops: verifiers ---===//
//
// Each adjoint checks its shapes with its forward op's shape inference: the
// forward op applied to the declared (or given) forward operand shapes must
// give exactly the type of `grad_output`.
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
