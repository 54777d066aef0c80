//===- RegionOps.cpp - rlx.region and rlx.yield ---------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "mlir/Dialect/Traits.h"

#include "OpUtils.h"

using namespace mlir;
using namespace mlir::rlx;

YieldOp RegionOp::getYield() {
  return dyn_cast<YieldOp>(getBody().front().getTerminator());
}

LogicalResult RegionOp::verify() {
  if (getResults().empty())
    return emitOpError("must return at least one value");
  return success();
}

LogicalResult RegionOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("has ")
           << getInputs().size() << " inputs but its body takes "
           << body.getNumArguments() << " arguments";
  for (auto [i, input, arg] :
       llvm::enumerate(getInputs(), body.getArguments()))
    if (input.getType() != arg.getType())
      return emitOpError("input ")
             << i << " has type " << input.getType()
             << " but body argument " << i << " has type " << arg.getType();
  YieldOp yield = getYield();
  if (!yield)
    return emitOpError("body must end with rlx.yield");
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError("yields ")
           << yield.getValues().getTypes() << " but returns "
           << getResultTypes();

  // kind = elementwise: one iteration shape for every body value.
  ArrayRef<int64_t> shape = getIterationShape();
  for (Type type : getResultTypes())
    if (cast<RankedTensorType>(type).getShape() != shape)
      return emitOpError("elementwise region results must all have shape ")
             << formatShape(shape) << ", got " << type;
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    SmallVector<int64_t> broadcast;
    auto inputShape = cast<RankedTensorType>(input.getType()).getShape();
    if (!OpTrait::util::getBroadcastedShape(inputShape, shape, broadcast) ||
        ArrayRef<int64_t>(broadcast) != shape)
      return emitOpError("input ")
             << i << " of shape " << formatShape(inputShape)
             << " does not broadcast to the iteration shape "
             << formatShape(shape);
  }
  for (Operation &op : body.without_terminator()) {
    if (!isa<ScalarComputeOpInterface>(op))
      return op.emitOpError("cannot join an elementwise region: it has no "
                            "scalar semantics (ScalarComputeOpInterface)");
    auto type = cast<RankedTensorType>(op.getResult(0).getType());
    if (type.getShape() != shape)
      return op.emitOpError("produces shape ")
             << formatShape(type.getShape())
             << " inside an elementwise region of iteration shape "
             << formatShape(shape);
  }
  return success();
}
